package io.rewind.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.rewind.engine.ControlMessage;
import io.rewind.engine.Frame;
import io.rewind.engine.IncarnationNotice;
import io.rewind.engine.Transport;
import io.rewind.ft.RecoveryMessages;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every transport must do, run against each by a small subclass (the way Netty's testsuite runs
 * every transport): deliver each identity field and the payload bit for bit, keep the order of each
 * channel with several threads sending at once, carry every control message, and drop, without
 * blocking, what goes to a rank that has no endpoint; deliver alike whether the receiving rank's thread
 * polls the transport (a rank spinning in a wait) or not, and exchange long messages both ways at once
 * (sockets that fill, partial writes) without either side waiting for ever.
 */
public abstract class TransportConformanceSuite {
    /** The ranks of one job: those below {@code live} have an endpoint (their sink), the others none. */
    public interface Ranks extends AutoCloseable {
        /** The transport rank {@code rank} sends with. */
        Transport transport(int rank);

        RecordingSink sink(int rank);

        @Override
        void close();
    }

    /** Starts a job of {@code worldSize} ranks, of which ranks {@code 0..live-1} have an endpoint. */
    protected abstract Ranks start(int worldSize, int live) throws Exception;

    private Ranks ranks;

    private Ranks ranks(int worldSize, int live) throws Exception {
        ranks = start(worldSize, live);
        return ranks;
    }

    @AfterEach
    void closeRanks() {
        if (ranks != null) {
            ranks.close();
        }
    }

    /** A frame with distinct values in every field, its payload at an offset in a larger buffer. */
    public static Frame frame(int sourceWorld, int destinationWorld, int context, long sequence, byte[] payload) {
        int offset = 13;
        byte[] buffer = new byte[offset + payload.length + 7];
        Arrays.fill(buffer, (byte) 0x5A);
        System.arraycopy(payload, 0, buffer, offset, payload.length);
        Frame f = new Frame(
                context,
                sourceWorld + 3, // the communicator rank differs from the world rank
                sourceWorld,
                destinationWorld,
                77 + context,
                sequence,
                0,
                MemorySegment.ofArray(buffer),
                offset,
                payload.length,
                null);
        f.setPattern(5 + context, 9 + (int) sequence);
        f.setLine(2 + context);
        return f;
    }

    public static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    public static void assertSameFrame(Frame sent, byte[] sentPayload, RecordingSink.Arrival got) {
        Frame f = got.frame();
        assertEquals(sent.context(), f.context(), "context");
        assertEquals(sent.source(), f.source(), "source");
        assertEquals(sent.sourceWorld(), f.sourceWorld(), "sourceWorld");
        assertEquals(sent.destinationWorld(), f.destinationWorld(), "destinationWorld");
        assertEquals(sent.tag(), f.tag(), "tag");
        assertEquals(sent.sequence(), f.sequence(), "sequence");
        assertEquals(sent.incarnation(), f.incarnation(), "incarnation");
        assertEquals(sent.patternId(), f.patternId(), "patternId");
        assertEquals(sent.iterationId(), f.iterationId(), "iterationId");
        assertEquals(sent.line(), f.line(), "line");
        assertEquals(sentPayload.length, f.lengthBytes(), "lengthBytes");
        assertArrayEquals(sentPayload, got.payload(), "payload");
        assertArrayEquals(sent.piggyback(), f.piggyback(), "piggybacked words");
    }

    /**
     * Words a protocol piggybacks arrive with their frame, in order with the frames before and after
     * it; as many as a causal protocol may send to a restarted peer at once (more than one record of
     * a ring or connection holds).
     */
    @ParameterizedTest(name = "{0} words")
    @ValueSource(ints = {1, 7, 300_000})
    void carriesPiggybackedWordsWithTheirFrame(int words) throws Exception {
        Ranks r = ranks(2, 2);
        long[] piggyback = new Random(words).longs(words).toArray();
        byte[] before = randomBytes(100, 1);
        byte[] carrying = randomBytes(3000, 2);
        byte[] after = randomBytes(10, 3);
        Frame first = frame(0, 1, 6, 1, before);
        Frame second = frame(0, 1, 6, 2, carrying);
        second.setPiggyback(piggyback.clone());
        Frame third = frame(0, 1, 6, 3, after);
        r.transport(0).send(1, first);
        r.transport(0).send(1, second);
        r.transport(0).send(1, third);
        assertSameFrame(first, before, r.sink(1).nextFrame());
        RecordingSink.Arrival got = r.sink(1).nextFrame();
        assertSameFrame(second, carrying, got);
        assertArrayEquals(piggyback, got.frame().piggyback());
        assertSameFrame(third, after, r.sink(1).nextFrame());
    }

