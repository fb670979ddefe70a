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

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Off-heap blocks mapped for huge pages: where they are used, that they hold what was written like
 * any block, and that closing frees them. Whether the kernel grants huge pages is its business (the
 * memory works either way), so the tests check the mapping, not the page size.
 */
class HugePageBlocksTest {

  private static final long TWO_MIB = HugePageMemory.HUGE_PAGE_BYTES;

  @Test
  void huge_page_memory_is_zeroed_aligned_writable_and_unmapped_with_its_arena() {
    assumeTrue(HugePageMemory.supported(), "huge-page memory needs Linux on x86-64 or AArch64");
    MemorySegment segment;
    try (Arena arena = Arena.ofShared()) {
      segment = HugePageMemory.allocate(3 * TWO_MIB + 100, arena);
      assertEquals(3 * TWO_MIB + 100, segment.byteSize());
      assertEquals(0, segment.address() % TWO_MIB, "starts on a huge-page boundary");
      for (long at = 0; at < segment.byteSize(); at += 4096) {
        assertEquals(0, segment.get(ValueLayout.JAVA_BYTE, at), "fresh memory reads zero at " + at);
      }
      segment.fill((byte) 0x3C);
      assertEquals(0x3C, segment.get(ValueLayout.JAVA_BYTE, segment.byteSize() - 1));
    }
    assertFalse(segment.scope().isAlive());
    assertThrows(IllegalStateException.class, () -> segment.get(ValueLayout.JAVA_BYTE, 0));
  }

  @Test
  void a_size_of_zero_is_refused() {
    assumeTrue(HugePageMemory.supported());
    try (Arena arena = Arena.ofConfined()) {
      assertThrows(IllegalArgumentException.class, () -> HugePageMemory.allocate(0, arena));
    }
  }

  @Test
  void blocks_are_mapped_for_huge_pages_only_when_asked_and_a_whole_number_of_huge_pages() {
    assumeTrue(HugePageMemory.supported());
    long unlimited = PayloadLogConfig.UNLIMITED;
    var asked = new OffHeapBlockSource(2 * TWO_MIB, 1, unlimited, unlimited, true);
    try {
      assertTrue(asked.usesHugePages());
      assertFalse(new OffHeapBlockSource(2 * TWO_MIB, 1, unlimited, unlimited, false).usesHugePages());
      assertFalse(new OffHeapBlockSource(TWO_MIB / 2, 1, unlimited, unlimited, true).usesHugePages());
      StorageBlock block = asked.allocate(2 * TWO_MIB);
      assertEquals(0, block.segment.address() % TWO_MIB);
      assertEquals(2 * TWO_MIB, block.segment.byteSize());
    } finally {
      asked.close();
    }
  }

  @Test
  void a_released_huge_page_block_is_reused_as_a_spare_and_freed_on_close() {
    assumeTrue(HugePageMemory.supported());
    long unlimited = PayloadLogConfig.UNLIMITED;
    MemorySegment memory;
    var source = new OffHeapBlockSource(TWO_MIB, 1, unlimited, unlimited, true);
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
  void messages_across_huge_page_blocks_read_back_identical_after_truncation_and_reuse(boolean hugePages) {
    PayloadLogConfig config =
        PayloadLogConfig.builder(StorageBackend.OFF_HEAP).hugePages(hugePages).build();
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
}
