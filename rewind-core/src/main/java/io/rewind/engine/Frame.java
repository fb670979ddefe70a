package io.rewind.engine;

import java.lang.foreign.MemorySegment;

/**
 * One message as it travels from a sender to a receiver's matching queues: the envelope (context,
 * source rank in the communicator, tag, per-channel sequence number) and the payload.
 *
 * <p>The payload is either owned (a private copy, for eager messages that arrive before their
 * receive is posted) or borrowed (a view of the sender's buffer, for rendezvous and synchronous
 * sends; the sender's request completes only when the receiver has copied out of it, and only
 * transports that share memory may borrow).
 */
public final class Frame {
    final int context;
    final int source;
    final int sourceWorld;
    final int tag;
    final long sequence;
    final long lengthBytes;
    MemorySegment data;
    long dataOffset;
    /** Non-null when the sender waits for this frame to be consumed (rendezvous and synchronous sends). */
    final SendRequest sender;

    public Frame(int context, int source, int sourceWorld, int tag, long sequence,
                 MemorySegment data, long dataOffset, long lengthBytes, SendRequest sender) {
        this.context = context;
        this.source = source;
        this.sourceWorld = sourceWorld;
        this.tag = tag;
        this.sequence = sequence;
        this.data = data;
        this.dataOffset = dataOffset;
        this.lengthBytes = lengthBytes;
        this.sender = sender;
    }

    public int context() {
        return context;
    }

    public int source() {
        return source;
    }

    public int sourceWorld() {
        return sourceWorld;
    }

    public int tag() {
        return tag;
    }

    public long sequence() {
        return sequence;
    }

    public long lengthBytes() {
        return lengthBytes;
    }

    /** Replaces a borrowed payload by a private copy, so the sender may reuse its buffer at once. */
    void materialize() {
        if (lengthBytes == 0) {
            data = MemorySegment.NULL;
            dataOffset = 0;
            return;
        }
        byte[] copy = new byte[Math.toIntExact(lengthBytes)];
        MemorySegment owned = MemorySegment.ofArray(copy);
        MemorySegment.copy(data, dataOffset, owned, 0, lengthBytes);
        data = owned;
        dataOffset = 0;
    }

    boolean matches(int wantContext, int wantSource, int wantTag) {
        return context == wantContext
                && (wantSource == Constants.ANY_SOURCE || wantSource == source)
                && (wantTag == Constants.ANY_TAG || wantTag == tag);
    }

    @Override
    public String toString() {
        return "Frame[ctx=" + context + " src=" + source + " tag=" + tag + " seq=" + sequence
                + " bytes=" + lengthBytes + (sender != null ? " rendezvous" : "") + "]";
    }
}
