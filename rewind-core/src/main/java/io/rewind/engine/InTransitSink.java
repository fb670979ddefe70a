package io.rewind.engine;

/**
 * Where a rank keeps the messages that were in transit across one of its recovery lines: sent before
 * the sender wrote the line and arrived after the receiver wrote it. Neither side's state at the line
 * holds such a message (the sender had sent it, the receiver had not received it), so without this
 * copy a restart of both from the line would lose it. It is the channel state of a Chandy-Lamport or
 * Lai-Yang snapshot, kept at the receiver as the message arrives.
 *
 * <p>{@link #crossed} is called under the mailbox lock, on whatever thread delivers the frame: it only
 * takes the copy. The rank's own thread makes the copies durable in {@link #flush}, from its progress.
 */
public interface InTransitSink {
    /**
     * A frame that crossed the receiver's lines after {@code frame.line()} up to {@code receiverLine}
     * was admitted; {@code copy} is a private copy of it. Must not block.
     */
    void crossed(Frame copy, int receiverLine);

    /** Whether copies wait for {@link #flush}: a plain read, asked at every progress. */
    boolean pending();

    /** Makes the copies taken so far durable with their lines. On the rank's thread, no lock held. */
    void flush();
}
