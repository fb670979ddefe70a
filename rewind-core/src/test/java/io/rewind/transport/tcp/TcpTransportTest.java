package io.rewind.transport.tcp;

import static io.rewind.transport.TransportConformanceSuite.assertSameFrame;
import static io.rewind.transport.TransportConformanceSuite.frame;
import static io.rewind.transport.TransportConformanceSuite.randomBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.engine.Frame;
import io.rewind.engine.IncarnationNotice;
import io.rewind.engine.RewindException;
import io.rewind.engine.StagedPayload;
import io.rewind.ft.ControlMessageCodec;
import io.rewind.transport.Await;
import io.rewind.transport.RecordingSink;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What is particular to the TCP transport: fencing, peers coming and going, attach, limits, back-pressure. */
class TcpTransportTest {
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final BlockingQueue<String> log = new LinkedBlockingQueue<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private <T extends AutoCloseable> T closing(T c) {
        toClose.add(c);
        return c;
    }

    private TcpOptions options() {
        return TcpOptions.defaults().withLog(log::add);
    }

    private TcpTransport open(int rank, int incarnation, int worldSize, TcpOptions options) {
        return closing(TcpRanks.open(rank, incarnation, worldSize, options));
    }

    private static Frame frameOf(int incarnation, long sequence) {
        return new Frame(0, 0, 0, 1, 0, sequence, incarnation, MemorySegment.ofArray(new byte[4]), 0, 4, null);
    }

