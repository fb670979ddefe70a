package io.rewind.ft.log;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Supplies and takes back storage blocks of one backend. Called only with the log's lock held,
 * except {@link #readView}, which a reader calls while it holds a use count on the block.
 */
sealed interface BlockSource permits OffHeapBlockSource, MappedFileBlockSource, DummyBlockSource {

    /**
     * A writable block of exactly {@code capacityBytes}, mapped and ready.
     *
     * @throws PayloadLogException if the storage cannot provide it; nothing is leaked then
     */
    StorageBlock allocate(long capacityBytes);

    /** Called when a retired block has no copies in flight: unmap it if the backend maps windows. */
    void onRetiredAndIdle(StorageBlock block);

    /** The block holds nothing live and nobody uses it: free it, reuse it, or return its file area. */
    void release(StorageBlock block);

    /**
     * Memory to read the block from. For a block still mapped this is its segment; for an unmapped
     * window a read-only mapping in {@code scratch}, which the caller closes.
     */
    MemorySegment readView(StorageBlock block, Arena scratch);

    /**
     * A checkpoint interval ended: the log was truncated after appends. Sources that keep freed
     * storage for reuse size what they keep from the interval that just ended.
     */
    default void onIntervalEnd() {}

    /** Bytes in blocks handed out and not yet released. */
    long inUseBytes();

    /** Bytes in released blocks kept for reuse. */
    long spareBytes();

    /** Bytes in blocks prepared ahead of the writer and not yet handed out. */
    default long readyBytes() {
        return 0;
    }

    /** Bytes currently mapped from a file. */
    long mappedBytes();

    /** Frees everything, including blocks still in use. */
    void close();
}
