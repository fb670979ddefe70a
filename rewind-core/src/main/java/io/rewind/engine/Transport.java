package io.rewind.engine;

/**
 * The transport SPI: moves frames between ranks. The engine defines what it needs here and
 * implementations live in {@code io.rewind.transport.*}; adding a transport never changes the engine.
 *
 * <p>{@link #send} may run the destination's matching in the calling thread (the in-JVM transport
 * does), so it must be called without holding engine locks.
 */
public interface Transport extends AutoCloseable {
    /** Hands the frame to the destination rank's current endpoint. Frames to a dead endpoint are dropped. */
    void send(int destinationWorldRank, Frame frame);

    /**
     * Whether frames may borrow the sender's buffer until the receiver copies out of it. Only
     * transports that share the address space can do this; others copy at send time.
     */
    boolean sharesMemory();

    /** Hands a control message to the destination's current endpoint; dropped if it has none. */
    void sendControl(int destinationWorldRank, ControlMessage message);

    /** Makes {@code sink} the endpoint of the rank (a new incarnation replaces the old one). */
    void attach(int worldRank, FrameSink sink);

    /** Tries to take back a frame its receiver has not matched yet (send cancellation). */
    boolean withdraw(int destinationWorldRank, Frame frame);

    /**
     * Lets the calling thread, a rank busy-polling while it waits, do the transport's I/O itself: read
     * what arrived and hand it to the sink, write what waits for room. Never blocks, and never calls
     * the sink while holding a lock the sink takes. Transports with nothing to poll (in-JVM delivery
     * happens in the sending thread) return false at once.
     *
     * @return whether anything arrived
     */
    default boolean poll() {
        return false;
    }

    /**
     * The thread that polled stops polling (it is about to park): the transport's own threads take its
     * I/O over at once, so that what arrives wakes it.
     */
    default void pollingPaused() {}

    /**
     * Whether a payload to {@code destinationWorldRank} is copied whole into memory of the transport's
     * own before its first byte leaves (TCP), rather than straight into what the receiver reads (a
     * shared-memory ring, or the receiver's queue in this JVM). Such a transport takes a payload the
     * sender's protocol already copied ({@link Frame#setStaged}) and writes from it instead: a logged
     * message then costs no more copies than an unlogged one.
     */
    default boolean stagesPayload(int destinationWorldRank) {
        return false;
    }

    /**
     * Writes what waits for room on outbound connections, as far as they take it now, without reading
     * and without blocking. A sending thread calls it between the chunks of a log copy it makes after
     * handing a long message off, so the rest of the message keeps flowing while it copies.
     */
    default void flushOutbound() {}

    /** A short name for logs and run records, such as {@code jvm} or {@code tcp}. */
    String name();

    @Override
    void close();
}
