package io.rewind.ft.log;

import static io.rewind.ft.log.LogFixtures.send;
import static io.rewind.ft.log.LogFixtures.small;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many ranks logging at once (one log each), and many threads of one rank appending, truncating
 * and reading one log at once. Every message must read back exactly, and the accounting must add
 * up. Threads start together on a shared latch-free start; no timing is involved in any assertion.
 */
class ConcurrentLoggingTest {

    private static final int THREADS = 8;
    private static final int MESSAGES_PER_THREAD = 400;

    @TempDir
    Path dir;

    /** Sizes that exercise all three copy methods under the default-like hybrid policy. */
    private static int size(SplittableRandom random) {
        return switch (random.nextInt(4)) {
            case 0 -> random.nextInt(64);
            case 1 -> random.nextInt(4096);
            case 2 -> 4096 + random.nextInt(20_000);
            default -> 30_000 + random.nextInt(40_000);
        };
    }

    private static PayloadLogConfig config(StorageBackend backend, Path dir) {
        return small(backend, dir)
                .blockBytes(64 * 1024)
                .mappedWindowBytes(64 * 1024)
                .pipelineThresholdBytes(1024)
                .helperThreadThresholdBytes(16 * 1024)
                .build();
    }

    private static <T> List<T> runAll(List<Callable<T>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            List<Future<T>> futures = pool.invokeAll(tasks);
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdown();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void one_log_per_rank_on_many_threads_logs_every_message_exactly() throws Exception {
        List<Callable<Integer>> ranks = new ArrayList<>();
        for (int r = 0; r < THREADS; r++) {
            int rank = r;
            StorageBackend backend = rank % 2 == 0 ? StorageBackend.OFF_HEAP : StorageBackend.MAPPED_FILE;
            ranks.add(() -> {
                SplittableRandom random = new SplittableRandom(rank);
                byte[] buffer = new byte[70_000];
                try (PayloadLog log = PayloadLog.open(rank, config(backend, dir))) {
                    List<byte[]> sent = new ArrayList<>();
                    for (long s = 1; s <= MESSAGES_PER_THREAD / 2; s++) {
                        int n = size(random);
                        random.nextBytes(buffer);
                        sent.add(Arrays.copyOf(buffer, n));
                        MessageKey key = new MessageKey(0, rank, (rank + 1) % THREADS, 0, s, 0);
                        LogEntry entry = log.append(key, java.lang.foreign.MemorySegment.ofArray(buffer), 0, n);
                        PipelinedCopier.transferAndLog(
                                java.lang.foreign.MemorySegment.ofArray(buffer),
                                0,
                                java.lang.foreign.MemorySegment.ofArray(new byte[n]),
                                0,
                                n,
                                entry,
                                4096);
                        entry.awaitCopy();
                    }
                    Channel channel = new Channel(0, rank, (rank + 1) % THREADS);
                    List<LogEntry> entries = log.entries(channel, 1, Long.MAX_VALUE);
                    for (int i = 0; i < sent.size(); i++) {
                        assertArrayEquals(sent.get(i), entries.get(i).payloadToArray(), "rank " + rank + " entry " + i);
                    }
                    return entries.size();
                }
            });
        }
        for (int logged : runAll(ranks)) {
            assertEquals(MESSAGES_PER_THREAD / 2, logged);
        }
    }

    @Test
    void many_threads_of_one_rank_append_truncate_and_read_one_log_concurrently() throws Exception {
        for (StorageBackend backend : List.of(StorageBackend.OFF_HEAP, StorageBackend.MAPPED_FILE)) {
            try (PayloadLog log = PayloadLog.open(0, config(backend, dir))) {
                List<Callable<Long>> senders = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int destination = t + 1;
                    senders.add(() -> {
                        SplittableRandom random = new SplittableRandom(destination * 101L);
                        Channel channel = new Channel(0, 0, destination);
                        long bytesKept = 0;
                        for (long s = 1; s <= MESSAGES_PER_THREAD; s++) {
                            byte[] payload = new byte[size(random)];
                            Arrays.fill(payload, (byte) (s * destination));
                            send(
                                    log,
                                    new MessageKey(0, 0, destination, 0, s, 0),
                                    payload,
                                    CopyMethod.values()[(int) (s % 3)]);
                            if (s % 50 == 0) {
                                // This receiver checkpointed: drop all but the last 10, then check the rest
                                // while the other threads keep appending into the same blocks.
                                log.truncate(channel, s - 10);
                                for (LogEntry e : log.entries(channel, 1, s)) {
                                    byte[] back = e.payloadToArray();
                                    byte expected = (byte) (e.key().sequence() * destination);
                                    for (byte b : back) {
                                        if (b != expected) {
                                            throw new AssertionError("corrupt payload in " + e);
                                        }
                                    }
                                }
                            }
                        }
                        for (LogEntry e : log.entries(channel, 1, Long.MAX_VALUE)) {
                            bytesKept += e.lengthBytes();
                        }
                        return bytesKept;
                    });
                }
                long expectedBytes =
                        runAll(senders).stream().mapToLong(Long::longValue).sum();
                LogStatistics stats = log.statistics();
                assertEquals(THREADS * 10L, stats.entries());
                assertEquals(expectedBytes, stats.payloadBytes());
                assertEquals(THREADS * (long) MESSAGES_PER_THREAD, stats.appendedEntries());
                assertEquals(stats.appendedEntries() - stats.entries(), stats.truncatedEntries());
                assertEquals(stats.appendedBytes() - stats.payloadBytes(), stats.truncatedBytes());
                assertEquals(THREADS * 10, log.entriesInSendOrder().size());
                log.truncateAll();
                LogStatistics empty = log.statistics();
                assertEquals(0, empty.payloadBytes());
                assertEquals(64 * 1024, empty.storageBytes(), backend + ": only the current block stays in use");
            }
        }
    }
}
