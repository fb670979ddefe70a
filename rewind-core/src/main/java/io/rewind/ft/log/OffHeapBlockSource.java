package io.rewind.ft.log;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Off-heap blocks of one fixed size. Each block has its own shared arena so that it can be freed
 * on its own the moment a checkpoint makes its contents obsolete (one arena for the whole log could
 * only be freed all at once); shared because the helper copier thread writes into it. A few freed
 * blocks are kept as spares, since re-faulting fresh pages after every checkpoint costs more than
 * the copy itself for short messages.
 *
 * <h2>Spare blocks</h2>
 *
 * Copying into a freshly allocated block costs a page fault (and the zeroing) every 4 KiB, which
 * runs an order of magnitude slower than copying into a block already touched; a log that hands its
 * blocks back at every checkpoint and allocates them again in the next interval pays that on every
 * logged byte. So a freed block is kept as a spare while in-use plus spare blocks stay within the
 * off-heap high-water mark of the current or the previous checkpoint interval (an interval ends
 * when the log is truncated after appends, see {@link #onIntervalEnd}). At least {@code
 * spareBlocks} spares are always allowed, and at most {@code spareLimitBytes} of spares beyond
 * that. Bound: spares never exceed {@code max(spareBlocks, min(spareLimitBytes / blockBytes,
 * highWater(previous interval) - inUse))} after an interval ends, so steady-state logging reuses
 * the same blocks and never faults, while a log that shrinks for good gives its memory back at the
 * end of the first smaller interval. The peak footprint is never raised: a spare is memory the log
 * held at its last peak.
 *
 * <h2>Huge pages</h2>
 *
 * With {@code hugePages} and a block size that is a multiple of 2 MiB, blocks are mapped and advised
 * for transparent huge pages ({@link HugePageMemory}): a log cycles through far more memory than the
 * TLB covers in 4 KiB pages. If the platform cannot map them, or the first attempt fails, blocks come
 * from the JVM's native allocation for the rest of the log's life; the memory behaves the same.
 */
final class OffHeapBlockSource implements BlockSource {

  /** Cache-line alignment: copies into a block start on a line boundary. */
  private static final long ALIGNMENT_BYTES = 64;

  private final long blockBytes;
  private final int spareBlocks;
  private final long spareLimitBlocks;
  private final long limitBytes;
  /** Blocks are mapped for huge pages; cleared for good once the system refuses. */
  private boolean hugePages;
  /** Most blocks in use at once during the current interval. */
  private int currentHighWaterBlocks;
  /** Most blocks in use at once during the interval before. */
  private int previousHighWaterBlocks;
  private final ArrayDeque<StorageBlock> spares = new ArrayDeque<>();
  private final Set<StorageBlock> inUse = Collections.newSetFromMap(new IdentityHashMap<>());

  OffHeapBlockSource(
      long blockBytes, int spareBlocks, long spareLimitBytes, long limitBytes, boolean hugePages) {
    this.blockBytes = blockBytes;
    this.hugePages =
        hugePages
            && HugePageMemory.supported()
            && blockBytes % HugePageMemory.HUGE_PAGE_BYTES == 0;
    this.spareBlocks = spareBlocks;
    this.spareLimitBlocks = spareLimitBytes / blockBytes;
    this.limitBytes = limitBytes;
  }

  /** How many spares may be kept now. */
  int spareAllowance() {
    long coverHighWater =
        (long) Math.max(previousHighWaterBlocks, currentHighWaterBlocks) - inUse.size();
    return (int) Math.max(spareBlocks, Math.min(spareLimitBlocks, coverHighWater));
  }

  @Override
  public void onIntervalEnd() {
    previousHighWaterBlocks = currentHighWaterBlocks;
    currentHighWaterBlocks = inUse.size();
    int allowed = spareAllowance();
    while (spares.size() > allowed) {
      free(spares.pollLast());
    }
  }

  private void free(StorageBlock block) {
    block.arena.close();
    block.segment = null;
  }

  private void noteInUse(StorageBlock block) {
    inUse.add(block);
    currentHighWaterBlocks = Math.max(currentHighWaterBlocks, inUse.size());
  }

  @Override
  public StorageBlock allocate(long capacityBytes) {
    if (capacityBytes != blockBytes) {
      throw new IllegalArgumentException("off-heap blocks are all " + blockBytes + " bytes");
    }
    StorageBlock block = spares.pollFirst();
    if (block != null) {
      block.resetForReuse();
      noteInUse(block);
      return block;
    }
    long heldBytes = inUseBytes() + spareBytes();
    if (heldBytes + blockBytes > limitBytes) {
      throw new PayloadLogException(
          PayloadLogException.Reason.STORAGE_EXHAUSTED,
          "a new off-heap block of " + blockBytes + " bytes would bring the log to "
              + (heldBytes + blockBytes) + " bytes, over offHeapLimitBytes=" + limitBytes);
    }
    Arena arena = Arena.ofShared();
    MemorySegment segment;
    try {
      segment = hugePages ? hugePageBlock(arena) : null;
      if (segment == null) {
        segment = arena.allocate(blockBytes, ALIGNMENT_BYTES);
      }
    } catch (OutOfMemoryError e) {
      // Native allocation failure surfaces as OutOfMemoryError; it concerns this block only.
      arena.close();
      throw new PayloadLogException(
          PayloadLogException.Reason.ALLOCATION_FAILED,
          "cannot allocate an off-heap block of " + blockBytes + " bytes (" + e.getMessage() + ")",
          e);
    }
    block = new StorageBlock(this, blockBytes, -1, arena, segment);
    noteInUse(block);
    return block;
  }

  /** A block mapped for huge pages, or null (and no more attempts) if the system refuses one. */
  private MemorySegment hugePageBlock(Arena arena) {
    try {
      return HugePageMemory.allocate(blockBytes, arena);
    } catch (IllegalStateException e) {
      hugePages = false;
      return null;
    }
  }

  /** Whether new blocks are mapped for huge pages. */
  boolean usesHugePages() {
    return hugePages;
  }

  @Override
  public void onRetiredAndIdle(StorageBlock block) {
    // Memory blocks stay readable until released.
  }

  @Override
  public void release(StorageBlock block) {
    inUse.remove(block);
    block.released = true;
    if (spares.size() < spareAllowance()) {
      spares.addFirst(block); // most recently used first: its pages are the likeliest to be cached
    } else {
      free(block);
    }
  }

  @Override
  public MemorySegment readView(StorageBlock block, Arena scratch) {
    return block.segment;
  }

  @Override
  public long inUseBytes() {
    return inUse.size() * blockBytes;
  }

  @Override
  public long spareBytes() {
    return spares.size() * blockBytes;
  }

  @Override
  public long mappedBytes() {
    return 0;
  }

  @Override
  public void close() {
    for (StorageBlock block : inUse) {
      block.arena.close();
      block.segment = null;
    }
    inUse.clear();
    for (StorageBlock block : spares) {
      block.arena.close();
      block.segment = null;
    }
    spares.clear();
  }
}
