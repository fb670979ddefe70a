package io.rewind.transport.tcp;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import jdk.net.ExtendedSocketOptions;

/**
 * Keeps the kernel from acknowledging each record of an inbound data connection on its own.
 *
 * <p>Why: a data connection carries records one way only (each rank writes to a peer on its own
 * connection), so its receiving side never has data of its own to carry an acknowledgement. Linux then
 * answers a short pushed segment with an acknowledgement of its own as soon as the reader empties the
 * socket, and on loopback the reading thread makes that packet and delivers it inside its own read, before
 * it can answer the message it just read. In a ping-pong of short messages that was 1.5-3.5 us of a half
 * round trip on this machine's kernel; asking for delayed acknowledgements ({@code TCP_QUICKACK} off) gives
 * it back, while a long message is still acknowledged every two full segments, as the kernel always does.
 *
 * <p>Why again and again: the kernel drops back to quick acknowledgements by itself (when an acknowledgement
 * it delayed had to be sent by its timer, after a pause of the sender), so the request is repeated after a
 * read that took bytes, at most once per {@value #REARM_MILLIS} ms. Where the option is not offered (not
 * Linux) nothing is asked.
 */
final class DelayedAcks {
    static final long REARM_MILLIS = 10;
    private static final long REARM_NANOS = TimeUnit.MILLISECONDS.toNanos(REARM_MILLIS);

    private final SocketChannel socket;
    private boolean offered;
    private long askedAt;

    DelayedAcks(SocketChannel socket) {
        this.socket = socket;
        this.offered = socket.supportedOptions().contains(ExtendedSocketOptions.TCP_QUICKACK);
        this.askedAt = System.nanoTime() - REARM_NANOS;
    }

    /** After a read that took bytes, by the thread reading the socket. */
    void afterRead() {
        if (!offered) {
            return;
        }
        long now = System.nanoTime();
        if (now - askedAt < REARM_NANOS) {
            return;
        }
        askedAt = now;
        try {
            socket.setOption(ExtendedSocketOptions.TCP_QUICKACK, false);
        } catch (IOException | UnsupportedOperationException e) {
            offered = false; // the socket is closing, or the option is refused: acknowledgements as they come
        }
    }
}
