package io.rewind.launch;

import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Accepts the control connections of a job on one socket: every peer proves the job's secret before
 * anything it sends is read (in a thread of its own, so a peer that never answers holds up nobody),
 * then each connection gets a reader handing its messages to {@code onMessage}. Used by the launcher,
 * a node's checkpoint service and the event logger.
 */
final class LinkServer implements AutoCloseable {
    /** What to do with an accepted link: start its reader, with this link's handlers. */
    interface Accepted {
        void accept(Link link);
    }

    private final String name;
    private final ServerSocket server;

    private LinkServer(String name, ServerSocket server) {
        this.name = name;
        this.server = server;
    }

    /**
     * Listens on {@code bind} (null: every interface) and starts the accepting thread, {@code
     * rewind-NAME-accept}; each link is accepted with messages of up to {@code maxMessageBytes}.
     */
    static LinkServer start(String name, InetAddress bind, JobSecret secret, long maxMessageBytes, Accepted accepted)
            throws IOException {
        ServerSocket socket = new ServerSocket(0, 256, bind);
        LinkServer server = new LinkServer(name, socket);
        Thread.ofPlatform()
                .name("rewind-" + name + "-accept")
                .daemon(true)
                .start(() -> server.acceptLoop(secret, maxMessageBytes, accepted));
        return server;
    }

    /** A link's reader that hands every message, with its link, to {@code onMessage}. */
    static Accepted readingWith(BiConsumer<Link, Object> onMessage, BiConsumer<Link, String> onClose) {
        return link -> link.startReader(m -> onMessage.accept(link, m), why -> onClose.accept(link, why));
    }

    /** A reader for links whose closing needs no action. */
    static Accepted readingWith(BiConsumer<Link, Object> onMessage) {
        Consumer<String> ignore = why -> {};
        return link -> link.startReader(m -> onMessage.accept(link, m), ignore);
    }

    private void acceptLoop(JobSecret secret, long maxMessageBytes, Accepted accepted) {
        while (!server.isClosed()) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed: the service is over
            }
            Thread.ofPlatform()
                    .name("rewind-" + name + "-handshake")
                    .daemon(true)
                    .start(() -> {
                        try {
                            accepted.accept(Link.accept(s, secret, name + "-" + s.getPort(), maxMessageBytes));
                        } catch (IOException e) {
                            System.err.println("rewind: " + name + ": refused a connection from "
                                    + s.getRemoteSocketAddress() + ": " + e.getMessage());
                        }
                    });
        }
    }

    InetSocketAddress address() {
        return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
    }

    int port() {
        return server.getLocalPort();
    }

    boolean isClosed() {
        return server.isClosed();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing
        }
    }
}
