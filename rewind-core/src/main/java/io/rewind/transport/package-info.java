/**
 * Transport implementations of the engine's transport SPI ({@link io.rewind.engine.Transport}).
 * {@code local} moves frames between ranks of one JVM; {@code tcp} between rank processes, over TCP
 * (Netty); {@code shm} between the rank processes of one host, through rings in shared memory; {@link
 * io.rewind.transport.RoutedTransport} is a rank process's transport, shared memory to the ranks of its
 * host and TCP to the others. {@link io.rewind.transport.JobSecret} is the secret every connection of a
 * job proves. A
 * transport depends on the engine's SPI types only, never on the runtime, the fault-tolerance layer or
 * the facade.
 */
package io.rewind.transport;
