package io.rewind.ft.log;

import static io.rewind.ft.log.LogFixtures.SMALL_BLOCK_BYTES;
import static io.rewind.ft.log.LogFixtures.SMALL_WINDOW_BYTES;
import static io.rewind.ft.log.LogFixtures.key;
import static io.rewind.ft.log.LogFixtures.randomBytes;
import static io.rewind.ft.log.LogFixtures.send;
import static io.rewind.ft.log.LogFixtures.small;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Blocks and windows are obtained, retired, unmapped, freed and reused as the log moves. */
class BlockLifecycleTest {

    private static final Channel TO_1 = new Channel(7, 0, 1);

    @TempDir
    Path dir;

    @Test
    void off_heap_blocks_go_back_to_the_backend_when_truncation_empties_them() {
        PayloadLogConfig config = small(StorageBackend.OFF_HEAP, null)
                .spareBlocks(2)
                .spareLimitBytes(0)
                .build();
        try (PayloadLog log = PayloadLog.open(0, config)) {
            byte[] payload = new byte[1000];
            for (long s = 1; s <= 40; s++) { // 40 x (56 + 1000) bytes: 11 blocks of 4 KiB
                send(log, key(1, s), payload, CopyMethod.PACK);
            }
            assertEquals(11 * SMALL_BLOCK_BYTES, log.statistics().storageBytes());
            assertEquals(11 * SMALL_BLOCK_BYTES, log.statistics().highWaterStorageBytes());

            log.truncate(TO_1, 20); // entries 1..20 fill blocks 0..4 and part of block 5
            LogStatistics half = log.statistics();
            assertEquals(6 * SMALL_BLOCK_BYTES, half.storageBytes());
            assertEquals(2 * SMALL_BLOCK_BYTES, half.spareStorageBytes(), "two kept as spares, three freed");

            log.truncateAll();
            LogStatistics empty = log.statistics();
            assertEquals(SMALL_BLOCK_BYTES, empty.storageBytes(), "only the block being filled remains");
            send(log, key(1, 41), payload, CopyMethod.PACK);
            assertEquals(SMALL_BLOCK_BYTES, log.statistics().storageBytes(), "emptied current block is rewound");
        }
    }

    @Test
    void freed_blocks_are_kept_up_to_the_previous_interval_high_water_mark_and_released_when_the_log_shrinks() {
        PayloadLogConfig config =
                small(StorageBackend.OFF_HEAP, null).spareBlocks(1).build();
        try (PayloadLog log = PayloadLog.open(0, config)) {
            byte[] payload = new byte[1000];
            long s = 0;
            // Interval 1: 40 messages in 11 blocks, then a checkpoint truncates them all.
            for (int i = 0; i < 40; i++) {
                send(log, key(1, ++s), payload, CopyMethod.PACK);
            }
            log.truncate(TO_1, 20);
            log.truncateAll(); // a second truncation without appends in between: same interval end
            LogStatistics afterFirst = log.statistics();
            assertEquals(SMALL_BLOCK_BYTES, afterFirst.storageBytes(), "only the block being filled remains");
            assertEquals(10 * SMALL_BLOCK_BYTES, afterFirst.spareStorageBytes(), "kept up to the high-water mark");

            // Interval 2, the same traffic: served from spares, nothing allocated, nothing beyond 11 blocks held.
            for (int i = 0; i < 40; i++) {
                send(log, key(1, ++s), payload, CopyMethod.PACK);
                LogStatistics now = log.statistics();
                assertTrue(now.storageBytes() + now.spareStorageBytes() <= 11 * SMALL_BLOCK_BYTES);
            }
            assertEquals(0, log.statistics().spareStorageBytes(), "every spare reused");
            log.truncateAll();
            assertEquals(10 * SMALL_BLOCK_BYTES, log.statistics().spareStorageBytes());

            // Interval 3 is small (2 blocks): at its end the log gives back what interval 2 needed beyond it.
            for (int i = 0; i < 5; i++) {
                send(log, key(1, ++s), payload, CopyMethod.PACK);
            }
            log.truncateAll();
            LogStatistics shrunk = log.statistics();
            assertEquals(SMALL_BLOCK_BYTES, shrunk.storageBytes());
            assertEquals(SMALL_BLOCK_BYTES, shrunk.spareStorageBytes(), "max(spareBlocks, 2 - 1 in use)");
        }
    }

    @Test
    void spare_blocks_beyond_spareBlocks_are_capped_by_spareLimitBytes() {
        PayloadLogConfig config = small(StorageBackend.OFF_HEAP, null)
                .spareBlocks(1)
                .spareLimitBytes(3 * SMALL_BLOCK_BYTES)
                .build();
        try (PayloadLog log = PayloadLog.open(0, config)) {
            byte[] payload = new byte[1000];
            for (long s = 1; s <= 40; s++) {
                send(log, key(1, s), payload, CopyMethod.PACK);
            }
            log.truncateAll();
            assertEquals(3 * SMALL_BLOCK_BYTES, log.statistics().spareStorageBytes());
        }
    }

    @Test
    void mapped_log_keeps_only_the_current_window_mapped_and_reads_retired_windows_back() {
        PayloadLogConfig config = small(StorageBackend.MAPPED_FILE, dir).build();
        SplittableRandom random = new SplittableRandom(3);
        try (PayloadLog log = PayloadLog.open(0, config)) {
            Map<Long, byte[]> sent = new HashMap<>();
            for (long s = 1; s <= 60; s++) { // ~60 KiB: four windows of 16 KiB
                byte[] payload = randomBytes(random, 1000);
                send(log, key(1, s), payload, CopyMethod.HELPER_THREAD);
                sent.put(s, payload);
            }
            LogStatistics stats = log.statistics();
            assertEquals(SMALL_WINDOW_BYTES, stats.mappedBytes(), "retired windows are unmapped");
            assertEquals(4 * SMALL_WINDOW_BYTES, stats.storageBytes());
            for (LogEntry entry : log.entries(TO_1, 1, 60)) {
                assertArrayEquals(sent.get(entry.key().sequence()), entry.payloadToArray());
            }
            assertEquals(SMALL_WINDOW_BYTES, log.statistics().mappedBytes(), "read mappings are closed");
        }
    }

