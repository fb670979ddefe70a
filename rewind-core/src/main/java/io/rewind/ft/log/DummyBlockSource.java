package io.rewind.ft.log;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Areas for the dummy backend. Normally there is exactly one; a message longer than the current
 * area replaces it with a larger one, and the old one is freed once no copy still writes into it.
 */
final class DummyBlockSource implements BlockSource {

    private final Set<StorageBlock> inUse = Collections.newSetFromMap(new IdentityHashMap<>());
    private long inUseBytes;

    @Override
    public StorageBlock allocate(long capacityBytes) {
        Arena arena = Arena.ofShared();
        MemorySegment segment;
        try {
            segment = arena.allocate(capacityBytes, 64);
        } catch (OutOfMemoryError e) {
            arena.close();
            throw new PayloadLogException(
                    PayloadLogException.Reason.ALLOCATION_FAILED,
                    "cannot allocate a dummy log area of " + capacityBytes + " bytes (" + e.getMessage() + ")",
                    e);
        }
        StorageBlock block = new StorageBlock(this, capacityBytes, -1, arena, segment);
        inUse.add(block);
        inUseBytes += capacityBytes;
        return block;
    }

    @Override
    public void onRetiredAndIdle(StorageBlock block) {
        // Nothing is kept readable in a dummy area; release() frees it.
    }

    @Override
    public void release(StorageBlock block) {
        if (inUse.remove(block)) {
            inUseBytes -= block.capacityBytes;
        }
        block.released = true;
        block.arena.close();
        block.segment = null;
    }

    @Override
    public MemorySegment readView(StorageBlock block, Arena scratch) {
        throw new PayloadLogException(
                PayloadLogException.Reason.PAYLOAD_UNAVAILABLE, "the dummy backend keeps no payloads");
    }

    @Override
    public long inUseBytes() {
        return inUseBytes;
    }

    @Override
    public long spareBytes() {
        return 0;
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
        inUseBytes = 0;
    }
}
