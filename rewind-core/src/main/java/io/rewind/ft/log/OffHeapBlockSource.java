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
 */
final class OffHeapBlockSource implements BlockSource {

  /** Cache-line alignment: copies into a block start on a line boundary. */
  private static final long ALIGNMENT_BYTES = 64;

  private final long blockBytes;
  private final int spareLimit;
  private final long limitBytes;
  private final ArrayDeque<StorageBlock> spares = new ArrayDeque<>();
  private final Set<StorageBlock> inUse = Collections.newSetFromMap(new IdentityHashMap<>());

  OffHeapBlockSource(long blockBytes, int spareLimit, long limitBytes) {
    this.blockBytes = blockBytes;
    this.spareLimit = spareLimit;
    this.limitBytes = limitBytes;
  }

  @Override
  public StorageBlock allocate(long capacityBytes) {
    if (capacityBytes != blockBytes) {
      throw new IllegalArgumentException("off-heap blocks are all " + blockBytes + " bytes");
    }
    StorageBlock block = spares.pollFirst();
    if (block != null) {
      block.resetForReuse();
      inUse.add(block);
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
      segment = arena.allocate(blockBytes, ALIGNMENT_BYTES);
    } catch (OutOfMemoryError e) {
      // Native allocation failure surfaces as OutOfMemoryError; it concerns this block only.
      arena.close();
      throw new PayloadLogException(
          PayloadLogException.Reason.ALLOCATION_FAILED,
          "cannot allocate an off-heap block of " + blockBytes + " bytes (" + e.getMessage() + ")",
          e);
    }
    block = new StorageBlock(this, blockBytes, -1, arena, segment);
    inUse.add(block);
    return block;
  }

  @Override
  public void onRetiredAndIdle(StorageBlock block) {
    // Memory blocks stay readable until released.
  }

  @Override
  public void release(StorageBlock block) {
    inUse.remove(block);
    block.released = true;
    if (spares.size() < spareLimit) {
      spares.addLast(block);
    } else {
      block.arena.close();
      block.segment = null;
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
