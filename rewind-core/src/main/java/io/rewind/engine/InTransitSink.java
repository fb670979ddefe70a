package io.rewind.engine;

/**
 * Where a rank keeps the messages that were in transit across one of its recovery lines: sent before
 * the sender wrote the line and arrived after the receiver wrote it. Neither side's state at the line
 * holds such a message (the sender had sent it, the receiver had not received it), so without this
 * copy a restart of both from the line would lose it. It is the channel state of a Chandy-Lamport or
 * Lai-Yang snapshot, kept at the receiver as the message arrives.
 *
 * <p>{@link #crossed} is called under the mailbox lock, on whatever thread delivers the frame: it only
 * takes the copy, and the sink makes it durable on a thread of its own, never the rank's (a line is
 * complete for a restart only once the sink has said so, so a write not yet done loses nothing).
 */
public interface InTransitSink {
    /**
     * A frame that crossed the receiver's lines after {@code frame.line()} up to {@code receiverLine}
     * was admitted; {@code copy} is a private copy of it. Must not block.
     */
    void crossed(Frame copy, int receiverLine);
}
