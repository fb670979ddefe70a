/**
 * Pessimistic sender-based message logging: payloads in the sender's {@link io.rewind.ft.log.PayloadLog},
 * non-deterministic outcomes in the job's {@link io.rewind.ft.EventLogger} before the rank acts on
 * them, collectives logged at application level (contributions and results, each once), and replay to
 * a restarted rank of exactly the messages its checkpoint does not hold.
 */
package io.rewind.ft.pessimistic;
