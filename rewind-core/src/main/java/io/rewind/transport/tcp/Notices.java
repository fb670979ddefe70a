package io.rewind.transport.tcp;

import java.net.SocketAddress;
import java.util.function.Consumer;

/**
 * The transport's one-line notices ({@code rewind: tcp: ...}), written where the options say
 * (System.err by default). One line per event that changes what a connection does, never one per
 * frame.
 */
final class Notices {
    private final Consumer<String> out;

    Notices(Consumer<String> out) {
        this.out = out;
    }

    /** A connection is closed because its other side broke the protocol or failed to authenticate. */
    void refused(String what, SocketAddress from, String reason) {
        note("refused " + what + " from " + from + ": " + reason);
    }

    void note(String line) {
        out.accept("rewind: tcp: " + line);
    }
}
