package io.rewind.launch;

import io.rewind.ft.logger.Dump;
import io.rewind.ft.logger.DumpBlock;
import io.rewind.ft.logger.DumpedPayload;
import io.rewind.ft.logger.LoggerNode;
import io.rewind.ft.logger.LoggerNodes;
import io.rewind.ft.logger.LostPayloadException;
import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A logger process as a rank process's {@link LoggerNodes} sees it: requests over one authenticated
 * link, opened on first use. A dump is built and sent by this node's own thread ({@code
 * rewind-dump-to-logger-N}), so the rank computes meanwhile; releases are sent in batches before the
 * next request. The link closing (the process died) makes the node dead at once. Guarded by the
 * {@link LoggerNodes} lock, except the dump thread's copy and send.
 */
final class RemoteLoggerNode implements LoggerNode {
    private static final long ANSWER_MILLIS = TimeUnit.SECONDS.toMillis(60);

    private final int index;
    private final Messages.LoggerAt at;
    private final JobSecret secret;
    private final String name;
    private final LoggerNodes job;

    /** The thread that builds and sends this node's dumps, {@code rewind-dump-to-logger-N}. */
    private final ExecutorService dumps;

    // Guarded by the job's lock.
    private boolean dead;
    private Link link;
    private Requests requests;
    /** Per block this rank stored there, the payloads it holds (what a death loses). */
    private final Map<Long, List<DumpedPayload>> held = new HashMap<>();
    /** Releases not sent yet, per block. */
    private final Map<Long, Integer> releases = new HashMap<>();

