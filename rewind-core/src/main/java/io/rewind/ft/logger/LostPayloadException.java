package io.rewind.ft.logger;

/**
 * A dumped payload cannot be read back: every logger that held it died. Recovery avoids needing one
 * (the sender rolls back with the receiver, see {@link LoggerNodes#sendersToRollBack}); this says so
 * when it could not.
 */
public final class LostPayloadException extends RuntimeException {
    public LostPayloadException(String message) {
        super(message);
    }
}
