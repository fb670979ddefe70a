package io.rewind.ft.log;

import static io.rewind.ft.log.LogBlockFormat.HEADER_BYTES;
import static io.rewind.ft.log.LogBlockFormat.align8;

import java.util.List;

/**
 * Fills fixed-size blocks one after the other in send order, writing the records described in
 * {@link LogBlockFormat}. Send order across channels is what makes a block a useful unit to free or
 * to ship away: entries appended close in time are truncated close in time.
 */
final class BlockAppender implements Appender {

    private final BlockSource source;
    private final long blockBytes;
    private StorageBlock current;

    BlockAppender(BlockSource source, long blockBytes) {
        this.source = source;
        this.blockBytes = blockBytes;
    }

    /** Room for a header and, unless nothing is left to place, at least 8 payload bytes. */
    private static boolean fits(long freeBytes, long remainingBytes) {
        return freeBytes >= HEADER_BYTES + (remainingBytes == 0 ? 0 : 8);
    }

    private static final StorageBlock[] NO_BLOCKS = new StorageBlock[0];

    @Override
    public Extent[] reserve(MessageKey key, long lengthBytes, List<StorageBlock> retired) {
        // First plan, so that every block the message needs is obtained before anything changes:
        // an append that fails for lack of storage leaves the log exactly as it was.
        long free = current == null ? 0 : blockBytes - current.fillBytes;
        int newBlocks = 0;
        int fragments = 0;
        long remaining = lengthBytes;
        do {
            if (!fits(free, remaining)) {
                newBlocks++;
                free = blockBytes;
            }
            long take = Math.min(remaining, free - HEADER_BYTES);
            free -= HEADER_BYTES + align8(take);
            remaining -= take;
            fragments++;
        } while (remaining > 0);

        StorageBlock[] fresh = newBlocks == 0 ? NO_BLOCKS : new StorageBlock[newBlocks];
        try {
            for (int i = 0; i < newBlocks; i++) {
                fresh[i] = source.allocate(blockBytes);
            }
        } catch (RuntimeException e) {
            for (StorageBlock block : fresh) {
                if (block != null) {
                    source.release(block);
                }
            }
            throw e;
        }

        Extent[] extents = new Extent[fragments];
        int nextFresh = 0;
        int fragment = 0;
        long messageOffset = 0;
        remaining = lengthBytes;
        do {
            if (current == null || !fits(blockBytes - current.fillBytes, remaining)) {
                if (current != null) {
                    current.retired = true;
                    retired.add(current);
                }
                current = fresh[nextFresh++];
            }
            long at = current.fillBytes;
            long take = Math.min(remaining, blockBytes - at - HEADER_BYTES);
            int flags = (messageOffset == 0 ? LogBlockFormat.FLAG_FIRST : 0)
                    | (take == remaining ? LogBlockFormat.FLAG_LAST : 0);
            LogBlockFormat.writeHeader(current.segment, at, key, flags, take, lengthBytes, messageOffset);
            extents[fragment++] = new Extent(current, at + HEADER_BYTES, take, messageOffset);
            current.fillBytes = at + HEADER_BYTES + align8(take);
            LogBlockFormat.writeEnd(current.segment, current.fillBytes);
            remaining -= take;
            messageOffset += take;
        } while (remaining > 0);
        return extents;
    }

    @Override
    public StorageBlock current() {
        return current;
    }

    @Override
    public BlockSource source() {
        return source;
    }

    @Override
    public boolean retainsPayload() {
        return true;
    }
}
