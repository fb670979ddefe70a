package io.rewind.engine;

/**
 * The control messages that cancel a send whose receiver is in another process (MPI_Cancel of a
 * send): the sender asks, the receiver withdraws the frame if no receive or matched probe has taken it
 * and answers. A send whose receiver shares this process's memory is withdrawn directly ({@link
 * Transport#withdraw}). Under a logging protocol a cancelled send stays in its sender's log, and its
 * replay to a restarted receiver is a {@link Withdrawn} notice, not the message: the receiver's
 * arrival numbering goes past it and no receive can match it.
 */
public final class SendCancellation {
    private SendCancellation() {}

    /** From the sender: withdraw my frame {@code sequence} on {@code context} if it is still unmatched. */
    public record Request(int sourceWorld, int incarnation, int context, long sequence) implements ControlMessage {}

    /** From the receiver: whether frame {@code sequence} on {@code context} of the asking rank was withdrawn. */
    public record Answer(int sourceWorld, int incarnation, int context, long sequence, boolean withdrawn)
            implements ControlMessage {}

    /**
     * Replay of a cancelled send to a restarted receiver: frame {@code sequence} on {@code context} of
     * {@code sourceWorld} was withdrawn; it is admitted in its place in the channel's order and never
     * matched.
     */
    public record Withdrawn(int sourceWorld, int incarnation, int context, long sequence) implements ControlMessage {}
}
