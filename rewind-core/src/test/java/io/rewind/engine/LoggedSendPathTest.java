package io.rewind.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.ft.EventLogger;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.ft.sender.SenderLoggingRank;
import io.rewind.transport.local.InJvmTransport;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The logged send path end to end, on two engines over the in-JVM transport under the pessimistic
 * protocol: for every copy method and backend, messages sent with the receive already posted
 * (pulled by the receiver while the sender logs) and not yet posted (queued as private copies),
 * the receiver gets the right bytes and the log holds exactly what was sent, although the sender
 * overwrites its buffer the moment each send completes.
 */
class LoggedSendPathTest {

    private static final int[] SIZES = {1, 1000, 4100, 16 << 10, (16 << 10) + 8, 100_000, 1 << 20, (3 << 20) + 5};

    @ParameterizedTest(name = "{0} / {1}")
    @CsvSource({
        "OFF_HEAP,PACK",
        "OFF_HEAP,PIPELINED",
        "OFF_HEAP,HELPER",
        "OFF_HEAP,HYBRID",
        "MAPPED_FILE,PIPELINED",
        "MAPPED_FILE,HELPER",
        "HYBRID,HYBRID"
    })
    void receiverAndLogGetTheBytesSentDespiteImmediateReuse(StorageBackend backend, String copy, @TempDir Path dir)
            throws Exception {
        PayloadLogConfig.Builder c =
                PayloadLogConfig.builder(backend).mappedDirectory(dir).blockBytes(256 << 10);
        switch (copy) {
            case "PACK" -> c.pipelineThresholdBytes(Long.MAX_VALUE).helperThreadThresholdBytes(Long.MAX_VALUE);
            case "PIPELINED" -> c.pipelineThresholdBytes(0).helperThreadThresholdBytes(Long.MAX_VALUE);
            case "HELPER" -> c.pipelineThresholdBytes(0).helperThreadThresholdBytes(0);
            default -> {}
        }
        PayloadLogConfig config = c.build();
        InJvmTransport transport = new InJvmTransport(2);
        EventLogger events = new EventLogger(2);
        RecoveryLines lines = new RecoveryLines(2, 2);
        RankEngine[] engines = new RankEngine[2];
        SenderLoggingRank[] protocols = new SenderLoggingRank[2];
        for (int r = 0; r < 2; r++) {
            protocols[r] = new SenderLoggingRank(r, 0, PayloadLog.open(r, config), events.clientFor(r), lines);
            engines[r] = new RankEngine(
                    r,
                    2,
                    transport,
                    new EngineConfig(EngineConfig.DEFAULT_EAGER_LIMIT_BYTES, 10_000),
                    () -> {},
                    protocols[r]);
            engines[r].attach();
        }
        Communicator sender = engines[0].world();
        Communicator receiver = engines[1].world();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<byte[]> sent = new ArrayList<>();
            int tag = 0;
            for (int size : SIZES) {
                for (boolean postedFirst : new boolean[] {true, false}) {
                    byte[] expected = pattern(size, tag);
                    sent.add(expected);
                    byte[] got = new byte[size];
                    int t = tag++;
                    RecvRequest posted = postedFirst ? receiver.irecv(MemorySegment.ofArray(got), 0, size, 0, t) : null;
                    Future<?> send = pool.submit(() -> {
                        byte[] buf = expected.clone();
                        SendRequest s = sender.isend(MemorySegment.ofArray(buf), 0, size, 1, t, SendMode.STANDARD);
                        s.await();
                        Arrays.fill(buf, (byte) 0x5a); // the application reuses its buffer at once
                        return null;
                    });
                    if (!postedFirst) {
                        send.get(30, TimeUnit.SECONDS); // completes without a receive: queued as a copy
                    }
                    RecvRequest r = posted != null ? posted : receiver.irecv(MemorySegment.ofArray(got), 0, size, 0, t);
                    r.await();
                    send.get(30, TimeUnit.SECONDS);
                    assertEquals(size, r.statusBytes());
                    assertArrayEquals(expected, got, "received " + size + " bytes, posted first " + postedFirst);
                }
            }
            // What a restarted receiver would be sent again: every message, from the log, intact.
            List<Frame> replay = protocols[0].framesFor(1, Map.of());
            assertEquals(sent.size(), replay.size());
            for (int i = 0; i < sent.size(); i++) {
                Frame f = replay.get(i);
                byte[] logged = new byte[Math.toIntExact(f.lengthBytes())];
                MemorySegment.copy(f.data(), f.dataOffset(), MemorySegment.ofArray(logged), 0, logged.length);
                assertArrayEquals(sent.get(i), logged, "logged copy of message " + i);
            }
            assertEquals(0, engines[1].mailbox().unexpectedCount());
        } finally {
            pool.shutdownNow();
            for (SenderLoggingRank p : protocols) {
                p.close();
            }
        }
    }

    /**
     * A pulled frame that waits unmatched, borrowed, is either taken by its receive (which copies
     * from the sender's buffer) or detached by its sender (a private copy); the receive is posted at
     * random moments around the sender's grace period, so both sides win the race many times. Every
     * message must arrive intact, and be logged intact, although each send's buffer is overwritten
     * the moment the send completes.
     */
    @ParameterizedTest(name = "{0} bytes, {1}")
    @CsvSource({"16408,PACK", "16408,PIPELINED", "100000,PACK"})
    void borrowedFramesArriveIntactWhoeverWinsTheRaceToCopyThem(int size, String copy) throws Exception {
        PayloadLogConfig config = PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                .pipelineThresholdBytes(copy.equals("PACK") ? Long.MAX_VALUE : 0)
                .helperThreadThresholdBytes(Long.MAX_VALUE)
                .build();
        InJvmTransport transport = new InJvmTransport(2);
        RankEngine[] engines = new RankEngine[2];
        SenderLoggingRank[] protocols = new SenderLoggingRank[2];
        for (int r = 0; r < 2; r++) {
            protocols[r] = new SenderLoggingRank(
                    r, 0, PayloadLog.open(r, config), new EventLogger(2).clientFor(r), new RecoveryLines(2, 2));
            engines[r] = new RankEngine(
                    r,
                    2,
                    transport,
                    new EngineConfig(EngineConfig.DEFAULT_EAGER_LIMIT_BYTES, 1_000),
                    () -> {},
                    protocols[r]);
            engines[r].attach();
        }
        int messages = 400;
        java.util.Random random = new java.util.Random(7);
        long[] delays = new long[messages];
        for (int i = 0; i < messages; i++) {
            delays[i] = random.nextInt(4) == 0 ? 0 : random.nextInt(2 * (int) SendRequest.detachGraceNanos(size));
        }
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try {
            Future<?> sending = pool.submit(() -> {
                byte[] buf = new byte[size];
                for (int i = 0; i < messages; i++) {
                    System.arraycopy(pattern(size, i), 0, buf, 0, size);
                    engines[0]
                            .world()
                            .isend(MemorySegment.ofArray(buf), 0, size, 1, 5, SendMode.STANDARD)
                            .await();
                    Arrays.fill(buf, (byte) 0x5a);
                }
                return null;
            });
            byte[] got = new byte[size];
            for (int i = 0; i < messages; i++) {
                long until = System.nanoTime() + delays[i];
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                Arrays.fill(got, (byte) 0);
                engines[1]
                        .world()
                        .irecv(MemorySegment.ofArray(got), 0, size, 0, 5)
                        .await();
                assertArrayEquals(pattern(size, i), got, "message " + i);
            }
            sending.get(30, TimeUnit.SECONDS);
            assertEquals(0, engines[1].mailbox().unexpectedCount());
            List<Frame> logged = protocols[0].framesFor(1, Map.of());
            assertEquals(messages, logged.size());
            for (int i = 0; i < messages; i++) {
                byte[] bytes = new byte[size];
                MemorySegment.copy(
                        logged.get(i).data(), logged.get(i).dataOffset(), MemorySegment.ofArray(bytes), 0, size);
                assertArrayEquals(pattern(size, i), bytes, "logged copy of message " + i);
            }
        } finally {
            pool.shutdownNow();
            for (SenderLoggingRank p : protocols) {
                p.close();
            }
        }
    }

    @ParameterizedTest(name = "{0} bytes")
    @CsvSource({"100", "20000", "2000000"})
    void aSendToItselfCompletesWhetherPostedOrNot(int size, @TempDir Path dir) {
        InJvmTransport transport = new InJvmTransport(1);
        SenderLoggingRank p = new SenderLoggingRank(
                0,
                0,
                PayloadLog.open(
                        0, PayloadLogConfig.builder(StorageBackend.OFF_HEAP).build()),
                new EventLogger(1).clientFor(0),
                new RecoveryLines(1, 2));
        RankEngine e = new RankEngine(0, 1, transport, new EngineConfig(64 << 10, 100), () -> {}, p);
        e.attach();
        try {
            Communicator w = e.world();
            byte[] a = pattern(size, 1);
            byte[] got = new byte[size];
            RecvRequest r = w.irecv(MemorySegment.ofArray(got), 0, size, 0, 3);
            SendRequest s = w.isend(MemorySegment.ofArray(a), 0, size, 0, 3, SendMode.STANDARD);
            s.await(); // a pulled frame the sender copies itself, since it is the receiver too
            assertTrue(r.isComplete());
            assertArrayEquals(a, got);
            w.isend(MemorySegment.ofArray(a), 0, size, 0, 4, SendMode.STANDARD).await(); // not posted: queued
            byte[] got2 = new byte[size];
            Arrays.fill(a, (byte) 1);
            RecvRequest r2 = w.irecv(MemorySegment.ofArray(got2), 0, size, 0, 4);
            r2.await();
            assertArrayEquals(pattern(size, 1), got2);
            assertFalse(r2.isCancelled());
        } finally {
            p.close();
        }
    }

    static byte[] pattern(int size, int seed) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * 131 + seed * 7 + (i >>> 9));
        }
        return b;
    }
}
