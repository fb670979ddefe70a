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
 * <h2>Mapped blocks and huge pages</h2>
 *
 * Where the platform allows it ({@link AnonymousMemory}), blocks are mapped by the log itself rather
 * than taken from the JVM's native allocation, which zeroes (and so faults in) a whole block at
 * once: a mapped block is faulted in as it is written, so a rank that logs little holds little,
 * whatever the block size. With {@code hugePages} and a block size that is a multiple of 2 MiB, the
 * blocks of a log that already holds {@value #SMALL_PAGE_BLOCKS} blocks are also advised for
 * transparent huge pages: such a log cycles through more memory than the TLB covers in 4 KiB pages,
 * while a small log would only pay for whole huge pages it does not fill. If the system refuses the
 * advice, or a mapping, the log goes on without it (or with the JVM's allocation) for the rest of
 * its life; the memory behaves the same.
 */
final class OffHeapBlockSource implements BlockSource {

    /** Cache-line alignment: copies into a block start on a line boundary. */
    private static final long ALIGNMENT_BYTES = 64;

    private final long blockBytes;
    private final int spareBlocks;
    private final long spareLimitBlocks;
    private final long limitBytes;
    /** Blocks a log holds before further blocks are advised for huge pages. */
    static final int SMALL_PAGE_BLOCKS = 2;

    /** Blocks are mapped by the log (faulted in as written); cleared for good once a mapping fails. */
    private boolean mapped;
    /** Blocks beyond the first few are advised for huge pages; cleared for good once refused. */
    private boolean hugePages;
    /** Most blocks in use at once during the current interval. */
    private int currentHighWaterBlocks;
    /** Most blocks in use at once during the interval before. */
    private int previousHighWaterBlocks;

    private final ArrayDeque<StorageBlock> spares = new ArrayDeque<>();
    private final Set<StorageBlock> inUse = Collections.newSetFromMap(new IdentityHashMap<>());

    OffHeapBlockSource(long blockBytes, int spareBlocks, long spareLimitBytes, long limitBytes, boolean hugePages) {
        this.blockBytes = blockBytes;
        this.mapped = AnonymousMemory.supported();
        this.hugePages = mapped && hugePages && blockBytes % AnonymousMemory.HUGE_PAGE_BYTES == 0;
        this.spareBlocks = spareBlocks;
        this.spareLimitBlocks = spareLimitBytes / blockBytes;
        this.limitBytes = limitBytes;
    }

    /** How many spares may be kept now. */
    int spareAllowance() {
        long coverHighWater = (long) Math.max(previousHighWaterBlocks, currentHighWaterBlocks) - inUse.size();
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
            segment = mapped ? mappedBlock(arena) : null;
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

    /**
     * A block mapped by the log, advised for huge pages once the log holds {@link
     * #SMALL_PAGE_BLOCKS} blocks; null (and no more mapping) if the system refuses a mapping.
     */
    private MemorySegment mappedBlock(Arena arena) {
        if (hugePages && inUse.size() + spares.size() >= SMALL_PAGE_BLOCKS) {
            try {
                return AnonymousMemory.map(blockBytes, arena, true);
            } catch (IllegalStateException e) {
                hugePages = false; // no advice from now on; a plain mapping may still do
            }
        }
        try {
            return AnonymousMemory.map(blockBytes, arena, false);
        } catch (IllegalStateException e) {
            mapped = false;
            return null;
        }
    }

    /** Whether blocks beyond the first few are advised for huge pages. */
    boolean usesHugePages() {
        return hugePages;
    }

    /** Whether blocks are mapped by the log rather than allocated by the JVM. */
    boolean mapsBlocks() {
        return mapped;
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
