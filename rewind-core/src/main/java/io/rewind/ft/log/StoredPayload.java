package io.rewind.ft.log;

/**
 * A logged payload wherever it lives: in the rank's own log ({@link LogEntry}) or, once dumped, at a
 * logger node. What a protocol's index of sent frames refers to.
 */
public interface StoredPayload {
    /** The message's envelope as logged. */
    MessageKey key();

    /** Payload bytes. */
    long lengthBytes();
}
