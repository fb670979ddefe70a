package io.rewind.ft.log;

import static io.rewind.ft.log.LogFixtures.key;
import static io.rewind.ft.log.LogFixtures.randomBytes;
import static io.rewind.ft.log.LogFixtures.send;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Off-heap blocks the log maps itself: they hold what was written like any block, closing frees
 * them, and only the blocks of a log beyond its first few are advised for huge pages. The advice is
 * read back from the kernel ({@code VmFlags} of the mapping in /proc/self/smaps); whether huge pages
 * are then granted is the kernel's business, so it is not asserted.
 */
class MappedBlocksTest {

    private static final long TWO_MIB = AnonymousMemory.HUGE_PAGE_BYTES;
    private static final long UNLIMITED = PayloadLogConfig.UNLIMITED;

    @ParameterizedTest(name = "huge pages {0}")
    @ValueSource(booleans = {true, false})
    void mapped_memory_is_zeroed_aligned_advised_as_asked_and_unmapped_with_its_arena(boolean hugePages)
            throws IOException {
        assumeTrue(AnonymousMemory.supported(), "mapping memory needs Linux on x86-64 or AArch64");
        MemorySegment segment;
        try (Arena arena = Arena.ofShared()) {
            segment = AnonymousMemory.map(3 * TWO_MIB + 100, arena, hugePages);
            assertEquals(3 * TWO_MIB + 100, segment.byteSize());
            assertEquals(0, segment.address() % TWO_MIB, "starts on a huge-page boundary");
            for (long at = 0; at < segment.byteSize(); at += 4096) {
                assertEquals(0, segment.get(ValueLayout.JAVA_BYTE, at), "fresh memory reads zero at " + at);
            }
            segment.fill((byte) 0x3C);
            assertEquals(0x3C, segment.get(ValueLayout.JAVA_BYTE, segment.byteSize() - 1));
            assertEquals(hugePages, advisedForHugePages(segment));
        }
        assertFalse(segment.scope().isAlive());
        assertThrows(IllegalStateException.class, () -> segment.get(ValueLayout.JAVA_BYTE, 0));
    }

