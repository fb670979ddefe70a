/**
 * Fault tolerance. The protocol SPI: {@link io.rewind.ft.Protocol} (one per job: which ranks roll back
 * to which line), {@link io.rewind.ft.RankProtocol} (one per rank incarnation: the engine's hooks,
 * checkpoint and replay duties), {@link io.rewind.ft.RecoveryPlan}, and the {@link
 * io.rewind.ft.ProtocolRegistry} that names the protocols, each by a {@link
 * io.rewind.ft.ProtocolDescriptor} that declares its {@link io.rewind.ft.Capability capabilities} and
 * its {@link io.rewind.ft.ProtocolOption options}. One package per protocol ({@code template} to start
 * a new one); none imports another. What several share lives here (the event logger, the registry of
 * recovery lines, {@link io.rewind.ft.RollbackChains}) or in a shared sub-package: {@code log}, the
 * sender-based payload log; {@code logger}, the logger nodes; {@code sender}, sender-based logging;
 * {@code piggyback}, determinants piggybacked on messages. Depends on the engine and the checkpoint
 * layer; never on the runtime or the facade, which reach a protocol through the registry only.
 */
package io.rewind.ft;
