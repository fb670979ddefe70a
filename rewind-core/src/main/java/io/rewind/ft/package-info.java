/**
 * Fault-tolerance protocols behind the engine's {@link io.rewind.engine.FaultTolerance} SPI, and the
 * job-level services they rely on: the event logger (stable store of non-deterministic outcomes) and
 * the registry of recovery lines (what each rank's checkpoints hold, for log truncation and replay).
 * One package per protocol; {@code log} is the sender-based payload log they share. Depends on the
 * engine and the checkpoint layer; never on the runtime or the facade.
 */
package io.rewind.ft;
