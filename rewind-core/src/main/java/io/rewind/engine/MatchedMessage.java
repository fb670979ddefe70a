package io.rewind.engine;

/**
 * A message that a matched probe ({@code MPI_Mprobe}, {@code MPI_Improbe}) took out of matching: no
 * other receive or probe can see it any more, and only {@link Communicator#mrecv} receives it. This is
 * what makes probe-then-receive safe when several threads of a rank receive from the same source.
 */
public final class MatchedMessage {
    /** What a matched probe of {@code PROC_NULL} finds ({@code MPI_MESSAGE_NO_PROC}). */
    public static final MatchedMessage NO_PROC = new MatchedMessage(null, null);

    final Frame frame;
    final Communicator communicator;
    private boolean received;

    MatchedMessage(Frame frame, Communicator communicator) {
        this.frame = frame;
        this.communicator = communicator;
    }

    public int source() {
        return frame == null ? Constants.PROC_NULL : frame.source;
    }

    public int tag() {
        return frame == null ? Constants.ANY_TAG : frame.tag;
    }

    public long lengthBytes() {
        return frame == null ? 0 : frame.lengthBytes;
    }

    /** Marks the message received; false if it was already (a message is received once). */
    synchronized boolean markReceived() {
        if (received) {
            return false;
        }
        received = true;
        return true;
    }
}
