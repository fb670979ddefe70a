package io.rewind.ft.log;

import static io.rewind.ft.log.LogFixtures.SMALL_WINDOW_BYTES;
import static io.rewind.ft.log.LogFixtures.key;
import static io.rewind.ft.log.LogFixtures.send;
import static io.rewind.ft.log.LogFixtures.small;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Storage that cannot be had fails the append that needed it, with a reason and a message naming
 * what failed, and leaves the log as it was. Tests run as root, so permissions cannot be used to
 * make a directory unwritable: the faults come from a path that is a regular file, the configured
 * file limit, and a file channel that fails like a full disk or a failed mmap.
 */
class StorageFaultTest {

    private static final Channel TO_1 = new Channel(7, 0, 1);

    @TempDir
    Path dir;

    private static MemorySegment bytes(int n) {
        return MemorySegment.ofArray(new byte[n]);
    }

    @Test
    void a_log_directory_that_cannot_exist_fails_the_first_append_that_needs_the_file() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("plain-file"), "x");
        PayloadLogConfig config =
                small(StorageBackend.MAPPED_FILE, notADirectory.resolve("logs")).build();
        try (PayloadLog log = PayloadLog.open(0, config)) { // opening does not touch the file system
            PayloadLogException e = assertThrows(
                    PayloadLogException.class, () -> log.append(key(1, 1), bytes(10), 0, 10, CopyMethod.PACK));
            assertEquals(PayloadLogException.Reason.FILE_CREATE_FAILED, e.reason());
            assertTrue(e.getMessage().contains("cannot create the mapped payload log file in"), e.getMessage());
            assertTrue(e.getMessage().contains(notADirectory.toString()), e.getMessage());
            assertEquals(0, log.statistics().entries());
            // Still refused, still clearly, on the next attempt; nothing half-initialised in between.
            assertEquals(
                    PayloadLogException.Reason.FILE_CREATE_FAILED,
                    assertThrows(
                                    PayloadLogException.class,
                                    () -> log.append(key(1, 1), bytes(10), 0, 10, CopyMethod.PACK))
                            .reason());
        }
    }

    @Test
    void reaching_the_file_limit_fails_exactly_the_append_that_would_grow_past_it() {
        PayloadLogConfig config = small(StorageBackend.MAPPED_FILE, dir)
                .mappedFileLimitBytes(2 * SMALL_WINDOW_BYTES)
                .build();
        try (PayloadLog log = PayloadLog.open(0, config)) {
            byte[] first = new byte[20_000];
            first[19_999] = 9;
            send(log, key(1, 1), first, CopyMethod.PACK); // two windows, the file is at its limit
            PayloadLogException e = assertThrows(
                    PayloadLogException.class,
                    () -> log.append(key(1, 2), bytes(20_000), 0, 20_000, CopyMethod.HELPER_THREAD));
            assertEquals(PayloadLogException.Reason.STORAGE_EXHAUSTED, e.reason());
            assertTrue(e.getMessage().contains("mappedFileLimitBytes=" + 2 * SMALL_WINDOW_BYTES), e.getMessage());
            // The failed append logged nothing; what was logged before is intact.
            assertEquals(1, log.statistics().entries());
            assertArrayEquals(first, log.entries(TO_1, 1, 1).getFirst().payloadToArray());
            // Once a checkpoint frees space, the same message fits.
            log.truncate(TO_1, 1);
            send(log, key(1, 2), new byte[20_000], CopyMethod.HELPER_THREAD);
        }
    }

    @Test
    void a_full_disk_fails_the_append_that_grows_the_file_not_a_later_store() throws Exception {
        AtomicReference<FaultyFileChannel> channel = new AtomicReference<>();
        LogFileOpener opener = file -> {
            channel.set(new FaultyFileChannel(LogFileOpener.DEFAULT.open(file)));
            return channel.get();
        };
        PayloadLogConfig config = small(StorageBackend.MAPPED_FILE, dir).build();
        try (PayloadLog log = PayloadLog.open(0, config, null, System::nanoTime, opener)) {
            send(log, key(1, 1), new byte[10_000], CopyMethod.PACK);
            channel.get().failWrites = true;
            send(log, key(1, 2), new byte[5_000], CopyMethod.PACK); // still fits the current window
            PayloadLogException e = assertThrows(
                    PayloadLogException.class, () -> log.append(key(1, 3), bytes(5_000), 0, 5_000, CopyMethod.PACK));
            assertEquals(PayloadLogException.Reason.STORAGE_EXHAUSTED, e.reason());
            assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
            assertTrue(e.getMessage().contains("cannot grow"), e.getMessage());
            assertEquals(SMALL_WINDOW_BYTES, Files.size(log.mappedFile()), "a failed growth is rolled back");
            channel.get().failWrites = false;
            send(log, key(1, 3), new byte[5_000], CopyMethod.PACK);
            assertEquals(3, log.statistics().entries());
        }
    }

    @Test
    void a_failed_mapping_fails_the_append_that_needed_the_window() {
        AtomicReference<FaultyFileChannel> channel = new AtomicReference<>();
        LogFileOpener opener = file -> {
            channel.set(new FaultyFileChannel(LogFileOpener.DEFAULT.open(file)));
            return channel.get();
        };
        PayloadLogConfig config = small(StorageBackend.MAPPED_FILE, dir).build();
        try (PayloadLog log = PayloadLog.open(0, config, null, System::nanoTime, opener)) {
            byte[] kept = new byte[15_000];
            kept[0] = 1;
            send(log, key(1, 1), kept, CopyMethod.PACK);
            channel.get().failMaps = true;
            PayloadLogException e = assertThrows(
                    PayloadLogException.class,
                    () -> log.append(key(1, 2), bytes(5_000), 0, 5_000, CopyMethod.PIPELINED));
            assertEquals(PayloadLogException.Reason.MAPPING_FAILED, e.reason());
            assertTrue(e.getMessage().contains("cannot map window [16384, 32768)"), e.getMessage());
            assertEquals(1, log.statistics().entries());
            channel.get().failMaps = false;
            send(log, key(1, 2), new byte[5_000], CopyMethod.PIPELINED);
            assertArrayEquals(kept, log.entries(TO_1, 1, 1).getFirst().payloadToArray());
        }
    }

    @Test
    void reading_a_retired_window_reports_a_failed_mapping_clearly() {
        AtomicReference<FaultyFileChannel> channel = new AtomicReference<>();
        LogFileOpener opener = file -> {
            channel.set(new FaultyFileChannel(LogFileOpener.DEFAULT.open(file)));
            return channel.get();
        };
        PayloadLogConfig config = small(StorageBackend.MAPPED_FILE, dir).build();
        try (PayloadLog log = PayloadLog.open(0, config, null, System::nanoTime, opener)) {
            LogEntry old = send(log, key(1, 1), new byte[15_000], CopyMethod.PACK);
            send(log, key(1, 2), new byte[5_000], CopyMethod.PACK); // retires and unmaps window 0
            channel.get().failMaps = true;
            PayloadLogException e = assertThrows(PayloadLogException.class, old::payloadToArray);
            assertEquals(PayloadLogException.Reason.MAPPING_FAILED, e.reason());
            assertTrue(e.getMessage().contains("for reading"), e.getMessage());
            channel.get().failMaps = false;
            assertEquals(15_000, old.payloadToArray().length);
        }
    }

    @Test
    void an_off_heap_limit_fails_the_append_with_the_limit_in_the_message() {
        PayloadLogConfig config =
                small(StorageBackend.OFF_HEAP, null).offHeapLimitBytes(8192).build();
        try (PayloadLog log = PayloadLog.open(0, config)) {
            send(log, key(1, 1), new byte[4000], CopyMethod.PACK);
            send(log, key(1, 2), new byte[4000], CopyMethod.PACK);
            PayloadLogException e = assertThrows(
                    PayloadLogException.class, () -> log.append(key(1, 3), bytes(100), 0, 100, CopyMethod.PACK));
            assertEquals(PayloadLogException.Reason.STORAGE_EXHAUSTED, e.reason());
            assertTrue(e.getMessage().contains("offHeapLimitBytes=8192"), e.getMessage());
            assertEquals(2, log.statistics().entries());
        }
    }

    @Test
    void a_hybrid_log_spills_to_the_file_when_memory_runs_out() {
        PayloadLogConfig config = small(StorageBackend.HYBRID, dir)
                .offHeapLimitBytes(8192)
                .spareBlocks(0)
                .build();
        try (PayloadLog log = PayloadLog.open(0, config)) {
            for (long s = 1; s <= 10; s++) {
                byte[] payload = new byte[3000];
                payload[0] = (byte) s;
                send(log, key(1, s), payload, CopyMethod.PACK);
            }
            LogStatistics stats = log.statistics();
            assertEquals(10, stats.entries());
            assertEquals(2 * 4096 + 2 * SMALL_WINDOW_BYTES, stats.storageBytes());
            for (LogEntry entry : log.entries(TO_1, 1, 10)) {
                assertEquals((byte) entry.key().sequence(), entry.payloadToArray()[0]);
            }
        }
    }
}