    RemoteLoggerNode(int index, Messages.LoggerAt at, JobSecret secret, String owner, LoggerNodes job) {
        this.index = index;
        this.at = at;
        this.secret = secret;
        this.name = owner + "-logger-" + index;
        this.job = job;
        this.dumps = Executors.newSingleThreadExecutor(Thread.ofPlatform()
                .name("rewind-dump-to-logger-" + index)
                .daemon(true)
                .factory());
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public boolean alive() {
        return !dead;
    }

    /** Lock held: the requests of an open link, opened if need be; null if the logger is dead. */
    private Requests requests() {
        if (dead) {
            return null;
        }
        if (requests == null) {
            try {
                Link opened = Link.connect(
                        new InetSocketAddress(at.host(), at.port()), secret, name, Link.STORAGE_MESSAGE_BYTES);
                Requests r = new Requests(opened);
                opened.startReader(
                        m -> {
                            if (m instanceof Messages.Answer a) {
                                r.answered(a);
                            }
                        },
                        why -> {
                            r.closed(why);
                            job.died(this, "its process is gone (" + why + ")");
                        });
                link = opened;
                requests = r;
            } catch (IOException e) {
                job.died(this, "cannot be reached (" + e.getMessage() + ")");
                return null;
            }
        }
        return requests;
    }

    /** Lock held: sends a request and waits for its answer; null if the logger is (now) dead. */
    private Object call(java.io.Serializable body) {
        Requests r = requests();
        if (r == null) {
            return null;
        }
        try {
            return r.call(body, ANSWER_MILLIS);
        } catch (Requests.LinkClosedException e) {
            job.died(this, "its process is gone");
            return null;
        }
    }

    @Override
    public boolean reserve(long bytes) {
        flushReleases();
        return Boolean.TRUE.equals(call(new Messages.ReserveLog(bytes)));
    }

    @Override
    public void transfer(Dump dump, long blockBytes) {
        try {
            dumps.execute(() -> send(dump, blockBytes));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            dump.partDone(); // the job is over: nothing will store it, and nobody may wait for it
        }
    }

    /** On the dump thread: builds the block from the rank's log, sends it, records where it went. */
    private void send(Dump dump, long blockBytes) {
        try {
            DumpBlock block = DumpBlock.build(dump, blockBytes);
            Requests r;
            synchronized (lockOf()) {
                r = requests();
            }
            if (r == null) {
                return;
            }
            Object id;
            try {
                id = r.call(
                        new Messages.StoreBlock(blockBytes, block.data(), block.crc(), block.messages()),
                        ANSWER_MILLIS);
            } catch (IllegalStateException e) {
                job.died(this, "its process is gone (" + e.getMessage() + ")");
                return;
            }
            if (!(id instanceof Long blockId) || blockId == 0) {
                return; // nothing of the dump was left to keep
            }
            List<DumpedPayload> payloads = job.stored(this, dump, block, blockId);
            synchronized (lockOf()) {
                if (!dead && !payloads.isEmpty()) {
                    held.put(blockId, new ArrayList<>(payloads));
                }
            }
        } finally {
            dump.partDone();
        }
    }

    /** The lock the job's bookkeeping is guarded by (its loggers' registry). */
    private Object lockOf() {
        return job.lock();
    }

    @Override
    public void storeBuilt(byte[] data, int crc, long reserved, DumpedPayload payload, long payloadOffset) {
        Object id = call(new Messages.StoreBlock(reserved, data, crc, 1));
        if (id instanceof Long blockId && !dead) {
            payload.addPlacement(this, blockId, payloadOffset);
            held.put(blockId, new ArrayList<>(List.of(payload)));
        }
    }

    /**
     * Copies a payload from the logger. A replay reads a channel's messages in order, and consecutive
     * ones were mostly dumped together: the whole block comes over once and the next reads are served
     * from it, one round trip per block rather than per message.
     */
    @Override
    public void read(DumpedPayload.Placement where, long lengthBytes, MemorySegment destination, long offset) {
        if (cachedBlock == null || cachedBlockId != where.blockId()) {
            Object bytes;
            try {
                bytes = call(new Messages.ReadBlock(where.blockId(), 0, -1));
            } catch (IllegalStateException e) {
                if (e.getMessage() != null && e.getMessage().contains("integrity check")) {
                    throw e;
                }
                throw new LostPayloadException("logger " + index + ": " + e.getMessage());
            }
            if (!(bytes instanceof byte[] b)) {
                throw new LostPayloadException("logger " + index + " died");
            }
            cachedBlock = b;
            cachedBlockId = where.blockId();
        }
        MemorySegment.copy(MemorySegment.ofArray(cachedBlock), where.payloadOffset(), destination, offset, lengthBytes);
    }

    /** The block read last, kept for the reads that follow it (guarded by the job's lock). */
    private byte[] cachedBlock;

    private long cachedBlockId;

    @Override
    public void release(DumpedPayload.Placement where) {
        releases.merge(where.blockId(), 1, Integer::sum);
        if (cachedBlockId == where.blockId()) {
            cachedBlock = null;
        }
        List<DumpedPayload> list = held.get(where.blockId());
        if (list != null && releases.get(where.blockId()) >= list.size()) {
            held.remove(where.blockId());
        }
        if (releases.size() >= 256) {
            flushReleases();
        }
    }

    /** Lock held: sends the releases gathered so far (one message, no answer awaited). */
    private void flushReleases() {
        if (releases.isEmpty() || dead || requests == null) {
            return;
        }
        long[] ids = new long[releases.size()];
        int[] counts = new int[ids.length];
        int i = 0;
        for (Map.Entry<Long, Integer> e : releases.entrySet()) {
            ids[i] = e.getKey();
            counts[i++] = e.getValue();
        }
        releases.clear();
        requests.send(new Messages.ReleaseBlocks(ids, counts));
    }

    @Override
    public List<DumpedPayload> die() {
        dead = true;
        cachedBlock = null;
        List<DumpedPayload> out = new ArrayList<>();
        held.values().forEach(out::addAll);
        held.clear();
        releases.clear();
        if (link != null) {
            link.close();
        }
        return out;
    }

    @Override
    public void stop() {
        synchronized (lockOf()) {
            flushReleases();
        }
        dumps.shutdown();
    }

    @Override
    public Map<String, Object> record() {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("logger", index);
        m.put("state", dead ? "DEAD" : "RUNNING");
        return m;
    }
}