    @Test
    void a_size_of_zero_is_refused() {
        assumeTrue(AnonymousMemory.supported());
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalArgumentException.class, () -> AnonymousMemory.map(0, arena, false));
        }
    }

    @Test
    void only_the_blocks_of_a_log_beyond_its_first_few_are_advised_for_huge_pages() throws IOException {
        assumeTrue(AnonymousMemory.supported());
        var source = new OffHeapBlockSource(TWO_MIB, 1, UNLIMITED, UNLIMITED, true);
        try {
            assertTrue(source.mapsBlocks() && source.usesHugePages());
            int blocks = OffHeapBlockSource.SMALL_PAGE_BLOCKS + 2;
            for (int i = 0; i < blocks; i++) {
                StorageBlock block = source.allocate(TWO_MIB);
                assertEquals(0, block.segment.address() % TWO_MIB);
                assertEquals(
                        i >= OffHeapBlockSource.SMALL_PAGE_BLOCKS, advisedForHugePages(block.segment), "block " + i);
            }
        } finally {
            source.close();
        }
    }

    @Test
    void blocks_are_never_advised_when_huge_pages_are_off_or_a_block_is_not_whole_huge_pages() throws IOException {
        assumeTrue(AnonymousMemory.supported());
        var off = new OffHeapBlockSource(TWO_MIB, 1, UNLIMITED, UNLIMITED, false);
        var half = new OffHeapBlockSource(TWO_MIB / 2, 1, UNLIMITED, UNLIMITED, true);
        try {
            assertFalse(off.usesHugePages());
            assertFalse(half.usesHugePages());
            for (int i = 0; i < OffHeapBlockSource.SMALL_PAGE_BLOCKS + 2; i++) {
                assertFalse(advisedForHugePages(off.allocate(TWO_MIB).segment));
                assertFalse(advisedForHugePages(half.allocate(TWO_MIB / 2).segment));
            }
        } finally {
            off.close();
            half.close();
        }
    }

    @Test
    void a_released_block_is_reused_as_a_spare_and_freed_on_close() {
        assumeTrue(AnonymousMemory.supported());
        MemorySegment memory;
        var source = new OffHeapBlockSource(TWO_MIB, 1, UNLIMITED, UNLIMITED, true);
        try {
            StorageBlock block = source.allocate(TWO_MIB);
            memory = block.segment;
            memory.set(ValueLayout.JAVA_LONG, 8, 0x1234_5678_9ABCL);
            source.release(block);
            assertEquals(TWO_MIB, source.spareBytes());
            StorageBlock again = source.allocate(TWO_MIB);
            assertSame(block, again, "the spare comes back");
            assertEquals(0x1234_5678_9ABCL, again.segment.get(ValueLayout.JAVA_LONG, 8), "same memory, not remapped");
        } finally {
            source.close();
        }
        assertFalse(memory.scope().isAlive(), "closing the source unmaps its blocks");
    }

    /** The default configuration (2 MiB blocks, huge pages asked for) and the same in small pages. */
    @ParameterizedTest(name = "huge pages {0}")
    @ValueSource(booleans = {true, false})
    void messages_across_blocks_read_back_identical_after_truncation_and_reuse(boolean hugePages) {
        PayloadLogConfig config = PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                .hugePages(hugePages)
                .build();
        assertEquals(TWO_MIB, config.blockBytes(), "the default block is one huge page");
        SplittableRandom random = new SplittableRandom(hugePages ? 11 : 12);
        int[] sizes = {1, 4096, 700_000, (int) TWO_MIB + 3, 64, (int) (3 * TWO_MIB) - 1, 100_000};
        try (PayloadLog log = PayloadLog.open(0, config)) {
            long sequence = 0;
            for (int round = 0; round < 3; round++) {
                List<byte[]> sent = new ArrayList<>();
                long first = sequence + 1;
                byte[] buffer = new byte[(int) (3 * TWO_MIB)];
                for (int size : sizes) {
                    byte[] payload = randomBytes(random, size);
                    System.arraycopy(payload, 0, buffer, 0, size);
                    send(log, key(1, ++sequence), MemorySegment.ofArray(buffer), 0, size, CopyMethod.PACK);
                    Arrays.fill(buffer, (byte) 0x5A); // the application reuses its buffer at once
                    sent.add(payload);
                }
                List<LogEntry> entries = log.entries(new Channel(7, 0, 1), first, sequence);
                assertEquals(sent.size(), entries.size());
                for (int i = 0; i < sent.size(); i++) {
                    assertArrayEquals(sent.get(i), entries.get(i).payloadToArray(), "round " + round + ", entry " + i);
                }
                // A checkpoint makes the round obsolete: its blocks become spares for the next round.
                assertEquals(sizes.length, log.truncateAll());
                assertEquals(0, log.statistics().entries());
            }
        }
    }

    /** Whether the kernel's mapping that holds {@code segment}'s first byte carries MADV_HUGEPAGE. */
    @Test
    void a_growing_log_gets_its_next_blocks_faulted_in_ahead_of_the_writer() throws Throwable {
        assumeTrue(AnonymousMemory.supported());
        var source = new OffHeapBlockSource(TWO_MIB, 1, UNLIMITED, UNLIMITED, true, true, 0);
        try {
            for (int i = 0; i < OffHeapBlockSource.SMALL_PAGE_BLOCKS + 4; i++) {
                source.allocate(TWO_MIB);
            }
            source.awaitPrepared();
            assertTrue(source.readyBlocks() > 0, "blocks are waiting, prepared");
            assertEquals(source.readyBlocks() * TWO_MIB, source.readyBytes());
            StorageBlock next = source.allocate(TWO_MIB);
            assertEquals(TWO_MIB, residentBytes(next.segment), "the block handed out is resident before any write");
        } finally {
            source.close();
        }
    }

    @Test
    void without_preparation_a_new_block_is_faulted_in_only_by_its_writes() throws Throwable {
        assumeTrue(AnonymousMemory.supported());
        var source = new OffHeapBlockSource(TWO_MIB, 1, UNLIMITED, UNLIMITED, false, false, 0);
        try {
            StorageBlock last = null;
            for (int i = 0; i < OffHeapBlockSource.SMALL_PAGE_BLOCKS + 4; i++) {
                last = source.allocate(TWO_MIB);
            }
            source.awaitPrepared();
            assertEquals(0, source.readyBytes());
            assertEquals(0, residentBytes(last.segment));
            last.segment.set(ValueLayout.JAVA_LONG, 4096, 7L);
            if (hugePagesForAllMemory()) { // the kernel may back the written page with a huge one
                assertTrue(residentBytes(last.segment) >= 4096, "the page written");
            } else {
                assertEquals(4096, residentBytes(last.segment), "one page, the one written");
            }
        } finally {
            source.close();
        }
    }

    @Test
    void a_freed_block_gives_its_memory_back_keeps_its_addresses_and_is_used_again() throws Throwable {
        assumeTrue(AnonymousMemory.supported());
        var source = new OffHeapBlockSource(TWO_MIB, 0, 0, UNLIMITED, false, false, 0);
        try {
            StorageBlock block = source.allocate(TWO_MIB);
            MemorySegment memory = block.segment;
            memory.fill((byte) 0x5A);
            source.release(block);
            assertEquals(0, source.inUseBytes() + source.spareBytes(), "no spare allowed: freed");
            assertTrue(memory.scope().isAlive(), "freed without closing an arena");
            assertEquals(0, residentBytes(memory), "its memory went back to the system");
            assertEquals(0, memory.get(ValueLayout.JAVA_BYTE, 100), "and reads as zeros");
            StorageBlock again = source.allocate(TWO_MIB);
            assertEquals(memory.address(), again.segment.address(), "the same addresses serve the next block");
        } finally {
            source.close();
        }
    }

    @Test
    void blocks_prepared_ahead_count_against_the_off_heap_limit() {
        assumeTrue(AnonymousMemory.supported());
        long limit = 5 * TWO_MIB;
        var source = new OffHeapBlockSource(TWO_MIB, 1, UNLIMITED, limit, true, true, 0);
        try {
            for (int i = 0; i < 5; i++) {
                source.allocate(TWO_MIB);
                assertTrue(source.inUseBytes() + source.readyBytes() <= limit);
            }
            var e = assertThrows(PayloadLogException.class, () -> source.allocate(TWO_MIB));
            assertEquals(PayloadLogException.Reason.STORAGE_EXHAUSTED, e.reason());
        } finally {
            source.close();
        }
    }

    @Test
    void a_reserve_is_resident_when_the_log_opens_and_serves_the_writer_before_any_new_memory() throws Throwable {
        assumeTrue(AnonymousMemory.supported());
        long reserve = 5 * TWO_MIB + 1; // rounded up to 6 blocks
        var source = new OffHeapBlockSource(TWO_MIB, 1, UNLIMITED, UNLIMITED, true, true, reserve);
        try {
            assertEquals(6 * TWO_MIB, source.reserve());
            assertEquals(6 * TWO_MIB, source.spareBytes());
            List<MemorySegment> reserved = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                StorageBlock block = source.allocate(TWO_MIB);
                assertEquals(TWO_MIB, residentBytes(block.segment), "block " + i + " was faulted in at open");
                reserved.add(block.segment);
            }
            assertEquals(0, source.spareBytes());
            assertEquals(6 * TWO_MIB, source.inUseBytes());
        } finally {
            source.close();
        }
    }

    @Test
    void a_reserve_is_kept_through_truncation_while_spares_beyond_it_follow_the_usual_bound() {
        assumeTrue(AnonymousMemory.supported());
        var source = new OffHeapBlockSource(TWO_MIB, 0, 0, UNLIMITED, false, false, 4 * TWO_MIB);
        try {
            source.reserve();
            List<StorageBlock> blocks = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                blocks.add(source.allocate(TWO_MIB));
            }
            blocks.forEach(source::release);
            source.onIntervalEnd();
            source.onIntervalEnd();
            assertEquals(4 * TWO_MIB, source.spareBytes(), "the reserve stays; the two blocks beyond it go back");
        } finally {
            source.close();
        }
    }

    @Test
    void a_reserve_stops_where_the_machine_would_be_left_without_its_margin() {
        assumeTrue(AnonymousMemory.supported());
        var source = new OffHeapBlockSource(TWO_MIB, 1, UNLIMITED, UNLIMITED, false, true, 10 * TWO_MIB);
        var real = OffHeapBlockSource.availableMemory;
        // A machine with room for three blocks beyond the margin, shrinking as the reserve takes them.
        OffHeapBlockSource.availableMemory =
                () -> OffHeapBlockSource.reserveMarginBytes() + 3 * TWO_MIB - source.spareBytes();
        try {
            assertEquals(3 * TWO_MIB, source.reserve(), "cut to what the machine can spare");
            StorageBlock block = source.allocate(TWO_MIB);
            assertTrue(block.segment.scope().isAlive(), "the log goes on");
        } finally {
            OffHeapBlockSource.availableMemory = real;
            source.close();
        }
        assertTrue(OffHeapBlockSource.reserveMarginBytes() >= 512L << 20);
    }

    @Test
    void a_reserve_counts_against_the_off_heap_limit() {
        assumeTrue(AnonymousMemory.supported());
        long limit = 3 * TWO_MIB;
        var source = new OffHeapBlockSource(TWO_MIB, 1, UNLIMITED, limit, false, true, 3 * TWO_MIB);
        try {
            source.reserve();
            for (int i = 0; i < 3; i++) {
                source.allocate(TWO_MIB);
            }
            var e = assertThrows(PayloadLogException.class, () -> source.allocate(TWO_MIB));
            assertEquals(PayloadLogException.Reason.STORAGE_EXHAUSTED, e.reason());
        } finally {
            source.close();
        }
    }

    @Test
    void a_reserve_needs_off_heap_blocks_and_fits_the_limit() {
        var fileLog = PayloadLogConfig.builder(StorageBackend.MAPPED_FILE)
                .mappedDirectory(Path.of("."))
                .reserveBytes(TWO_MIB);
        assertTrue(assertThrows(IllegalArgumentException.class, fileLog::build)
                .getMessage()
                .contains("MAPPED_FILE"));
        var overLimit = PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                .offHeapLimitBytes(4 * TWO_MIB)
                .reserveBytes(5 * TWO_MIB);
        assertTrue(assertThrows(IllegalArgumentException.class, overLimit::build)
                .getMessage()
                .contains("offHeapLimitBytes"));
        assertThrows(IllegalArgumentException.class, () -> PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                .reserveBytes(-1)
                .build());
    }

    @Test
    void a_log_opened_with_a_reserve_holds_it_as_memory_and_logs_into_it() {
        var config = PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                .reserveBytes(3 * TWO_MIB)
                .build();
        try (PayloadLog log = PayloadLog.open(0, config)) {
            assertEquals(3 * TWO_MIB, log.statistics().memoryBytes(), "reserved when opened");
            byte[] payload = randomBytes(new SplittableRandom(7), 100_000);
            LogEntry entry = send(log, key(1, 1), payload, CopyMethod.PACK);
            byte[] back = new byte[payload.length];
            entry.readPayload(MemorySegment.ofArray(back), 0);
            assertArrayEquals(payload, back);
            assertEquals(3 * TWO_MIB, log.statistics().memoryBytes(), "written into the reserve: no new memory");
        }
    }

    @Test
    void closing_while_blocks_are_being_prepared_unmaps_everything() {
        assumeTrue(AnonymousMemory.supported());
        var source = new OffHeapBlockSource(TWO_MIB, 1, UNLIMITED, UNLIMITED, true, true, 0);
        List<MemorySegment> handedOut = new ArrayList<>();
        for (int i = 0; i < OffHeapBlockSource.SMALL_PAGE_BLOCKS + 8; i++) {
            handedOut.add(source.allocate(TWO_MIB).segment);
        }
        source.close(); // returns at once; the preparer unmaps when done with its block
        source.awaitPrepared();
        assertEquals(0, source.readyBytes());
        for (MemorySegment m : handedOut) {
            assertFalse(m.scope().isAlive());
        }
    }

    /** Whether transparent huge pages are on for all memory, advised or not. */
    private static boolean hugePagesForAllMemory() throws IOException {
        Path mode = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        return Files.exists(mode) && Files.readString(mode).contains("[always]");
    }

    /** Bytes of {@code segment} resident in memory now ({@code mincore}, page by page). */
    private static long residentBytes(MemorySegment segment) throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle mincore = linker.downcallHandle(
                linker.defaultLookup().find("mincore").orElseThrow(),
                FunctionDescriptor.of(
                        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
        long pages = segment.byteSize() / 4096;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment vector = arena.allocate(pages);
            int rc = (int) mincore.invokeExact(segment, segment.byteSize(), vector);
            assertEquals(0, rc, "mincore");
            long resident = 0;
            for (long i = 0; i < pages; i++) {
                resident += (vector.get(ValueLayout.JAVA_BYTE, i) & 1) * 4096L;
            }
            return resident;
        }
    }

    private static boolean advisedForHugePages(MemorySegment segment) throws IOException {
        long address = segment.address();
        boolean inside = false;
        for (String line : Files.readAllLines(Path.of("/proc/self/smaps"))) {
            int dash = line.indexOf('-');
            int space = line.indexOf(' ');
            if (dash > 0 && space > dash && line.substring(0, dash).matches("[0-9a-f]+")) {
                long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
                long end = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                inside = start <= address && address < end;
            } else if (inside && line.startsWith("VmFlags:")) {
                return Arrays.asList(line.substring("VmFlags:".length()).trim().split("\\s+"))
                        .contains("hg");
            }
        }
        throw new AssertionError("no mapping holds address " + Long.toHexString(address));
    }
}
