package io.rewind.ft.log;

/**
 * A payload log operation failed. Thrown by the call that needed the failed resource (an append that
 * needed a new block or window, a read that needed a mapping), never later or elsewhere, and the
 * message says which resource and why.
 */
public final class PayloadLogException extends RuntimeException {

    /** What failed, so callers can react without parsing messages. */
    public enum Reason {
        /** The mapped log file could not be created or opened. */
        FILE_CREATE_FAILED,
        /** The disk is full, or the configured file or off-heap limit would be exceeded. */
        STORAGE_EXHAUSTED,
        /** Mapping a window of the log file failed. */
        MAPPING_FAILED,
        /** Off-heap memory for a block could not be allocated. */
        ALLOCATION_FAILED,
        /** Copying the payload failed (for example the source memory was released too early). */
        COPY_FAILED,
        /** The entry's payload is not held any more (truncated) or never was (dummy storage). */
        PAYLOAD_UNAVAILABLE,
        /** The log was closed. */
        CLOSED
    }

    private static final long serialVersionUID = 1L;

    private final Reason reason;

    PayloadLogException(Reason reason, String message) {
        this(reason, message, null);
    }

    PayloadLogException(Reason reason, String message, Throwable cause) {
        super(reason + ": " + message, cause);
        this.reason = reason;
    }

    /** The category of the failure. */
    public Reason reason() {
        return reason;
    }
}
