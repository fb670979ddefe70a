package io.rewind.ft.logger;

import io.rewind.ft.log.LogBlockFormat;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one logger holds: dumped blocks with their CRC-32C, an account of its room (reserved by
 * accepted requests, bytes held, the peak), and how many of each block's messages are still needed.
 * Blocks are kept in memory, or, given a folder, one file each on disk (the room is then disk).
 * Used by a logger node in the job's JVM and by a logger process alike. Not thread-safe: its owner
 * guards it.
 */
public final class BlockStore {
    private final long capacityBytes;
    /** Where blocks are written (null: they stay in memory). */
    private final java.nio.file.Path folder;

    private final Map<Long, Block> blocks = new HashMap<>();
    private long nextId;
    private long requests;
    private long reservedBytes;
    private long usedBytes;
    private long peakBytes;
    private long accepted;
    private long declined;
    private long storedBlocks;
    private long storedBytes;
    private long verifiedBlocks;

    public BlockStore(long capacityBytes) {
        this(capacityBytes, null);
    }

    /** Blocks as files in {@code folder} (created if need be), or in memory when it is null. */
    public BlockStore(long capacityBytes, java.nio.file.Path folder) {
        this.capacityBytes = capacityBytes;
        this.folder = folder;
        if (folder != null) {
            try {
                java.nio.file.Files.createDirectories(folder);
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("cannot use " + folder + " for logged blocks: " + e.getMessage(), e);
            }
        }
    }

    private java.nio.file.Path file(long id) {
        return folder.resolve("block-" + id + ".rwpl");
    }

    /** A request for room: accepted (reserved) or declined by what is left. Counts the request. */
    public boolean reserve(long bytes) {
        requests++;
        if (usedBytes + reservedBytes + bytes > capacityBytes) {
            declined++;
            return false;
        }
        reservedBytes += bytes;
        accepted++;
        return true;
    }

    /** Requests seen so far (the next one is number {@code requests() + 1}). */
    public long requests() {
        return requests;
    }

    /** Gives back room reserved for a dump that will not come. */
    public void unreserve(long bytes) {
        reservedBytes -= bytes;
    }

    /**
     * Keeps a block of {@code messages} messages, in the room {@code reserved} for it; its id (0: a block
     * of no message, not kept).
     */
    public long put(byte[] data, int crc, long reserved, int messages) {
        reservedBytes -= reserved;
        if (messages == 0) {
            return 0; // every message left its log on the way (trimmed, or its rank crashed): nothing to keep
        }
        long id = ++nextId;
        if (folder != null) {
            try {
                java.nio.file.Files.write(file(id), data);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot write block " + id + " to " + folder, e);
            }
            blocks.put(id, new Block(null, data.length, crc, messages));
        } else {
            blocks.put(id, new Block(data, data.length, crc, messages));
        }
        usedBytes += data.length;
        peakBytes = Math.max(peakBytes, usedBytes);
        storedBlocks++;
        storedBytes += data.length;
        return id;
    }

    /**
     * Copies {@code length} bytes at {@code offset} of block {@code id}, verifying the block's CRC the
     * first time it is read.
     *
     * @throws LostPayloadException if the block is not held
     * @throws IllegalStateException if the block fails its integrity check
     */
    public void read(long id, long offset, MemorySegment destination, long destinationOffset, long length) {
        Block b = blocks.get(id);
        if (b == null) {
            throw new LostPayloadException("block " + id + " is not held");
        }
        if (b.data == null && lastReadId != id) {
            lastRead = readFile(id); // a replay reads the messages of one block one after the other
            lastReadId = id;
        }
        MemorySegment block = MemorySegment.ofArray(b.data != null ? b.data : lastRead);
        if (!b.verified) {
            if (LogBlockFormat.checksum(block) != b.crc) {
                throw new IllegalStateException(
                        "block " + id + " fails its integrity check (CRC-32C): it cannot be replayed");
            }
            b.verified = true;
            verifiedBlocks++;
        }
        MemorySegment.copy(block, offset, destination, destinationOffset, length);
    }

    /** The size of block {@code id}; throws {@link LostPayloadException} if it is not held. */
    public int blockBytes(long id) {
        Block b = blocks.get(id);
        if (b == null) {
            throw new LostPayloadException("block " + id + " is not held");
        }
        return (int) b.bytes;
    }

    /** The file block read last, and its id (0: none). */
    private byte[] lastRead;

    private long lastReadId;

    private byte[] readFile(long id) {
        try {
            return java.nio.file.Files.readAllBytes(file(id));
        } catch (java.io.IOException e) {
            throw new LostPayloadException("block " + id + " cannot be read from " + folder + ": " + e.getMessage());
        }
    }

    /** {@code count} messages of block {@code id} are no longer needed; the block goes with the last. */
    public void release(long id, int count) {
        Block b = blocks.get(id);
        if (b != null && (b.live -= count) <= 0) {
            blocks.remove(id);
            usedBytes -= b.bytes;
            deleteFile(id);
            if (lastReadId == id) {
                lastRead = null;
                lastReadId = 0;
            }
        }
    }

    private void deleteFile(long id) {
        if (folder != null) {
            try {
                java.nio.file.Files.deleteIfExists(file(id));
            } catch (java.io.IOException e) {
                // the room is accounted free; a file left behind goes with the folder
            }
        }
    }

    /** Everything goes (the logger died, or the job ended). */
    public void clear() {
        for (Long id : blocks.keySet()) {
            deleteFile(id);
        }
        blocks.clear();
        usedBytes = 0;
        lastRead = null;
        lastReadId = 0;
    }

    /** Flips one byte of a block, as a storage fault would (tests of the integrity check). */
    void corrupt(long id) {
        Block b = blocks.get(id);
        if (b.data != null) {
            b.data[b.data.length / 2] ^= 0x5a;
        } else {
            byte[] d = readFile(id);
            d[d.length / 2] ^= 0x5a;
            try {
                java.nio.file.Files.write(file(id), d);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    /** The figures, in the order of {@link #FIGURE_NAMES}. */
    public long[] figures() {
        return new long[] {requests, accepted, declined, storedBlocks, storedBytes, peakBytes, usedBytes, verifiedBlocks
        };
    }

    /** Names of {@link #figures()} in the run record. */
    public static final String[] FIGURE_NAMES = {
        "requests",
        "accepted",
        "declined",
        "storedBlocks",
        "storedBytes",
        "peakBytes",
        "heldBytes",
        "blocksReadForReplay"
    };

    /** The run record's entry for logger {@code index}. */
    public static Map<String, Object> record(int index, String state, long[] figures) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("logger", index);
        m.put("state", state);
        for (int i = 0; i < FIGURE_NAMES.length; i++) {
            m.put(FIGURE_NAMES[i], figures == null ? 0L : figures[i]);
        }
        return m;
    }

    private static final class Block {
        /** The bytes, or null when they are in the block's file. */
        final byte[] data;

        final long bytes;
        final int crc;
        int live;
        boolean verified;

        Block(byte[] data, long bytes, int crc, int live) {
            this.data = data;
            this.bytes = bytes;
            this.crc = crc;
            this.live = live;
        }
    }
}