    /** Waits for a notice containing {@code text}; fails after 10 s. */
    private String awaitNotice(String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            String line = log.poll(left, TimeUnit.NANOSECONDS);
            if (line != null && line.contains(text)) {
                return line;
            }
        }
        throw new AssertionError("no notice with '" + text + "' within 10 s");
    }

    private long notices(String text) {
        return log.stream().filter(l -> l.contains(text)).count();
    }

    @Test
    void dropsWhatAnOlderIncarnationSendsOnTheSameConnectionAndSaysSoOnce() throws Exception {
        TcpRanks r = closing(TcpRanks.start(2, 2, options()));
        RecordingSink sink = r.sink(1);
        r.transport(0).send(1, frameOf(1, 1)); // incarnation 1 is heard of: 0 is dead
        r.transport(0).send(1, frameOf(0, 2));
        r.transport(0).sendControl(1, new IncarnationNotice(0, 0));
        r.transport(0).send(1, frameOf(0, 3));
        r.transport(0).send(1, frameOf(1, 4));
        // One connection keeps the order: had 2 or 3 been delivered, they would come before 4.
        assertEquals(1, sink.nextFrame().frame().sequence());
        assertEquals(4, sink.nextFrame().frame().sequence());
        assertEquals(0, sink.framesWaiting());
        assertEquals(0, sink.controlsWaiting());
        assertEquals(
                1,
                r.log.stream()
                        .filter(l -> l.contains("dropping what incarnation 0 of rank 0"))
                        .count());
    }

    @Test
    void aNewIncarnationClosesTheOldOnesConnectionAndFencesIt() throws Exception {
        TcpTransport receiver = open(1, 0, 2, options());
        RecordingSink sink = new RecordingSink();
        receiver.attach(1, sink);
        try (RawPeer old = RawPeer.authenticated(receiver.localAddress(), TcpRanks.SECRET, 0, 0)) {
            old.writeFrame(frameOf(0, 1));
            assertEquals(0, sink.nextFrame().frame().incarnation());

            TcpTransport restarted = open(0, 1, 2, options());
            restarted.peer(1, 0, receiver.localAddress());
            receiver.peer(0, 1, restarted.localAddress());
            old.assertClosedByOtherSide();

            // The dead incarnation connects again: it is let in, and what it sends is dropped.
            try (RawPeer again = RawPeer.authenticated(receiver.localAddress(), TcpRanks.SECRET, 0, 0)) {
                again.writeFrame(frameOf(0, 2));
                awaitNotice("dropping what incarnation 0 of rank 0");
                assertEquals(0, sink.framesWaiting());
            }
            restarted.send(1, frameOf(1, 1));
            Frame f = sink.nextFrame().frame();
            assertEquals(1, f.incarnation());
            assertEquals(1, f.sequence());
        }
    }

    @Test
    void aPeerThatIsGoneGetsNothingUntilItIsGivenAgain() throws Exception {
        TcpRanks r = closing(TcpRanks.start(2, 2, options()));
        r.transport(0).send(1, frameOf(0, 1));
        assertEquals(1, r.sink(1).nextFrame().frame().sequence());

        r.transports[0].peerGone(1, 0);
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> r.transport(0).send(1, frameOf(0, 2)));
        r.transports[0].peerGone(1, 0); // idempotent

        r.transports[0].peer(1, 0, r.transports[1].localAddress());
        r.transport(0).send(1, frameOf(0, 3));
        assertEquals(3, r.sink(1).nextFrame().frame().sequence(), "frame 2 was dropped, not delayed");
        assertEquals(0, r.sink(1).framesWaiting());
    }

    @Test
    void whatArrivesBeforeAttachIsHandedToTheSinkInOrder() throws Exception {
        TcpTransport receiver = open(1, 0, 2, options());
        TcpTransport sender = open(0, 0, 2, options());
        sender.peer(1, 0, receiver.localAddress());
        for (int seq = 1; seq <= 3; seq++) {
            sender.send(1, frameOf(0, seq));
        }
        sender.sendControl(1, new IncarnationNotice(0, 0));
        Await.until(() -> receiver.waitingForAttach() == 4, Duration.ofSeconds(10), "4 arrivals before attach");

        RecordingSink sink = new RecordingSink();
        receiver.attach(1, sink);
        sender.send(1, frameOf(0, 4));
        for (int seq = 1; seq <= 4; seq++) {
            assertEquals(seq, sink.nextFrame().frame().sequence());
        }
        assertEquals(new IncarnationNotice(0, 0), sink.nextControl());
    }

    @Test
    void attachRefusesAnotherRank() {
        TcpTransport t = open(1, 0, 2, options());
        assertThrows(IllegalArgumentException.class, () -> t.attach(0, new RecordingSink()));
    }

    @Test
    void aMessageLargerThanTheMaximumIsRefusedAtTheSender() throws Exception {
        TcpRanks r = closing(TcpRanks.start(2, 2, options().withMaxPayloadBytes(1024)));
        RewindException e =
                assertThrows(RewindException.class, () -> r.transport(0).send(1, frame(0, 1, 0, 1, new byte[1025])));
        assertTrue(e.getMessage().contains("1025 bytes is larger than the 1024 bytes"), e.getMessage());

        byte[] payload = randomBytes(1024, 3);
        Frame f = frame(0, 1, 0, 2, payload);
        r.transport(0).send(1, f);
        assertSameFrame(f, payload, r.sink(1).nextFrame());
    }

    @Test
    void aFrameWithANegativeFieldIsRefusedAtTheSender() {
        TcpRanks r = closing(TcpRanks.start(2, 2, options()));
        Frame f = frameOf(0, 1);
        f.setPattern(-1, 0);
        assertThrows(IllegalArgumentException.class, () -> r.transport(0).send(1, f));
    }

    /** A payload staged in direct memory, in {@code pieces} buffers, that counts its releases. */
    private static final class CountingStaged implements StagedPayload {
        final ByteBuffer[] buffers;
        final AtomicInteger releases = new AtomicInteger();

        CountingStaged(byte[] payload, int pieces) {
            buffers = new ByteBuffer[pieces];
            int at = 0;
            for (int i = 0; i < pieces; i++) {
                int len = i == pieces - 1 ? payload.length - at : payload.length / pieces;
                buffers[i] =
                        ByteBuffer.allocateDirect(len).put(payload, at, len).flip();
                at += len;
            }
        }

        @Override
        public ByteBuffer[] buffers() {
            return buffers;
        }

        @Override
        public void release() {
            releases.incrementAndGet();
        }
    }

    /** A frame whose own payload is zeros, carrying {@code staged}: what arrives can only come from the staged memory. */
    private static Frame stagedFrame(long sequence, int length, CountingStaged staged) {
        Frame f = frame(0, 1, 0, sequence, new byte[length]);
        f.setStaged(staged);
        return f;
    }

    @Test
    void aStagedPayloadIsWrittenFromItsOwnMemoryAndReleasedOnceWritten() throws Exception {
        TcpRanks r = closing(TcpRanks.start(2, 2, options()));
        int[] lengths = {8 << 10, (1 << 20) + 3, 1, 64 << 10};
        List<CountingStaged> staged = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < lengths.length; i++) {
            byte[] payload = randomBytes(lengths[i], 100 + i);
            CountingStaged s = new CountingStaged(payload, Math.min(3, lengths[i]));
            Frame f = stagedFrame(i + 1, lengths[i], s);
            if (i == 1) {
                f.setPiggyback(new long[] {7, -8, 9}); // the words go ahead of a header with no payload in it
            }
            staged.add(s);
            payloads.add(payload);
            r.transport(0).send(1, f);
        }
        for (int i = 0; i < lengths.length; i++) {
            RecordingSink.Arrival got = r.sink(1).nextFrame();
            assertEquals(i + 1, got.frame().sequence());
            assertArrayEquals(payloads.get(i), got.payload(), "frame " + (i + 1) + " carries the staged bytes");
            if (i == 1) {
                assertArrayEquals(new long[] {7, -8, 9}, got.frame().piggyback());
            }
        }
        Await.until(
                () -> staged.stream().allMatch(s -> s.releases.get() == 1),
                Duration.ofSeconds(10),
                "every staged payload released once written");
    }

    @Test
    void aStagedPayloadIsReleasedWhenItsFrameIsDropped() throws Exception {
        TcpRanks r = closing(TcpRanks.start(2, 2, options().withMaxPayloadBytes(64 << 10)));
        CountingStaged tooLong = new CountingStaged(new byte[(64 << 10) + 1], 2);
        assertThrows(RewindException.class, () -> r.transport(0).send(1, stagedFrame(1, (64 << 10) + 1, tooLong)));
        assertEquals(1, tooLong.releases.get(), "refused");

        r.transports[0].peerGone(1, 0);
        CountingStaged toGone = new CountingStaged(new byte[10_000], 2);
        r.transport(0).send(1, stagedFrame(2, 10_000, toGone));
        assertEquals(1, toGone.releases.get(), "dropped: no live incarnation");

        r.transports[0].close();
        CountingStaged afterClose = new CountingStaged(new byte[10_000], 1);
        r.transport(0).send(1, stagedFrame(3, 10_000, afterClose));
        assertEquals(1, afterClose.releases.get(), "dropped: transport closed");
    }

    @Test
    void stagedPayloadsWaitingForAFullConnectionAreReleasedWhenThePeerIsGone() throws Exception {
        try (ServerSocket server = smallServer()) {
            CompletableFuture<Socket> peer = stuckPeer(server);
            TcpTransport sender = open(0, 0, 2, options().withWriteBufferMarks(64 << 20, 128 << 20));
            sender.peer(1, 0, (InetSocketAddress) server.getLocalSocketAddress());
            List<CountingStaged> staged = new ArrayList<>();
            for (int i = 1; i <= 16; i++) { // 16 MiB, more than the socket buffers hold: the rest waits
                CountingStaged s = new CountingStaged(new byte[1 << 20], 2);
                staged.add(s);
                sender.send(1, stagedFrame(i, 1 << 20, s));
            }
            assertTrue(
                    staged.stream().anyMatch(s -> s.releases.get() == 0),
                    "records wait for room, holding their memory");
            sender.peerGone(1, 0);
            assertTrue(staged.stream().allMatch(s -> s.releases.get() == 1), "released as their records are dropped");
            peer.get(5, TimeUnit.SECONDS).close();
        }
    }

    /** A peer that completes the handshake and then reads nothing: its connection fills up. */
    private static CompletableFuture<Socket> stuckPeer(ServerSocket server) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                Socket s = server.accept();
                Handshake.accept(s, TcpRanks.SECRET, 2, Duration.ofSeconds(5));
                return s;
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
    }

    private static ServerSocket smallServer() throws Exception {
        ServerSocket server = new ServerSocket();
        server.setReceiveBufferSize(16 * 1024);
        server.bind(TcpRanks.loopback());
        return server;
    }

    @Test
    void aFullConnectionHoldsTheSenderUntilThePeerIsGone() throws Exception {
        try (ServerSocket server = smallServer()) {
            CompletableFuture<Socket> peer = stuckPeer(server);
            TcpTransport sender = open(0, 0, 2, options().withWriteBufferMarks(32 * 1024, 64 * 1024));
            sender.peer(1, 0, (InetSocketAddress) server.getLocalSocketAddress());
            AtomicInteger sent = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            byte[] payload = new byte[1 << 20];
            Thread t = new Thread(() -> {
                try {
                    for (int i = 1; i <= 1000; i++) { // 1000 MiB: far more than any socket buffers
                        sender.send(1, frame(0, 1, 0, i, payload));
                        sent.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            t.start();
            Await.until(
                    () -> Arrays.stream(t.getStackTrace())
                            .anyMatch(e -> e.getMethodName().equals("awaitDrained")),
                    Duration.ofSeconds(20),
                    "the sender waits for the connection to drain");
            int beforeGone = sent.get();
            sender.peerGone(1, 0);
            t.join(10_000);
            assertFalse(t.isAlive(), "the sender was let go");
            assertNull(failure.get());
            assertEquals(1000, sent.get());
            assertTrue(beforeGone < 100, "sent " + beforeGone + " MiB into a peer that reads nothing");
            peer.get(5, TimeUnit.SECONDS).close();
        }
    }

    @Test
    void aSenderHeldLongerThanTheStallTimeoutFails() throws Exception {
        try (ServerSocket server = smallServer()) {
            CompletableFuture<Socket> peer = stuckPeer(server);
            TcpTransport sender = open(
                    0,
                    0,
                    2,
                    options().withWriteBufferMarks(32 * 1024, 64 * 1024).withStallTimeout(Duration.ofMillis(300)));
            sender.peer(1, 0, (InetSocketAddress) server.getLocalSocketAddress());
            byte[] payload = new byte[1 << 20];
            RewindException e = assertTimeoutPreemptively(
                    Duration.ofSeconds(30),
                    () -> assertThrows(RewindException.class, () -> {
                        for (int i = 1; i <= 1000; i++) {
                            sender.send(1, frame(0, 1, 0, i, payload));
                        }
                    }));
            assertTrue(e.getMessage().contains("has taken nothing for 300 ms"), e.getMessage());
            peer.get(5, TimeUnit.SECONDS).close();
        }
    }

    @Test
    void anUnreachablePeerIsReportedOnceAndItsFramesDropped() throws Exception {
        InetSocketAddress nobody;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(TcpRanks.loopback());
            nobody = (InetSocketAddress) s.getLocalSocketAddress();
        } // closed: nothing listens there now
        TcpTransport sender = open(0, 0, 2, options());
        sender.peer(1, 0, nobody);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            sender.send(1, frameOf(0, 1));
            sender.sendControl(1, new IncarnationNotice(0, 0));
            sender.send(1, frameOf(0, 2));
        });
        assertEquals(1, notices("cannot connect to rank 1"), String.join("\n", log));
    }

    @Test
    void runsOnNamedDaemonThreadsAndStopsThemOnClose() {
        TcpTransport t = TcpRanks.open(3, 0, 4, options());
        Thread io;
        Thread poller;
        try {
            io = thread("rewind-tcp-3-0");
            poller = thread("rewind-tcp-3-poller");
            assertNotNull(io, "an event loop thread named rewind-tcp-3-0");
            assertNotNull(poller, "a poller thread named rewind-tcp-3-poller");
            assertTrue(io.isDaemon());
            assertTrue(poller.isDaemon());
        } finally {
            assertTimeoutPreemptively(Duration.ofSeconds(10), t::close);
        }
        assertTrue(t.loops().group().isTerminated());
        assertFalse(poller.isAlive());
        t.close(); // a second close does nothing
    }

    private static Thread thread(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(th -> th.getName().equals(name))
                .findFirst()
                .orElse(null);
    }

    @Test
    void aSendAfterCloseIsDropped() {
        TcpRanks r = closing(TcpRanks.start(2, 2, options()));
        r.transports[0].close();
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            r.transport(0).send(1, frameOf(0, 1));
            r.transport(0).sendControl(1, new IncarnationNotice(0, 0));
        });
        assertEquals(0, r.sink(1).framesWaiting());
    }

    @Test
    void anAddressInUseIsAnUncheckedIoError() {
        TcpTransport first = open(0, 0, 2, options());
        UncheckedIOException e = assertThrows(
                UncheckedIOException.class,
                () -> TcpTransport.open(
                        1, 0, 2, first.localAddress(), TcpRanks.SECRET, ControlMessageCodec.INSTANCE, options()));
        assertTrue(e.getMessage().startsWith("rewind: tcp: cannot listen on"), e.getMessage());
    }
}
