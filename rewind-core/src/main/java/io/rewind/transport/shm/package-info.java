/**
 * The shared-memory transport between the rank processes of one host: {@link
 * io.rewind.transport.shm.ShmTransport}, one single-producer ring per ordered pair of rank incarnations
 * ({@link io.rewind.transport.shm.Ring}) in memory files of the job's folder ({@link
 * io.rewind.transport.shm.ShmFolder}, mode 0700, files 0600), and a futex doorbell per incarnation that
 * wakes a parked rank's poller ({@code Bell}, {@code Futex}). Design, protection and failure handling:
 * docs/launching.md, "Shared memory between the rank processes of a host".
 *
 * <p>Depends on the engine's transport SPI and {@link io.rewind.transport.JobSecret} only.
 */
package io.rewind.transport.shm;