    @Test
    void a_message_longer_than_a_window_spans_windows_and_the_file_grows_only_on_demand() throws Exception {
        PayloadLogConfig config = small(StorageBackend.MAPPED_FILE, dir).build();
        SplittableRandom random = new SplittableRandom(4);
        try (PayloadLog log = PayloadLog.open(0, config)) {
            byte[] big = randomBytes(random, 50_000); // more than three windows
            LogEntry entry = send(log, key(1, 1), big, CopyMethod.PIPELINED);
            Path file = log.mappedFile();
            assertEquals(4 * SMALL_WINDOW_BYTES, Files.size(file));
            assertEquals(SMALL_WINDOW_BYTES, log.statistics().mappedBytes());
            assertArrayEquals(big, entry.payloadToArray());

            // Truncation frees the windows; later messages reuse them instead of growing the file.
            log.truncate(TO_1, 1);
            for (long s = 2; s <= 40; s++) {
                send(log, key(1, s), randomBytes(random, 1500), CopyMethod.PACK);
            }
            assertEquals(4 * SMALL_WINDOW_BYTES, Files.size(file));
        }
    }

    @Test
    void closing_a_mapped_log_unmaps_and_deletes_its_file() {
        PayloadLogConfig config = small(StorageBackend.MAPPED_FILE, dir).build();
        PayloadLog log = PayloadLog.open(3, config);
        send(log, key(1, 1), new byte[100], CopyMethod.PACK);
        Path file = log.mappedFile();
        assertTrue(Files.exists(file));
        assertTrue(file.getFileName().toString().startsWith("rewind-payload-rank3-"));
        log.close();
        assertFalse(Files.exists(file));
    }

    @Test
    void the_file_is_made_of_self_describing_blocks_that_reassemble_every_message() throws Exception {
        PayloadLogConfig config = small(StorageBackend.MAPPED_FILE, dir).build();
        SplittableRandom random = new SplittableRandom(5);
        try (PayloadLog log = PayloadLog.open(0, config)) {
            Map<MessageKey, byte[]> sent = new HashMap<>();
            long sequence = 0;
            for (int size : new int[] {0, 5, 3000, 20_000, 17, 40_000, 1}) {
                MessageKey key = key(1, ++sequence);
                byte[] payload = randomBytes(random, size);
                send(log, key, payload, CopyMethod.PACK);
                sent.put(key, payload);
            }
            Map<MessageKey, ByteArrayOutputStream> rebuilt = new HashMap<>();
            Map<MessageKey, Long> lengths = new HashMap<>();
            try (Arena arena = Arena.ofConfined();
                    FileChannel channel = FileChannel.open(log.mappedFile(), StandardOpenOption.READ)) {
                MemorySegment file = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
                for (long at = 0; at < file.byteSize(); at += SMALL_WINDOW_BYTES) {
                    MemorySegment window = file.asSlice(at, SMALL_WINDOW_BYTES);
                    List<LogBlockFormat.Fragment> fragments = LogBlockFormat.scan(window);
                    for (LogBlockFormat.Fragment f : fragments) {
                        ByteArrayOutputStream out = rebuilt.computeIfAbsent(f.key(), k -> new ByteArrayOutputStream());
                        assertEquals(out.size(), f.fragmentOffsetBytes(), "fragments come in message order");
                        assertEquals(out.size() == 0, f.isFirst());
                        out.write(window.asSlice(f.payloadOffsetInBlock(), f.fragmentLengthBytes())
                                .toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
                        if (f.isLast()) {
                            lengths.put(f.key(), f.messageLengthBytes());
                        }
                    }
                }
            }
            assertEquals(sent.keySet(), rebuilt.keySet());
            for (Map.Entry<MessageKey, byte[]> e : sent.entrySet()) {
                assertArrayEquals(
                        e.getValue(),
                        rebuilt.get(e.getKey()).toByteArray(),
                        e.getKey().toString());
                assertEquals(e.getValue().length, lengths.get(e.getKey()));
            }
        }
    }

    @Test
    void a_truncation_while_a_helper_copy_is_in_flight_frees_the_block_only_after_the_copy() throws Exception {
        PayloadLogConfig config = small(StorageBackend.MAPPED_FILE, dir).build();
        try (PayloadLog log = PayloadLog.open(0, config)) {
            java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
            log.helperCopier().submit(() -> awaitQuietly(gate)); // holds the copier back
            LogEntry entry;
            try {
                byte[] payload = randomBytes(new SplittableRandom(6), 40_000);
                entry = log.append(
                        key(1, 1), MemorySegment.ofArray(payload), 0, payload.length, CopyMethod.HELPER_THREAD);
                log.truncate(TO_1, 1);
                assertEquals(0, log.statistics().entries());
                assertTrue(
                        log.statistics().mappedBytes() >= 3 * SMALL_WINDOW_BYTES, "windows stay mapped for the copy");
            } finally {
                gate.countDown(); // an early failure must not leave the copier blocked at close()
            }
            entry.awaitCopy();
            LogStatistics after = log.statistics();
            assertEquals(SMALL_WINDOW_BYTES, after.mappedBytes());
            assertEquals(SMALL_WINDOW_BYTES, after.storageBytes(), "only the current window is still in use");
        }
    }

    static void awaitQuietly(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
