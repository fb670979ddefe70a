package io.rewind.transport.tcp;

import static io.rewind.transport.TransportConformanceSuite.frame;
import static io.rewind.transport.TransportConformanceSuite.randomBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.rewind.engine.Frame;
import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Who gets in and what happens to bytes that break the protocol: a peer without the job's secret is
 * refused before anything it sends is read as a record, a broken handshake or a broken record closes
 * that one connection with a logged reason, and the transport goes on serving its good peers.
 */
class TcpSecurityTest {
    private static final JobSecret WRONG = JobSecret.of(randomBytes(JobSecret.BYTES, 7));
    private TcpRanks ranks;
    private InetSocketAddress target;

    @BeforeEach
    void start() throws Exception {
        // Rank 2 has no endpoint: raw test peers speak as rank 2 to rank 1.
        ranks = TcpRanks.start(3, 2, TcpOptions.defaults().withHandshakeTimeout(Duration.ofMillis(500)));
        target = ranks.transports[1].localAddress();
        goodPeerDelivers(1);
    }

    @AfterEach
    void stop() {
        ranks.close();
    }

    /** Rank 0, a good peer, sends frame {@code seq} to rank 1, which gets it and nothing else. */
    private void goodPeerDelivers(long seq) throws Exception {
        ranks.transport(0).send(1, frame(0, 1, 0, seq, new byte[] {1, 2, 3}));
        assertEquals(seq, ranks.sink(1).nextFrame().frame().sequence());
        assertEquals(0, ranks.sink(1).framesWaiting(), "nothing from the refused peer");
        assertEquals(0, ranks.sink(1).controlsWaiting());
    }

