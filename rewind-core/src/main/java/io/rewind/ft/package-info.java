/**
 * Fault tolerance. The protocol SPI: {@link io.rewind.ft.Protocol} (one per job: which ranks roll back
 * to which line), {@link io.rewind.ft.RankProtocol} (one per rank incarnation: the engine's hooks,
 * checkpoint and replay duties), {@link io.rewind.ft.RecoveryPlan}, and the {@link
 * io.rewind.ft.ProtocolRegistry} that names the protocols. One package per protocol ({@code none},
 * {@code global}, {@code pessimistic}; {@code template} to start a new one), the job-level services
 * they share (the event logger, the registry of recovery lines), and {@code log}, the sender-based
 * payload log. Depends on the engine and the checkpoint layer; never on the runtime or the facade.
 */
package io.rewind.ft;
