package io.rewind.ft.log;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One unit of storage: an off-heap block, a window of the mapped file, or the dummy area. All
 * mutable fields are guarded by the owning log's lock; {@link #segment} is also read without the
 * lock by copies that hold a use count on the block, which keeps it from being unmapped or freed.
 */
final class StorageBlock {

    final BlockSource source;
    final long capacityBytes;
    /** Offset of this window in the log file; -1 for memory blocks. */
    final long fileOffsetBytes;

    /** The block's own arena; null for a block mapped by an off-heap source, whose arena is the source's. */
    Arena arena;
    /** A mapped block advised for transparent huge pages. */
    boolean hugePagesAdvised;
    /** The writable memory, or null once a retired window has been unmapped. */
    volatile MemorySegment segment;
    /** Bytes handed out so far (records and padding). */
    long fillBytes;
    /** Live (not truncated) entries with a fragment here. */
    int liveEntries;
    /** Copies in flight into this block plus readers copying out of it. */
    int users;
    /** No more records will be placed here. */
    boolean retired;
    /** Given back to the source; must not be touched. */
    boolean released;

    StorageBlock(BlockSource source, long capacityBytes, long fileOffsetBytes, Arena arena, MemorySegment segment) {
        this.source = source;
        this.capacityBytes = capacityBytes;
        this.fileOffsetBytes = fileOffsetBytes;
        this.arena = arena;
        this.segment = segment;
    }

    /** Makes a spare block look freshly allocated. */
    void resetForReuse() {
        fillBytes = 0;
        liveEntries = 0;
        users = 0;
        retired = false;
        released = false;
        LogBlockFormat.writeEnd(segment, 0);
    }
}
