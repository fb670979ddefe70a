package io.rewind.ft.logger;

import io.rewind.ft.log.LogBlockFormat;
import io.rewind.ft.log.LogEntry;
import io.rewind.ft.log.MessageKey;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * One rank incarnation's side of the logger nodes: asks them for room and hands dumps over, reads
 * dumped payloads back for replay, and releases them once the rank's index no longer refers to them.
 * Called by the rank's protocol under its own lock; takes the job's logger lock for bookkeeping.
 */
public final class LoggerClient {
    private final LoggerNodes job;
    private final int rank;
    private final LoggerConfig config;
    /** Payloads this incarnation dumped and has not released: released all at once when it ends. */
    private final Set<DumpedPayload> live = Collections.newSetFromMap(new IdentityHashMap<>());

    private boolean closed;

    LoggerClient(LoggerNodes job, int rank, LoggerConfig config) {
        this.job = job;
        this.rank = rank;
        this.config = config;
    }

    public LoggerConfig config() {
        return config;
    }

    public int rank() {
        return rank;
    }

    /**
     * Starts a dump of {@code entries} (the oldest of the log, copies done): asks the loggers for room,
     * round-robin from {@code rank mod K}, and hands the dump to the first that accepts (and, with two
     * replicas, to the next that accepts as well). Returns null if every logger declined.
     */
    public Dump startDump(List<LogEntry> entries) {
        if (entries.isEmpty()) {
            return null;
        }
        long payload = 0;
        long blockBytes = 4; // the end marker
        for (LogEntry e : entries) {
            payload += e.lengthBytes();
            blockBytes += LogBlockFormat.recordBytes(e.lengthBytes());
        }
        List<LoggerNode> targets = job.reserve(rank, blockBytes, config.replicas());
        if (targets.isEmpty()) {
            return null;
        }
        DumpedPayload[] payloads = new DumpedPayload[entries.size()];
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = new DumpedPayload(entries.get(i).key(), entries.get(i).lengthBytes(), this);
        }
        Dump dump = new Dump(entries, payloads, payload, targets.size());
        for (LoggerNode node : targets) {
            node.transfer(dump, blockBytes);
        }
        return dump;
    }

    /**
     * Takes a finished dump in: returns, per entry, its dumped form, or null for an entry no logger
     * stored (left the log meanwhile, or its loggers died before storing it: it stays in memory).
     * {@code destinations} are, per entry, the ranks of the frames that carry it (none: the index no
     * longer refers to it, so it is released at once).
     */
    public DumpedPayload[] takeIn(Dump dump, int[][] destinations, int[] references) {
        DumpedPayload[] out = new DumpedPayload[dump.payloads.length];
        synchronized (job.lock) {
            for (int i = 0; i < out.length; i++) {
                DumpedPayload p = dump.payloads[i];
                p.placements.removeIf(at -> !at.node().alive());
                if (p.placements.isEmpty()) {
                    continue;
                }
                p.destinations = destinations[i];
                p.references = references[i];
                p.attached = true;
                if (closed || p.references == 0) {
                    releaseLocked(p);
                    continue;
                }
                live.add(p);
                out[i] = p;
            }
        }
        long took = System.nanoTime() - dump.startedNanos;
        job.figures(rank).dumpDone(dump, took);
        if (io.rewind.ft.FlightRecording.started()) { // asked here: loading the event class would start JFR
            LogDumpEvent.emit(rank, dump.bytes(), took);
        }
        return out;
    }

    /** Every logger declined a dump: the log goes over the threshold (or, at the quota, over it). */
    public void declinedByAll() {
        job.figures(rank).declinedByAll();
    }

    /** The rank waited {@code nanos} at its quota for a dump to complete. */
    public void blocked(long nanos) {
        job.figures(rank).blocked(nanos);
    }

    /** A frame was logged over the quota by {@code excessBytes} (no logger could take anything). */
    public void overQuota(long excessBytes) {
        job.figures(rank).overQuota(excessBytes);
    }

    /** The rank's log reached {@code bytes} (its high-water mark): kept for the run record. */
    public void peakLog(long bytes) {
        job.figures(rank).peakLog(bytes);
    }

    /**
     * Copies a dumped payload into {@code destination}, from the first of its loggers still alive.
     *
     * @throws LostPayloadException if every logger that held it died
     */
    public void read(DumpedPayload p, MemorySegment destination, long offset) {
        synchronized (job.lock) {
            for (DumpedPayload.Placement at : p.placements) {
                if (at.node().alive()) {
                    at.node().read(at, p.lengthBytes(), destination, offset);
                    job.figures(rank).replayedFromLogger(p.lengthBytes());
                    return;
                }
            }
        }
        throw new LostPayloadException("rank " + rank + " cannot replay " + p.key() + ": every logger that held it"
                + " died (the sender should have rolled back with its receiver)");
    }

    /**
     * Stores one message straight from {@code source} at a logger, on the calling thread (a message
     * longer than the quota, which the rank's log could never hold). Null if every logger declined.
     */
    public DumpedPayload storeNow(
            MessageKey key, MemorySegment source, long offset, long lengthBytes, int destination) {
        long blockBytes = LogBlockFormat.recordBytes(lengthBytes) + 4;
        List<LoggerNode> targets = job.reserve(rank, blockBytes, config.replicas());
        if (targets.isEmpty()) {
            declinedByAll();
            return null;
        }
        byte[] data = new byte[Math.toIntExact(blockBytes)];
        MemorySegment block = MemorySegment.ofArray(data);
        LogBlockFormat.writeWholeMessageHeader(block, 0, key, lengthBytes);
        MemorySegment.copy(source, offset, block, LogBlockFormat.HEADER_BYTES, lengthBytes);
        LogBlockFormat.writeEnd(block, LogBlockFormat.recordBytes(lengthBytes));
        int crc = LogBlockFormat.checksum(block);
        DumpedPayload p = new DumpedPayload(key, lengthBytes, this);
        synchronized (job.lock) {
            for (LoggerNode node : targets) {
                node.storeBuilt(data, crc, blockBytes, p, LogBlockFormat.HEADER_BYTES);
            }
            if (p.placements.isEmpty()) {
                return null;
            }
            p.destinations = new int[] {destination};
            p.references = 1;
            p.attached = true;
            live.add(p);
        }
        job.figures(rank).directStore(lengthBytes);
        return p;
    }

    private volatile java.util.function.LongSupplier peakSource;

    /** Where the rank's log high-water mark can be read while it runs (for the run record). */
    public void peakSource(java.util.function.LongSupplier source) {
        this.peakSource = source;
    }

    /** The rank's log high-water mark now (0 if it cannot be read any more). */
    long currentPeak() {
        java.util.function.LongSupplier s = peakSource;
        if (s == null || closed) {
            return 0;
        }
        try {
            return s.getAsLong();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** Reads a dumped payload into a new array. */
    public byte[] readToArray(DumpedPayload p) {
        byte[] out = new byte[Math.toIntExact(p.lengthBytes())];
        read(p, MemorySegment.ofArray(out), 0);
        return out;
    }

    boolean reference(DumpedPayload p) {
        synchronized (job.lock) {
            if (p.released) {
                return false;
            }
            p.references++;
            return true;
        }
    }

    boolean isReleased(DumpedPayload p) {
        synchronized (job.lock) {
            return p.released;
        }
    }

    void unreference(DumpedPayload p) {
        synchronized (job.lock) {
            if (--p.references <= 0) {
                releaseLocked(p);
                live.remove(p);
            }
        }
    }

    /** Lock held. */
    private void releaseLocked(DumpedPayload p) {
        if (p.released) {
            return;
        }
        p.released = true;
        for (DumpedPayload.Placement at : p.placements) {
            at.node().release(at);
        }
        job.released(p);
    }

    /** The incarnation ended (crashed, rolled back, or the job ended): its dumps are released. */
    public void close() {
        synchronized (job.lock) {
            closed = true;
            for (DumpedPayload p : new ArrayList<>(live)) {
                releaseLocked(p);
            }
            live.clear();
        }
    }
}
