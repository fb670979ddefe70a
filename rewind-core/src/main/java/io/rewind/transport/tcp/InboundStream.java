package io.rewind.transport.tcp;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One authenticated inbound connection once it left Netty: its JDK socket (non-blocking) and its
 * {@link RecordStream}. Read by whichever thread holds the {@link IoPoller}'s reading guard: the rank's
 * thread while it busy-polls, the poller's thread otherwise. A record that breaks the format refuses
 * the connection (one line on the log, the socket closed), as in the Netty pipeline.
 */
final class InboundStream {
    private final SocketChannel socket;
    private final RecordStream records;
    private final Notices notices;
    private final SocketAddress remote;
    /** Touched only by the thread holding the poller's reading guard. */
    private final DelayedAcks acks;

    private volatile boolean closed;

    InboundStream(SocketChannel socket, RecordStream records, Notices notices, SocketAddress remote) {
        this.socket = socket;
        this.records = records;
        this.notices = notices;
        this.remote = remote;
        this.acks = new DelayedAcks(socket);
    }

    PeerIdentity peer() {
        return records.reader().peer();
    }

    SocketChannel socket() {
        return socket;
    }

    /**
     * Hands on what the handshake decoder had read beyond the handshake, then whatever is complete.
     * Called before the stream is polled.
     */
    void preload(ByteBuffer bytes) {
        records.append(bytes);
        refuseIf(drain());
    }

    /** Hands complete records on; what the reader or the sink throws refuses this connection only. */
    private String drain() {
        try {
            return records.drain();
        } catch (RuntimeException e) {
            return String.valueOf(e);
        }
    }

    /**
     * Reads what the socket holds, without blocking, and hands every complete record on.
     *
     * @return whether any bytes were read
     */
    boolean readAvailable() {
        if (closed) {
            return false;
        }
        boolean any = false;
        try {
            while (true) {
                ByteBuffer into = records.writable();
                int room = into.remaining();
                int n = socket.read(into);
                if (n < 0) {
                    close(); // the peer closed its side (ended, or crashed)
                    return any;
                }
                if (n == 0) {
                    return any;
                }
                if (!any) {
                    acks.afterRead();
                }
                any = true;
                if (refuseIf(drain())) {
                    return true;
                }
                if (n < room) {
                    return true; // the socket is empty: spare the read that would say so
                }
            }
        } catch (IOException e) {
            close();
            return any;
        }
    }

    private boolean refuseIf(String refusal) {
        if (refusal == null) {
            return false;
        }
        notices.refused("a record of rank " + peer().worldRank(), remote, refusal);
        close();
        return true;
    }

    boolean isClosed() {
        return closed || !socket.isOpen();
    }

    void close() {
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing more to do with it
        }
    }
}