    /** Waits for the refusal notice and checks its reason. */
    private void assertRefused(String reason) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> seen = new ArrayList<>();
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            String line = ranks.log.poll(left, TimeUnit.NANOSECONDS);
            if (line != null && line.startsWith("rewind: tcp: refused ") && line.contains(reason)) {
                return;
            }
            seen.add(line);
        }
        throw new AssertionError("no refusal for '" + reason + "' within 10 s; notices: " + seen);
    }

    @Test
    void aPeerWithTheWrongSecretIsRefused() throws Exception {
        try (RawPeer intruder = RawPeer.connect(target)) {
            HandshakeException e = assertThrows(
                    HandshakeException.class,
                    () -> Handshake.connect(intruder.socket, WRONG, 2, 0, Duration.ofSeconds(5)));
            assertEquals("the connection closed before the proof of the accepting side", e.getMessage());
            try {
                intruder.writeFrame(frame(2, 1, 0, 1, new byte[8])); // sent anyway: never read
            } catch (IOException closed) {
                // the connection may be gone already
            }
        }
        assertRefused("wrong proof of the job secret");
        goodPeerDelivers(2);
    }

    static Stream<Arguments> badHellos() {
        return Stream.of(
                Arguments.of("bad magic", 0x12345678, Handshake.VERSION, 2, 0, "bad magic 0x12345678"),
                Arguments.of("another version", Handshake.MAGIC, 2, 2, 0, "protocol version 2"),
                Arguments.of("a rank past the job", Handshake.MAGIC, Handshake.VERSION, 3, 0, "rank 3 out of range"),
                Arguments.of("a negative rank", Handshake.MAGIC, Handshake.VERSION, -1, 0, "rank -1 out of range"),
                Arguments.of("a negative incarnation", Handshake.MAGIC, Handshake.VERSION, 2, -1, "negative"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badHellos")
    void aBadHelloIsRefused(String what, int magic, int version, int rank, int incarnation, String reason)
            throws Exception {
        try (RawPeer p = RawPeer.connect(target)) {
            byte[] challenge = p.read(JobSecret.CHALLENGE_BYTES);
            // The proof is right: only the field under test is wrong.
            p.write(ByteBuffer.allocate(Handshake.HELLO_BYTES)
                    .putInt(magic)
                    .putInt(version)
                    .putInt(rank)
                    .putInt(incarnation)
                    .put(JobSecret.challenge())
                    .put(TcpRanks.SECRET.prove(challenge))
                    .array());
            p.assertClosedByOtherSide();
        }
        assertRefused(reason);
        goodPeerDelivers(2);
    }

    @Test
    void aPeerThatSaysNothingIsRefusedAfterTheHandshakeTimeout() throws Exception {
        try (RawPeer p = RawPeer.connect(target)) {
            p.read(JobSecret.CHALLENGE_BYTES);
            p.assertClosedByOtherSide();
        }
        assertRefused("no hello within 500 ms");
        goodPeerDelivers(2);
    }

    static Stream<Arguments> brokenRecords() {
        byte[] payload = new byte[10];
        return Stream.of(
                Arguments.of(
                        "an unknown type",
                        ByteBuffer.allocate(9).putInt(5).put((byte) 9).putInt(0).array(),
                        "unknown record type 9"),
                Arguments.of("an empty record", ByteBuffer.allocate(4).putInt(0).array(), "an empty record"),
                Arguments.of(
                        "a negative length (read unsigned: a very long record)",
                        ByteBuffer.allocate(8).putInt(-1).putInt(0).array(),
                        "a record longer than the maximum"),
                Arguments.of(
                        "a length just past the maximum",
                        ByteBuffer.allocate(8)
                                .putInt(WireFormat.recordBytes(TcpOptions.DEFAULT_MAX_PAYLOAD_BYTES) + 1)
                                .putInt(0)
                                .array(),
                        "a record longer than the maximum"),
                Arguments.of(
                        "a payload length that disagrees with the record",
                        RawPeer.rawFrameRecord(
                                1 + WireFormat.FRAME_HEADER_BYTES + 10, 0, 2, 1, 0, 1, 0, 1 << 30, payload),
                        "a payload length of 1073741824 in a record that holds 10"),
                Arguments.of(
                        "a frame for another rank",
                        RawPeer.rawFrameRecord(1 + WireFormat.FRAME_HEADER_BYTES + 10, 0, 2, 0, 0, 1, 0, 10, payload),
                        "a frame for rank 0 at rank 1"),
                Arguments.of(
                        "a frame of another rank",
                        RawPeer.rawFrameRecord(1 + WireFormat.FRAME_HEADER_BYTES + 10, 0, 0, 1, 0, 1, 0, 10, payload),
                        "a frame of rank 0 on the connection of rank 2"),
                Arguments.of(
                        "a negative tag",
                        RawPeer.rawFrameRecord(1 + WireFormat.FRAME_HEADER_BYTES + 10, 0, 2, 1, -5, 1, 0, 10, payload),
                        "a negative field"),
                Arguments.of(
                        "a negative recovery line",
                        RawPeer.rawFrameRecord(
                                1 + WireFormat.FRAME_HEADER_BYTES + 10, 0, 2, 1, 0, 1, 0, -1, 10, payload),
                        "a negative field"),
                Arguments.of(
                        "a control message that does not decode",
                        ByteBuffer.allocate(8)
                                .putInt(4)
                                .put((byte) 2)
                                .put((byte) 99)
                                .putShort((short) 0)
                                .array(),
                        "a control message that does not decode"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenRecords")
    void aBrokenRecordClosesOnlyItsConnection(String what, byte[] record, String reason) throws Exception {
        try (RawPeer p = RawPeer.authenticated(target, TcpRanks.SECRET, 2, 0)) {
            p.write(record);
            p.assertClosedByOtherSide();
        }
        assertRefused(reason);
        goodPeerDelivers(2); // on the connection rank 0 opened before
    }

    @Test
    void aGoodRecordFromAnAuthenticatedRawPeerIsDelivered() throws Exception {
        // The control for the test above: the same raw peer with a well-formed record gets through.
        try (RawPeer p = RawPeer.authenticated(target, TcpRanks.SECRET, 2, 0)) {
            p.write(RawPeer.rawFrameRecord(
                    1 + WireFormat.FRAME_HEADER_BYTES + 10, 0, 2, 1, 0, 1, 0, 4, 10, new byte[10]));
            Frame f = ranks.sink(1).nextFrame().frame();
            assertEquals(2, f.sourceWorld());
            assertEquals(4, f.line(), "the recovery line, read where the wire format puts it");
        }
    }

    @Test
    void anAcceptingSideWithoutTheSecretGetsNoRecord() throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(TcpRanks.loopback());
            CompletableFuture<byte[]> afterProof = CompletableFuture.supplyAsync(() -> {
                try (Socket s = server.accept()) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write(JobSecret.challenge());
                    s.getInputStream().readNBytes(Handshake.HELLO_BYTES);
                    s.getOutputStream().write(randomBytes(JobSecret.PROOF_BYTES, 9)); // not a proof
                    return s.getInputStream().readAllBytes(); // what comes until the other side closes
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            ranks.transports[0].peer(2, 0, (InetSocketAddress) server.getLocalSocketAddress());
            assertTimeoutPreemptively(
                    Duration.ofSeconds(10), () -> ranks.transport(0).send(2, frame(0, 2, 0, 1, new byte[8])));
            assertEquals(0, afterProof.get(10, TimeUnit.SECONDS).length, "no byte after a wrong proof");
            assertRefused("wrong proof of the job secret");
        }
    }
}
