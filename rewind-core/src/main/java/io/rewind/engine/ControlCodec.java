package io.rewind.engine;

/**
 * Turns control messages into bytes and back, for transports that cross a process boundary. The
 * engine knows only {@link IncarnationNotice}; the protocols' messages are encoded by whoever defines
 * them, and the runtime hands the transport the codec that knows them all.
 */
public interface ControlCodec {
    /** The message as bytes, its type first. */
    byte[] encode(ControlMessage message);

    /**
     * The message these bytes encode.
     *
     * @throws IllegalArgumentException if the bytes are not a message of a known type (truncated, a
     *     count larger than the bytes can hold, an unknown type): never allocates by a count it was sent
     */
    ControlMessage decode(byte[] bytes);
}
