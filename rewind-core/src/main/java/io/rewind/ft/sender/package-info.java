/**
 * The sender side of the protocols that log payloads at the sender ({@code pessimistic}, {@code
 * causal}, {@code mcml}, {@code spbc}): a stack of small layers, each owning one concern, put together
 * per rank incarnation by {@link io.rewind.ft.sender.SenderLoggingRank}.
 *
 * <ul>
 *   <li>{@link io.rewind.ft.sender.SenderLoggingRank}: the logged send path (skip, log, index in
 *       {@link io.rewind.ft.sender.SentFrames}, stage short payloads), the restart handshake, and the
 *       composition of the layers below.
 *   <li>{@link io.rewind.ft.sender.ReplayServer}: serves a restarted peer's replay from the log, in
 *       acknowledged batches.
 *   <li>{@link io.rewind.ft.sender.LogSpill}: the log's oldest entries to logger nodes ({@link
 *       io.rewind.ft.sender.LoggerSpill} over the job's {@code LoggerClient}, whose nodes live in this
 *       JVM or in logger processes; {@link io.rewind.ft.sender.LogSpill#NONE} without loggers).
 *   <li>{@link io.rewind.ft.sender.ChannelQuota}: the switch-off loop of memory-constrained logging;
 *       which channel goes off, and whether the job consents, is the {@link
 *       io.rewind.ft.sender.ChannelSwitch}'s ({@code mcml}'s {@code McmlChannels}).
 *   <li>{@link io.rewind.ft.sender.LogTruncation}: lets frames go after a checkpoint, or when their
 *       channel is switched off.
 *   <li>{@link io.rewind.ft.sender.SenderStatistics}: what the run record counts.
 *   <li>{@link io.rewind.ft.sender.OutcomeLog}: where the outcomes of non-deterministic events go
 *       (event logger, piggybacked determinants, or nowhere).
 * </ul>
 *
 * <p>{@link io.rewind.ft.sender.SenderLoggingProtocol} is the job side's shared start-up: a protocol
 * extends it and composes its rank's stack in {@code composeRank}.
 *
 * <p>Threads and locks: every layer is guarded by its rank's one logging lock, and none makes a round
 * trip to another process, or waits for one, while holding it: what to do is chosen under the lock and
 * the request goes out after (a logger's room from the rank's spill thread, {@code
 * rewind-log-spill-R}, owned by {@link io.rewind.ft.sender.LoggerSpill} and stopped when the
 * incarnation closes; the job's consent to a switch-off and a replay's read of a dumped payload from
 * the calling thread).
 */
package io.rewind.ft.sender;
