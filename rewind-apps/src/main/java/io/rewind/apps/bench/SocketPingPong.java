package io.rewind.apps.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.Locale;
import jdk.net.ExtendedSocketOptions;

/**
 * The floor under a ping-pong of rank processes over TCP: two threads of one JVM bouncing a short
 * message over loopback with nothing but non-blocking JDK sockets, each busy-polling its socket as a
 * waiting rank does. No MPI, no Rewind: what the kernel and the JDK cost, to set Rewind's half round
 * trip against.
 *
 * <p>Three ways to connect the two ends, to tell what the connections' shape costs:
 *
 * <ul>
 *   <li>{@code one}: one connection carrying both directions (each message carries the acknowledgement
 *       of the one before it);
 *   <li>{@code two}: one connection per direction, as Rewind's data connections are, with the kernel's
 *       acknowledgements as they come;
 *   <li>{@code two-delayed}: the same with {@code TCP_QUICKACK} off on the receiving ends, asked again
 *       after a read at most every 10 ms, as Rewind's data connections do.
 * </ul>
 *
 * <p>Usage: {@code SocketPingPong [one|two|two-delayed] [bytes] [round trips per batch] [batches]}
 * (defaults: two, 62 bytes, the size of a 1-byte message's record, 100000, 7). Prints one line per
 * batch and {@code socket-pingpong,SHAPE,BYTES,MEDIAN_HALF_RTT_NS}.
 */
public final class SocketPingPong {
    private SocketPingPong() {}

    public static void main(String[] args) throws Exception {
        String shape = args.length > 0 ? args[0] : "two";
        int bytes = args.length > 1 ? Integer.parseInt(args[1]) : 62;
        int roundTrips = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
        int batches = args.length > 3 ? Integer.parseInt(args[3]) : 7;
        boolean two = !shape.equals("one");
        boolean delayed = shape.equals("two-delayed");
        if (!shape.equals("one") && !shape.equals("two") && !delayed) {
            throw new IllegalArgumentException("shape must be one, two or two-delayed: " + shape);
        }
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel clientOut = SocketChannel.open(listener.getLocalAddress());
            SocketChannel serverIn = listener.accept();
            SocketChannel serverOut = serverIn;
            SocketChannel clientIn = clientOut;
            if (two) {
                serverOut = SocketChannel.open(listener.getLocalAddress());
                clientIn = listener.accept();
            }
            for (SocketChannel s : new SocketChannel[] {clientOut, serverIn, serverOut, clientIn}) {
                s.setOption(StandardSocketOptions.TCP_NODELAY, true);
                s.configureBlocking(false);
            }
            End server = new End(serverIn, serverOut, bytes, delayed);
            End client = new End(clientIn, clientOut, bytes, delayed);
            long total = (long) roundTrips * batches;
            Thread echo = new Thread(
                    () -> {
                        for (long i = 0; i < total; i++) {
                            server.receive();
                            server.send();
                        }
                    },
                    "socket-pingpong-echo");
            echo.setDaemon(true);
            echo.start();
            long[] halfRtt = new long[batches];
            for (int b = 0; b < batches; b++) {
                long start = System.nanoTime();
                for (int i = 0; i < roundTrips; i++) {
                    client.send();
                    client.receive();
                }
                halfRtt[b] = (System.nanoTime() - start) / roundTrips / 2;
                System.out.printf(Locale.ROOT, "# batch %d: %.2f us%n", b + 1, halfRtt[b] / 1000.0);
            }
            echo.join();
            long[] sorted = halfRtt.clone();
            Arrays.sort(sorted);
            System.out.printf(Locale.ROOT, "socket-pingpong,%s,%d,%d%n", shape, bytes, sorted[batches / 2]);
        }
    }

    /** One end: reads from its inbound socket, writes to its outbound one (the same socket for {@code one}). */
    private static final class End {
        private final SocketChannel in;
        private final SocketChannel out;
        private final ByteBuffer inBuffer = ByteBuffer.allocateDirect(1 << 16);
        private final ByteBuffer outBuffer;
        private final int bytes;
        private final boolean delayed;
        private long askedAt;

        End(SocketChannel in, SocketChannel out, int bytes, boolean delayed) {
            this.in = in;
            this.out = out;
            this.bytes = bytes;
            this.delayed = delayed;
            this.outBuffer = ByteBuffer.allocateDirect(bytes);
        }

        void send() {
            try {
                outBuffer.clear();
                while (outBuffer.hasRemaining()) {
                    out.write(outBuffer);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        void receive() {
            try {
                int got = 0;
                while (got < bytes) {
                    inBuffer.clear().limit(bytes - got);
                    int n = in.read(inBuffer);
                    if (n < 0) {
                        throw new IOException("the other end closed its socket");
                    }
                    got += n;
                }
                long now = System.nanoTime();
                if (delayed && now - askedAt > 10_000_000) {
                    in.setOption(ExtendedSocketOptions.TCP_QUICKACK, false);
                    askedAt = now;
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
