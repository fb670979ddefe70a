package io.rewind.ft.logger;

import io.rewind.ft.log.LogBlockFormat;
import io.rewind.ft.log.LogEntry;
import io.rewind.ft.log.PayloadLogException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One logger node of a job whose ranks are threads of one JVM: a service rank with its own memory
 * account and its own thread ({@code rewind-logger-N}), which takes the dumps ranks send it, stores
 * each as one block in the payload log's block format with its CRC-32C, and serves the blocks back
 * for replay until their senders release them.
 *
 * <p>A dump is two steps, as on a network: the rank asks for room ({@link #reserve}: accepted or
 * declined by what the logger has left), then hands the transfer over ({@link #transfer}), which
 * the logger's thread carries out while the rank computes. Bookkeeping is guarded by the job's
 * {@link LoggerNodes} lock; payload copies run outside it.
 */
final class LoggerNode {
    private final int index;
    private final long capacityBytes;
    private final LoggerNodes job;
    /** The request number at which this logger dies (0: never). */
    private final long dieAtRequest;

    private final LinkedBlockingQueue<Transfer> queue = new LinkedBlockingQueue<>();
    private final Thread thread;

    // Guarded by the job's lock.
    private LoggerState state = LoggerState.RUNNING;
    private final Map<Long, StoredBlock> blocks = new HashMap<>();
    private long nextBlock;
    private long requests;
    private long reservedBytes;
    private long usedBytes;
    private long peakBytes;
    private long accepted;
    private long declined;
    private long storedBlocks;
    private long storedBytes;
    private long readBlocks;

    LoggerNode(int index, long capacityBytes, long dieAtRequest, LoggerNodes job) {
        this.index = index;
        this.capacityBytes = capacityBytes;
        this.dieAtRequest = dieAtRequest;
        this.job = job;
        this.thread =
                Thread.ofPlatform().name("rewind-logger-" + index).daemon(true).unstarted(this::run);
        thread.start();
    }

    int index() {
        return index;
    }

    /** Lock held. */
    boolean alive() {
        return state == LoggerState.RUNNING;
    }

    /**
     * A rank asks for room for {@code bytes} (block bytes, headers included). Lock held. False if this
     * logger declines (full, or dead); a logger scheduled to die dies here.
     */
    boolean reserve(long bytes) {
        if (state != LoggerState.RUNNING) {
            return false;
        }
        requests++;
        if (dieAtRequest > 0 && requests >= dieAtRequest) {
            job.die(this, "killed at its dump request " + requests);
            return false;
        }
        if (usedBytes + reservedBytes + bytes > capacityBytes) {
            declined++;
            return false;
        }
        reservedBytes += bytes;
        accepted++;
        return true;
    }

    /** Hands over an accepted dump; the logger's thread copies it (or fails it if the logger dies first). */
    void transfer(Dump dump, long blockBytes) {
        queue.add(new Transfer(dump, blockBytes));
    }

    private record Transfer(Dump dump, long blockBytes) {}

    /** Sentinel that ends the thread. */
    private static final Transfer STOP = new Transfer(null, 0);

    private void run() {
        while (true) {
            Transfer t;
            try {
                t = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (t == STOP) {
                return;
            }
            try {
                store(t);
            } finally {
                t.dump().partDone();
            }
        }
    }

    /** Copies the dump's entries into one new block, then records it. On this logger's thread. */
    private void store(Transfer t) {
        Dump dump = t.dump();
        byte[] data = new byte[Math.toIntExact(t.blockBytes())];
        MemorySegment block = MemorySegment.ofArray(data);
        long[] offsets = new long[dump.entries.size()];
        long at = 0;
        for (int i = 0; i < offsets.length; i++) {
            LogEntry entry = dump.entries.get(i);
            offsets[i] = -1;
            try {
                entry.readPayload(block, at + LogBlockFormat.HEADER_BYTES);
            } catch (PayloadLogException | IllegalStateException e) {
                continue; // trimmed (or its rank crashed) while the dump was on its way: not needed
            }
            LogBlockFormat.writeWholeMessageHeader(block, at, entry.key(), entry.lengthBytes());
            offsets[i] = at + LogBlockFormat.HEADER_BYTES;
            at += LogBlockFormat.recordBytes(entry.lengthBytes());
        }
        LogBlockFormat.writeEnd(block, at);
        int crc = LogBlockFormat.checksum(block);
        synchronized (job.lock) {
            reservedBytes -= t.blockBytes();
            if (state != LoggerState.RUNNING) {
                return;
            }
            long id = ++nextBlock;
            StoredBlock stored = new StoredBlock(data, crc);
            for (int i = 0; i < offsets.length; i++) {
                if (offsets[i] >= 0) {
                    DumpedPayload p = dump.payloads[i];
                    p.placements.add(new DumpedPayload.Placement(this, id, offsets[i]));
                    stored.payloads.add(p);
                }
            }
            if (stored.payloads.isEmpty()) {
                return;
            }
            stored.live = stored.payloads.size();
            blocks.put(id, stored);
            usedBytes += data.length;
            peakBytes = Math.max(peakBytes, usedBytes);
            storedBlocks++;
            storedBytes += data.length;
        }
    }

    /**
     * Records a block built by its sender (one message stored on the sender's thread). Lock held. Does
     * nothing if this logger died meanwhile.
     */
    void storeBuilt(byte[] data, int crc, long reserved, DumpedPayload payload, long payloadOffset) {
        reservedBytes -= reserved;
        if (state != LoggerState.RUNNING) {
            return;
        }
        long id = ++nextBlock;
        StoredBlock stored = new StoredBlock(data, crc);
        stored.payloads.add(payload);
        stored.live = 1;
        payload.placements.add(new DumpedPayload.Placement(this, id, payloadOffset));
        blocks.put(id, stored);
        usedBytes += data.length;
        peakBytes = Math.max(peakBytes, usedBytes);
        storedBlocks++;
        storedBytes += data.length;
    }

    /**
     * Copies a payload this logger holds into {@code destination}. Lock held. The block's CRC is
     * verified the first time it is read.
     *
     * @throws LostPayloadException if this logger died or no longer holds the block
     * @throws IllegalStateException if the block fails its integrity check
     */
    void read(DumpedPayload.Placement at, long lengthBytes, MemorySegment destination, long offset) {
        StoredBlock b = state == LoggerState.RUNNING ? blocks.get(at.blockId()) : null;
        if (b == null) {
            throw new LostPayloadException("logger " + index + " no longer holds block " + at.blockId());
        }
        MemorySegment block = MemorySegment.ofArray(b.data);
        if (!b.verified) {
            if (LogBlockFormat.checksum(block) != b.crc) {
                throw new IllegalStateException("block " + at.blockId() + " at logger " + index
                        + " fails its integrity check (CRC-32C): it cannot be replayed");
            }
            b.verified = true;
            readBlocks++;
        }
        MemorySegment.copy(block, at.payloadOffset(), destination, offset, lengthBytes);
    }

    /** One payload of a block is no longer needed; the block goes when none is left. Lock held. */
    void release(DumpedPayload.Placement at) {
        StoredBlock b = blocks.get(at.blockId());
        if (b != null && --b.live == 0) {
            blocks.remove(at.blockId());
            usedBytes -= b.data.length;
        }
    }

    /** Dies: everything held is gone. Returns the payloads it held. Lock held. */
    List<DumpedPayload> die() {
        state = state.die();
        List<DumpedPayload> held = new ArrayList<>();
        for (StoredBlock b : blocks.values()) {
            held.addAll(b.payloads);
        }
        blocks.clear();
        usedBytes = 0;
        return held;
    }

    /** Flips one byte of a stored block, as a storage fault would (tests of the integrity check). */
    void corruptForTest(long blockId) {
        synchronized (job.lock) {
            StoredBlock b = blocks.get(blockId);
            b.data[b.data.length / 2] ^= 0x5a;
        }
    }

    /** Stops the thread (the job ended). */
    void stop() {
        queue.add(STOP);
    }

    /** What the run record says about this logger. Lock held. */
    Map<String, Object> record() {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("logger", index);
        m.put("state", state.name());
        m.put("requests", requests);
        m.put("accepted", accepted);
        m.put("declined", declined);
        m.put("storedBlocks", storedBlocks);
        m.put("storedBytes", storedBytes);
        m.put("peakBytes", peakBytes);
        m.put("heldBytes", usedBytes);
        m.put("blocksReadForReplay", readBlocks);
        return m;
    }

    /** One dump as this logger keeps it. */
    private static final class StoredBlock {
        final byte[] data;
        final int crc;
        final List<DumpedPayload> payloads = new ArrayList<>();
        int live;
        boolean verified;

        StoredBlock(byte[] data, int crc) {
            this.data = data;
            this.crc = crc;
        }
    }
}
