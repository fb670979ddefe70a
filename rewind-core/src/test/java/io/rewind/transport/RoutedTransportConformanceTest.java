package io.rewind.transport;

import io.rewind.engine.Transport;
import io.rewind.ft.ControlMessageCodec;
import io.rewind.transport.shm.ShmFolder;
import io.rewind.transport.shm.ShmOptions;
import io.rewind.transport.shm.ShmTransport;
import io.rewind.transport.tcp.TcpOptions;
import io.rewind.transport.tcp.TcpTransport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * The conformance suite on the transport of rank processes: ranks 0 and 1 share a folder of memory
 * files (one host), every other rank has a folder of its own (another host, as far as the transport
 * can tell), so the suite's three-rank tests run frames over shared memory and over TCP at once, into
 * one receiver.
 */
class RoutedTransportConformanceTest extends TransportConformanceSuite {
    @Override
    protected Ranks start(int worldSize, int live) throws IOException {
        return new RoutedRanks(worldSize, live);
    }

    private static final class RoutedRanks implements Ranks {
        private final JobSecret secret;
        private final Path[] roots;
        private final RoutedTransport[] transports;
        private final RecordingSink[] sinks;

        RoutedRanks(int worldSize, int live) throws IOException {
            byte[] key = new byte[JobSecret.BYTES];
            new SecureRandom().nextBytes(key);
            secret = JobSecret.of(key);
            roots = new Path[worldSize];
            transports = new RoutedTransport[worldSize];
            sinks = new RecordingSink[worldSize];
            try {
                for (int r = 0; r < live; r++) {
                    roots[r] = r < 2 ? ShmFolder.root() : Files.createTempDirectory("rewind-host-" + r + "-");
                    TcpTransport tcp = TcpTransport.open(
                            r,
                            0,
                            worldSize,
                            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                            secret,
                            ControlMessageCodec.INSTANCE,
                            TcpOptions.defaults());
                    ShmTransport shm = ShmTransport.open(
                            r,
                            0,
                            worldSize,
                            ShmFolder.open(roots[r], secret),
                            ControlMessageCodec.INSTANCE,
                            ShmOptions.defaults());
                    transports[r] = new RoutedTransport(r, worldSize, tcp, shm, System.err::println);
                    sinks[r] = new RecordingSink();
                    transports[r].attach(r, sinks[r]);
                }
            } catch (IOException | RuntimeException e) {
                close();
                throw e;
            }
            for (int r = 0; r < live; r++) {
                for (int p = 0; p < live; p++) {
                    transports[r].peer(p, 0, transports[p].localAddress(), transports[p].domain());
                }
            }
        }

        @Override
        public Transport transport(int rank) {
            return transports[rank];
        }

        @Override
        public RecordingSink sink(int rank) {
            return sinks[rank];
        }

        @Override
        public void close() {
            for (int r = 0; r < transports.length; r++) {
                if (transports[r] != null) {
                    transports[r].close();
                }
                if (roots[r] != null) {
                    ShmFolder.removeFolder(roots[r], secret);
                    if (r >= 2) {
                        try {
                            Files.deleteIfExists(roots[r]);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                }
            }
        }
    }
}
