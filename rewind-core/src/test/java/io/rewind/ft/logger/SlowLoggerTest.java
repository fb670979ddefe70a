package io.rewind.ft.logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.engine.Frame;
import io.rewind.ft.EventLogger;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.ft.sender.SenderLoggingRank;
import io.rewind.transport.local.RecordingTransport;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A logger slow to answer a request for room (a logger process far away, or busy) holds up only the
 * dump it was asked for: the rank keeps sending and logging meanwhile. The rank chooses what to dump
 * under its lock and the request goes out after, from the rank's spill thread.
 */
class SlowLoggerTest {
    private static final int FRAME_BYTES = 20 << 10;

    @Test
    void aLoggerSlowToAnswerDoesNotHoldUpTheRanksSendsWhileTheDumpIsUnderWay() throws Exception {
        CountDownLatch asked = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        LoggerConfig config =
                LoggerConfig.of(1, 1 << 20); // dumps from 768 KiB on; the frames below stay under the quota
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (LoggerNodes job = new LoggerNodes(
                config,
                2,
                (i, nodes) -> new SlowToAnswer(
                        new LocalLoggerNode(i, config.capacityBytes(), null, 0, nodes), asked, answer))) {
            PayloadLog log = PayloadLog.open(
                    0, PayloadLogConfig.builder(StorageBackend.OFF_HEAP).build());
            SenderLoggingRank rank = new SenderLoggingRank(
                            0, 0, log, new EventLogger(2).clientFor(0), new RecoveryLines(2, 1))
                    .dumpingTo(job.clientFor(0));
            RecordingTransport transport = new RecordingTransport(false);
            try {
                // Just past the dump threshold: a dump starts, and its logger does not answer yet.
                int first = (int) (config.thresholdBytes() / FRAME_BYTES) + 1;
                Future<?> pastThreshold = threads.submit(() -> {
                    for (int k = 1; k <= first; k++) {
                        send(rank, transport, k);
                        rank.whileWaiting();
                    }
                    return null;
                });
                pastThreshold.get(30, TimeUnit.SECONDS);
                assertTrue(asked.await(30, TimeUnit.SECONDS), "the rank asked its logger for room");
                long held = log.statistics().payloadBytes();

                // The rank sends and logs on while the logger keeps it waiting for an answer.
                Future<?> meanwhile = threads.submit(() -> {
                    for (int k = 1; k <= 2; k++) {
                        send(rank, transport, first + k);
                        rank.whileWaiting();
                    }
                    return null;
                });
                meanwhile.get(30, TimeUnit.SECONDS);
                assertEquals(held + 2L * FRAME_BYTES, log.statistics().payloadBytes(), "logged meanwhile");
                assertEquals(1, answer.getCount(), "still no answer from the logger");

                // The logger answers: the dump goes there and leaves the rank's memory.
                answer.countDown();
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (log.statistics().payloadBytes() >= held && System.nanoTime() < until) {
                    rank.whileWaiting();
                    LockSupport.parkNanos(1_000_000);
                }
                assertTrue(log.statistics().payloadBytes() < held, "the dump left the rank's log");
                List<Frame> replay = rank.framesFor(1, Map.of());
                assertEquals(first + 2, replay.size(), "every frame replays, dumped or not");
                for (Frame f : replay) {
                    byte[] got = new byte[FRAME_BYTES];
                    MemorySegment.copy(f.data(), f.dataOffset(), MemorySegment.ofArray(got), 0, FRAME_BYTES);
                    assertEquals((byte) f.sequence(), got[0], "payload of " + f.sequence());
                    assertEquals((byte) f.sequence(), got[FRAME_BYTES - 1], "payload of " + f.sequence());
                }
            } finally {
                answer.countDown();
                rank.close();
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static void send(SenderLoggingRank rank, RecordingTransport transport, long sequence) {
        byte[] payload = new byte[FRAME_BYTES];
        java.util.Arrays.fill(payload, (byte) sequence);
        Frame frame = new Frame(0, 0, 0, 1, 7, sequence, 0, MemorySegment.ofArray(payload), 0, payload.length, null);
        rank.send(frame, 1, null, transport);
        rank.afterSend(frame);
    }

    /**
     * A real in-JVM logger that answers a request for room only once {@code answer} opens, as a logger
     * process on a slow link would (the rank's side holds the job's logger lock meanwhile, as it does
     * for a remote logger's round trip).
     */
    private record SlowToAnswer(LocalLoggerNode node, CountDownLatch asked, CountDownLatch answer)
            implements LoggerNode {
        @Override
        public int index() {
            return node.index();
        }

        @Override
        public boolean alive() {
            return node.alive();
        }

        @Override
        public boolean reserve(long bytes) {
            asked.countDown();
            try {
                answer.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            return node.reserve(bytes);
        }

        @Override
        public void transfer(Dump dump, long blockBytes) {
            node.transfer(dump, blockBytes);
        }

        @Override
        public void storeBuilt(byte[] data, int crc, long reserved, DumpedPayload payload, long payloadOffset) {
            node.storeBuilt(data, crc, reserved, payload, payloadOffset);
        }

        @Override
        public void read(DumpedPayload.Placement at, long lengthBytes, MemorySegment destination, long offset) {
            node.read(at, lengthBytes, destination, offset);
        }

        @Override
        public void release(DumpedPayload.Placement at) {
            node.release(at);
        }

        @Override
        public List<DumpedPayload> die() {
            return node.die();
        }

        @Override
        public void stop() {
            node.stop();
        }

        @Override
        public Map<String, Object> record() {
            return node.record();
        }
    }
}
