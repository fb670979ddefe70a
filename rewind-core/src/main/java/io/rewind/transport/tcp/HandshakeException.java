package io.rewind.transport.tcp;

import java.io.IOException;

/** A handshake that did not authenticate the other side; the message says why. */
public final class HandshakeException extends IOException {
    public HandshakeException(String reason) {
        super(reason);
    }
}
