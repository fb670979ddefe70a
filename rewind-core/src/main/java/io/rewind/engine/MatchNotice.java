package io.rewind.engine;

/**
 * From the receiver of a synchronous send to its sender, when the sender's buffer was not shared
 * (ranks in different processes): "rank {@code sourceWorld} matched your frame {@code sequence} on
 * context {@code context}", so the synchronous send completes, as MPI requires, only once its
 * receive has started. Handled by the receiving mailbox itself, in the thread that delivers it.
 */
public record MatchNotice(int sourceWorld, int incarnation, int context, long sequence) implements ControlMessage {}
