/**
 * Programs whose messages cross checkpoint lines: a message is sent in one iteration and received in
 * a later one, so it can be sent before its sender's recovery line and received after its receiver's.
 * Written against package {@code mpi} and {@link io.rewind.api.Checkpointer} alone; each prints on
 * rank 0 one result line whose checksum depends on every value received, so that a run with crashes
 * can be compared bit for bit with a run without.
 *
 * <ul>
 *   <li>{@link io.rewind.apps.crossing.LateReceivePair}: one channel, received a number of iterations
 *       late, with payloads of any size and standard or buffered sends;</li>
 *   <li>{@link io.rewind.apps.crossing.PipelineRing}: a ring received one iteration late, and tokens
 *       gathered by rank 0 with wildcard receives one iteration late;</li>
 *   <li>{@link io.rewind.apps.crossing.CrossingMix}: several channels crossing at once (lags of 0, 1
 *       and 2 iterations, a large message, a synchronous send, probed receives).</li>
 * </ul>
 *
 * <p>In each, the rank that receives a channel's messages computes less than the rank that sends them,
 * so the receiver passes its checkpoint point before the message it takes next has been sent: most
 * messages are in flight across a line when it is written, rather than waiting in the receiver's queue.
 */
package io.rewind.apps.crossing;
