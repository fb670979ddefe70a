package io.rewind.transport.tcp;

import static io.rewind.transport.TransportConformanceSuite.frame;
import static io.rewind.transport.TransportConformanceSuite.randomBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rewind.transport.JobSecret;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The handshake on blocking sockets, both sides (the launcher's control link uses it). */
class TcpHandshakeTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** Runs the accepting side on a thread of its own; returns who it accepted. */
    private static CompletableFuture<PeerIdentity> acceptOne(ServerSocket server, JobSecret secret) {
        return CompletableFuture.supplyAsync(() -> {
            try (Socket s = server.accept()) {
                return Handshake.accept(s, secret, 4, TIMEOUT);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
    }

    @Test
    void bothSidesWithTheSecretAuthenticateEachOther() throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(TcpRanks.loopback());
            CompletableFuture<PeerIdentity> accepted = acceptOne(server, TcpRanks.SECRET);
            try (Socket s = new Socket()) {
                s.connect(server.getLocalSocketAddress());
                s.setSoTimeout(1234);
                Handshake.connect(s, TcpRanks.SECRET, 3, 7, TIMEOUT);
                assertEquals(1234, s.getSoTimeout(), "the socket's timeout is put back");
            }
            assertEquals(new PeerIdentity(3, 7), accepted.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aConnectingSideWithAnotherSecretIsRefusedAndLearnsIt() throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(TcpRanks.loopback());
            CompletableFuture<PeerIdentity> accepted = acceptOne(server, TcpRanks.SECRET);
            try (Socket s = new Socket()) {
                s.connect(server.getLocalSocketAddress());
                JobSecret other = JobSecret.of(randomBytes(JobSecret.BYTES, 99));
                assertThrows(HandshakeException.class, () -> Handshake.connect(s, other, 3, 0, TIMEOUT));
            }
            ExecutionException e = assertThrows(ExecutionException.class, () -> accepted.get(10, TimeUnit.SECONDS));
            assertEquals(
                    "wrong proof of the job secret", e.getCause().getCause().getMessage());
        }
    }

    @Test
    void anAcceptingSideThatNeverAnswersTimesOut() throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(TcpRanks.loopback());
            try (Socket s = new Socket()) {
                s.connect(server.getLocalSocketAddress()); // in the backlog: nobody will answer
                HandshakeException e = assertThrows(
                        HandshakeException.class,
                        () -> Handshake.connect(s, TcpRanks.SECRET, 0, 0, Duration.ofMillis(200)));
                assertEquals("no answer in time (waiting for the challenge)", e.getMessage());
            }
        }
    }

    @Test
    void aBlockingPeerTalksToTheNettySide() throws Exception {
        // Blocking connect against the transport's AcceptingHandshake, then a frame record.
        try (TcpRanks r = TcpRanks.start(2, 2, TcpOptions.defaults());
                RawPeer p = RawPeer.authenticated(r.transports[1].localAddress(), TcpRanks.SECRET, 0, 0)) {
            p.writeFrame(frame(0, 1, 2, 5, new byte[] {9}));
            assertEquals(5, r.sink(1).nextFrame().frame().sequence());
        }
    }

    @Test
    void recordsSentRightAfterTheHelloReachTheRecordReader() throws Exception {
        // A connecting side that does not wait for the proof: the bytes after its hello are buffered by
        // the accepting handshake and handed to the record reader once it is installed.
        try (TcpRanks r = TcpRanks.start(2, 2, TcpOptions.defaults());
                RawPeer p = RawPeer.connect(r.transports[1].localAddress())) {
            byte[] challenge = p.read(JobSecret.CHALLENGE_BYTES);
            byte[] hello = Handshake.Hello.of(TcpRanks.SECRET, 0, 0, challenge).bytes();
            byte[] record = RawPeer.frameRecord(frame(0, 1, 2, 6, new byte[5]));
            byte[] both = Arrays.copyOf(hello, hello.length + record.length);
            System.arraycopy(record, 0, both, hello.length, record.length);
            p.write(both);
            assertEquals(6, r.sink(1).nextFrame().frame().sequence());
            assertEquals(JobSecret.PROOF_BYTES, p.read(JobSecret.PROOF_BYTES).length);
        }
    }
}
