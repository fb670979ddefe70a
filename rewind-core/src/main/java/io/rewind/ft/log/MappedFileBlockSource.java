package io.rewind.ft.log;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Windows of one log file, mapped one at a time as the log moves forward.
 *
 * <pre>
 *  log file (grows by one window when no freed window is available)
 *  +------------+------------+------------+------------+------------+
 *  |  window 0  |  window 1  |  window 2  |  window 3  |  window 4  |
 *  |  retired,  |  freed:    |  retired,  |  current:  |  freed     |
 *  |  unmapped  |  reusable  |  unmapped  |  mapped RW |            |
 *  +------------+------------+------------+------------+------------+
 *  0            W            2W           3W           4W           5W
 * </pre>
 *
 * Appends only write to the current window (and, for a message longer than what is left, to the
 * next windows, which become current in turn). A window stops being mapped as soon as it is
 * retired and no copy still writes into it: each window is mapped in its own shared arena, and
 * closing that arena unmaps it there and then instead of whenever the garbage collector gets to
 * it. Replay reads of a retired window map it read-only for the duration of the read. A window
 * whose entries were all truncated goes back to a free list and is reused before the file grows.
 *
 * <p>The file needs no durability: a crashed sender regenerates its messages by re-executing from
 * its checkpoint, so the file is deleted on close and never synced. Growth writes zeros rather
 * than extending the file sparsely, so that a full disk fails the append that grew the file with
 * an {@link java.io.IOException}, instead of faulting on some later store into a page the file
 * system cannot back.
 */
final class MappedFileBlockSource implements BlockSource {

    private static final int ZERO_CHUNK_BYTES = 256 * 1024;

    private final Path directory;
    private final String filePrefix;
    private final long windowBytes;
    private final long fileLimitBytes;
    private final LogFileOpener opener;
    private final ArrayDeque<Long> freeOffsets = new ArrayDeque<>();
    private final Set<StorageBlock> inUse = Collections.newSetFromMap(new IdentityHashMap<>());

    private Path file;
    private volatile FileChannel channel;
    private long fileBytes;
    private long mappedBytes;

    MappedFileBlockSource(
            Path directory, String filePrefix, long windowBytes, long fileLimitBytes, LogFileOpener opener) {
        this.directory = directory;
        this.filePrefix = filePrefix;
        this.windowBytes = windowBytes;
        this.fileLimitBytes = fileLimitBytes;
        this.opener = opener;
    }

    /** The log file, or null before the first window was needed. */
    Path file() {
        return file;
    }

    long fileBytes() {
        return fileBytes;
    }

    @Override
    public StorageBlock allocate(long capacityBytes) {
        if (capacityBytes != windowBytes) {
            throw new IllegalArgumentException("mapped windows are all " + windowBytes + " bytes");
        }
        ensureFile();
        Long freed = freeOffsets.pollFirst();
        long offset;
        if (freed != null) {
            offset = freed;
        } else {
            offset = fileBytes;
            grow(offset + windowBytes);
        }
        Arena arena = Arena.ofShared();
        MemorySegment segment;
        try {
            segment = channel.map(FileChannel.MapMode.READ_WRITE, offset, windowBytes, arena);
        } catch (IOException | RuntimeException e) {
            arena.close();
            freeOffsets.addFirst(offset);
            throw new PayloadLogException(
                    PayloadLogException.Reason.MAPPING_FAILED,
                    "cannot map window [" + offset + ", " + (offset + windowBytes) + ") of " + file + ": "
                            + describe(e),
                    e);
        }
        StorageBlock block = new StorageBlock(this, windowBytes, offset, arena, segment);
        // A reused window still holds old records; an end marker makes it read as empty.
        LogBlockFormat.writeEnd(segment, 0);
        inUse.add(block);
        mappedBytes += windowBytes;
        return block;
    }

    private void ensureFile() {
        if (channel != null) {
            return;
        }
        Path created = null;
        try {
            Files.createDirectories(directory);
            created = Files.createTempFile(directory, filePrefix, ".paylog");
            channel = opener.open(created);
            file = created;
        } catch (IOException | RuntimeException e) {
            if (created != null) {
                try {
                    Files.deleteIfExists(created);
                } catch (IOException ignored) {
                    // Reporting the original failure matters more than a leftover empty file.
                }
            }
            throw new PayloadLogException(
                    PayloadLogException.Reason.FILE_CREATE_FAILED,
                    "cannot create the mapped payload log file in " + directory + ": " + describe(e),
                    e);
        }
    }

    private void grow(long newBytes) {
        if (newBytes > fileLimitBytes) {
            throw new PayloadLogException(
                    PayloadLogException.Reason.STORAGE_EXHAUSTED,
                    "growing " + file + " to " + newBytes + " bytes would exceed mappedFileLimitBytes="
                            + fileLimitBytes);
        }
        ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(ZERO_CHUNK_BYTES, newBytes - fileBytes));
        long position = fileBytes;
        try {
            while (position < newBytes) {
                zeros.clear();
                zeros.limit((int) Math.min(zeros.capacity(), newBytes - position));
                position += channel.write(zeros, position);
            }
        } catch (IOException | RuntimeException e) {
            try {
                channel.truncate(fileBytes);
            } catch (IOException ignored) {
                // The file keeps a partial tail; it is never mapped because fileBytes did not move.
            }
            throw new PayloadLogException(
                    PayloadLogException.Reason.STORAGE_EXHAUSTED,
                    "cannot grow " + file + " from " + fileBytes + " to " + newBytes + " bytes: " + describe(e),
                    e);
        }
        fileBytes = newBytes;
    }

    @Override
    public void onRetiredAndIdle(StorageBlock block) {
        unmap(block);
    }

    private void unmap(StorageBlock block) {
        if (block.segment != null) {
            block.segment = null;
            block.arena.close();
            block.arena = null;
            mappedBytes -= windowBytes;
        }
    }

    @Override
    public void release(StorageBlock block) {
        unmap(block);
        if (inUse.remove(block)) {
            freeOffsets.addLast(block.fileOffsetBytes);
        }
        block.released = true;
    }

    @Override
    public MemorySegment readView(StorageBlock block, Arena scratch) {
        MemorySegment mapped = block.segment;
        if (mapped != null) {
            return mapped;
        }
        try {
            return channel.map(FileChannel.MapMode.READ_ONLY, block.fileOffsetBytes, block.capacityBytes, scratch);
        } catch (IOException | RuntimeException e) {
            throw new PayloadLogException(
                    PayloadLogException.Reason.MAPPING_FAILED,
                    "cannot map window [" + block.fileOffsetBytes + ", "
                            + (block.fileOffsetBytes + block.capacityBytes) + ") of " + file + " for reading: "
                            + describe(e),
                    e);
        }
    }

    @Override
    public long inUseBytes() {
        return inUse.size() * windowBytes;
    }

    @Override
    public long spareBytes() {
        return 0;
    }

    @Override
    public long mappedBytes() {
        return mappedBytes;
    }

    @Override
    public void close() {
        for (StorageBlock block : inUse) {
            unmap(block);
            block.released = true;
        }
        inUse.clear();
        freeOffsets.clear();
        FileChannel open = channel;
        channel = null;
        if (open != null) {
            try {
                open.close();
            } catch (IOException ignored) {
                // Closing a file we only read and wrote cannot lose anything we need.
            }
        }
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // A leftover file in a scratch directory is harmless and visible to the operator.
            }
        }
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return message == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + message;
    }
}
