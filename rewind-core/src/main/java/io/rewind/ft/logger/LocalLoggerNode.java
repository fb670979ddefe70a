package io.rewind.ft.logger;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One logger node of a job whose ranks are threads of one JVM: a service rank with its own memory
 * account ({@link BlockStore}) and its own thread ({@code rewind-logger-N}), which takes the dumps
 * ranks send it, stores each as one block in the payload log's block format with its CRC-32C, and
 * serves the blocks back for replay until their senders release them.
 *
 * <p>A dump is two steps, as on a network: the rank asks for room ({@link #reserve}: accepted or
 * declined by what the logger has left), then hands the transfer over ({@link #transfer}), which
 * the logger's thread carries out while the rank computes. Bookkeeping is guarded by the job's
 * {@link LoggerNodes} lock; payload copies run outside it.
 */
final class LocalLoggerNode implements LoggerNode {
    private final int index;
    private final LoggerNodes job;
    /** The request number at which this logger dies (0: never). */
    private final long dieAtRequest;

    /** This logger's thread, {@code rewind-logger-N}: it carries the transfers out in turn. */
    private final ExecutorService thread;

    // Guarded by the job's lock.
    private LoggerState state = LoggerState.RUNNING;
    private final BlockStore store;
    /** Per stored block, the payloads it holds (what a death loses). */
    private final Map<Long, List<DumpedPayload>> payloads = new HashMap<>();

    LocalLoggerNode(int index, long capacityBytes, java.nio.file.Path folder, long dieAtRequest, LoggerNodes job) {
        this.index = index;
        this.store = new BlockStore(capacityBytes, folder);
        this.dieAtRequest = dieAtRequest;
        this.job = job;
        this.thread = Executors.newSingleThreadExecutor(
                Thread.ofPlatform().name("rewind-logger-" + index).daemon(true).factory());
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public boolean alive() {
        return state == LoggerState.RUNNING;
    }

    /** A logger scheduled to die dies at that request, which it never answers. */
    @Override
    public boolean reserve(long bytes) {
        if (state != LoggerState.RUNNING) {
            return false;
        }
        if (dieAtRequest > 0 && store.requests() + 1 >= dieAtRequest) {
            job.die(this, "killed at its dump request " + (store.requests() + 1));
            return false;
        }
        return store.reserve(bytes);
    }

    @Override
    public void transfer(Dump dump, long blockBytes) {
        try {
            thread.execute(() -> store(dump, blockBytes));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            dump.partDone(); // the job is over: nothing will store it, and nobody may wait for it
        }
    }

    /** On this logger's thread: copies the dump out of its rank's log into one block and keeps it. */
    private void store(Dump dump, long blockBytes) {
        try {
            DumpBlock block = DumpBlock.build(dump, blockBytes);
            synchronized (job.lock) {
                if (state != LoggerState.RUNNING) {
                    return;
                }
                long id = store.put(block.data(), block.crc(), blockBytes, block.messages());
                if (id != 0) {
                    payloads.put(id, job.placed(this, dump, block, id));
                }
            }
        } finally {
            dump.partDone();
        }
    }

    @Override
    public void storeBuilt(byte[] data, int crc, long reserved, DumpedPayload payload, long payloadOffset) {
        if (state != LoggerState.RUNNING) {
            return;
        }
        long id = store.put(data, crc, reserved, 1);
        payload.placements.add(new DumpedPayload.Placement(this, id, payloadOffset));
        payloads.put(id, new ArrayList<>(List.of(payload)));
    }

    @Override
    public void read(DumpedPayload.Placement at, long lengthBytes, MemorySegment destination, long offset) {
        if (state != LoggerState.RUNNING) {
            throw new LostPayloadException("logger " + index + " died");
        }
        try {
            store.read(at.blockId(), at.payloadOffset(), destination, offset, lengthBytes);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("logger " + index + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void release(DumpedPayload.Placement at) {
        store.release(at.blockId(), 1);
    }

    @Override
    public List<DumpedPayload> die() {
        state = state.die();
        List<DumpedPayload> held = new ArrayList<>();
        payloads.values().forEach(held::addAll);
        payloads.clear();
        store.clear();
        return held;
    }

    /** Flips one byte of a stored block, as a storage fault would (tests of the integrity check). */
    void corruptForTest(long blockId) {
        synchronized (job.lock) {
            store.corrupt(blockId);
        }
    }

    @Override
    public void stop() {
        thread.shutdown();
        synchronized (job.lock) {
            store.clear(); // the job is over: blocks kept as files go too
        }
    }

    @Override
    public Map<String, Object> record() {
        return BlockStore.record(index, state.name(), store.figures());
    }
}