    /**
     * Each frame arrives with the recovery line its sender had written when it sent it, whatever the
     * line (none, small, the largest there is) and however the transport lays the frame out (a header
     * alone, a payload in the same record, one that goes on in further records).
     */
    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1000, 300_000})
    void carriesTheRecoveryLineEachFrameWasSentUnder(int size) throws Exception {
        Ranks r = ranks(2, 2);
        int[] lines = {1, 0, 7, 1 << 20, Integer.MAX_VALUE, 3};
        List<Frame> sent = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        for (int k = 0; k < lines.length; k++) {
            byte[] payload = randomBytes(size, k);
            Frame f = frame(0, 1, 6, k + 1, payload);
            f.setLine(lines[k]);
            r.transport(0).send(1, f);
            sent.add(f);
            payloads.add(payload);
        }
        for (int k = 0; k < lines.length; k++) {
            RecordingSink.Arrival got = r.sink(1).nextFrame();
            assertEquals(lines[k], got.frame().line(), "the line of frame " + (k + 1));
            assertSameFrame(sent.get(k), payloads.get(k), got);
        }
        assertEquals(0, r.sink(1).framesWaiting(), "no frame twice");
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 1024, 4 << 20})
    void deliversEveryFieldAndThePayloadBitForBit(int size) throws Exception {
        Ranks r = ranks(2, 2);
        byte[] payload = randomBytes(size, size);
        Frame f = frame(0, 1, 6, 1_234_567_890_123L, payload);
        r.transport(0).send(1, f);
        if (!r.transport(0).sharesMemory()) {
            // The send completed when it returned: the sender may reuse its buffer at once.
            f.data().fill((byte) 0);
        }
        assertSameFrame(f, payload, r.sink(1).nextFrame());
        assertEquals(0, r.sink(0).framesWaiting(), "nothing arrives at the sender");
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1024})
    void deliversToItself(int size) throws Exception {
        Ranks r = ranks(2, 2);
        byte[] payload = randomBytes(size, 7);
        Frame f = frame(1, 1, 4, 1, payload);
        r.transport(1).send(1, f);
        if (!r.transport(1).sharesMemory()) {
            f.data().fill((byte) 0);
        }
        assertSameFrame(f, payload, r.sink(1).nextFrame());
    }

    @Test
    void keepsTheOrderOfEachChannelWithSeveralThreadsSending() throws Exception {
        Ranks r = ranks(3, 3);
        int perThread = 300;
        int[] senders = {0, 0, 2, 2};
        int[] contexts = {0, 2, 0, 2}; // one channel (context, source rank) per thread
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(senders.length);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < senders.length; t++) {
                int source = senders[t];
                int context = contexts[t];
                done.add(pool.submit(() -> {
                    go.await();
                    for (int seq = 1; seq <= perThread; seq++) {
                        r.transport(source).send(1, frame(source, 1, context, seq, payloadOf(source, context, seq)));
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> d : done) {
                d.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        Map<Long, Long> lastSequence = new HashMap<>();
        for (int i = 0; i < senders.length * perThread; i++) {
            RecordingSink.Arrival a = r.sink(1).nextFrame();
            Frame f = a.frame();
            long channel = ((long) f.context() << 32) | f.sourceWorld();
            long expected = lastSequence.getOrDefault(channel, 0L) + 1;
            assertEquals(expected, f.sequence(), "sequence on context " + f.context() + " from " + f.sourceWorld());
            lastSequence.put(channel, f.sequence());
            // The payload as the sink saw it: a transport lends it for the delivery only.
            assertArrayEquals(payloadOf(f.sourceWorld(), f.context(), f.sequence()), a.payload());
        }
        assertEquals(0, r.sink(1).framesWaiting(), "no frame twice");
    }

    /** A payload that tells which frame it belongs to, of a size that varies with it. */
    private static byte[] payloadOf(int source, int context, long seq) {
        ByteBuffer b = ByteBuffer.allocate(16 + (int) (seq * 37 % 500));
        b.putInt(source).putInt(context).putLong(seq);
        return b.array();
    }

    @Test
    void deliversAlikeWhetherTheReceiverPollsOrNot() throws Exception {
        Ranks r = ranks(2, 2);
        AtomicBoolean stop = new AtomicBoolean();
        // The receiving rank's thread busy-polls, as a rank spinning in a wait does, then parks.
        Thread receiver = new Thread(() -> {
            while (!stop.get()) {
                r.transport(1).poll();
            }
            r.transport(1).pollingPaused();
        });
        receiver.start();
        long seq = 0;
        try {
            for (int i = 0; i < 100; i++) {
                seq++;
                pingOnce(r, seq, i % 9 == 0 ? 300_000 + i : 1 + 17 * i);
            }
        } finally {
            stop.set(true);
            receiver.join(10_000);
        }
        for (int i = 0; i < 20; i++) { // nobody polls now: the transport's own threads deliver
            seq++;
            pingOnce(r, seq, i % 5 == 0 ? 200_000 : 3 + i);
        }
        // A thread that polls and then goes away without a word: delivery goes on all the same.
        r.transport(1).poll();
        seq++;
        pingOnce(r, seq, 1000);
    }

    private static void pingOnce(Ranks r, long seq, int size) throws InterruptedException {
        byte[] payload = randomBytes(size, seq);
        Frame f = frame(0, 1, 0, seq, payload);
        r.transport(0).send(1, f);
        if (!r.transport(0).sharesMemory()) {
            f.data().fill((byte) 0);
        }
        assertSameFrame(f, payload, r.sink(1).nextFrame());
    }

    @Test
    void exchangesLongMessagesBothWaysAtOnce() throws Exception {
        Ranks r = ranks(2, 2);
        int count = 24;
        int size = 1 << 20; // far more both ways than the sockets hold: writes are partial, and would block
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int rank = 0; rank < 2; rank++) {
                int self = rank;
                int peer = 1 - rank;
                done.add(pool.submit(() -> {
                    go.await();
                    for (int seq = 1; seq <= count; seq++) {
                        r.transport(self).send(peer, frame(self, peer, 0, seq, exchanged(self, seq, size)));
                        r.transport(self).poll(); // as a rank does between its sends when it waits
                    }
                    r.transport(self).pollingPaused();
                    return null;
                }));
            }
            go.countDown();
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                for (Future<?> d : done) {
                    d.get();
                }
            });
        } finally {
            pool.shutdownNow();
        }
        for (int rank = 0; rank < 2; rank++) {
            for (int seq = 1; seq <= count; seq++) {
                RecordingSink.Arrival a = r.sink(rank).nextFrame();
                assertEquals(seq, a.frame().sequence());
                assertArrayEquals(exchanged(1 - rank, seq, size), a.payload(), "payload " + seq + " to " + rank);
            }
        }
    }

    private static byte[] exchanged(int source, long seq, int size) {
        return randomBytes(size, source * 1000L + seq);
    }

    @Test
    void carriesControlMessagesOfEveryType() throws Exception {
        Ranks r = ranks(2, 2);
        List<ControlMessage> messages = List.of(
                new IncarnationNotice(0, 0),
                new RecoveryMessages.RollbackRequest(0, 0, Map.of(0, 5L, 3, Long.MAX_VALUE, -2, -1L)),
                new RecoveryMessages.LastMessages(0, 0, Map.of()),
                new RecoveryMessages.LastMessages(0, 0, Map.of(6, 42L)),
                new RecoveryMessages.LastMessages(0, 0, Map.of(6, 42L), new long[] {1, -1, Long.MIN_VALUE}),
                new RecoveryMessages.ReplayBatch(0, 0, 3, 64),
                new RecoveryMessages.ReplayAck(0, 0, 3));
        for (ControlMessage m : messages) {
            r.transport(0).sendControl(1, m);
        }
        for (ControlMessage m : messages) {
            assertEquals(m, r.sink(1).nextControl());
        }
        assertEquals(0, r.sink(1).controlsWaiting());
    }

    @Test
    void dropsWithoutBlockingWhatGoesToARankWithoutEndpoint() throws Exception {
        Ranks r = ranks(3, 2);
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            r.transport(0).send(2, frame(0, 2, 0, 1, randomBytes(100, 1)));
            r.transport(0).sendControl(2, new IncarnationNotice(0, 0));
        });
        // The transport still works, and the dropped frame went nowhere else.
        byte[] payload = randomBytes(10, 2);
        Frame f = frame(0, 1, 0, 1, payload);
        r.transport(0).send(1, f);
        assertSameFrame(f, payload, r.sink(1).nextFrame());
        assertEquals(0, r.sink(1).framesWaiting());
        assertEquals(0, r.sink(0).framesWaiting());
    }
}
