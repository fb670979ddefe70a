package io.rewind.ft.log;

import io.rewind.notice.RuntimeNotices;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * One rank's sender-based payload log: a copy of every message the rank sent, kept until the
 * receiver's checkpoint (or a recovery line) makes it obsolete, so that a restarted receiver can
 * be sent again what it had received before it crashed. Every logging protocol of the {@code ft}
 * layer keeps its copies here.
 *
 * <h2>What the engine does with it</h2>
 *
 * <ol>
 *   <li>At send time, {@link #append(MessageKey, MemorySegment, long, long)} (the configured
 *       {@link HybridCopyPolicy} picks the copy method) or {@link #append(MessageKey,
 *       MemorySegment, long, long, CopyMethod)}.
 *   <li>While transferring: for a {@link CopyMethod#PIPELINED} entry, transfer through
 *       {@link PipelinedCopier#transferAndLog}; otherwise transfer as usual.
 *   <li>Before completing the send request: {@link LogEntry#awaitCopy()} (or poll {@link
 *       LogEntry#isCopyDone()}). Only then may the application reuse its buffer.
 *   <li>When a receiver checkpoints: {@link #truncate(Channel, long)}; when a recovery line makes
 *       everything obsolete: {@link #truncateAll()}. Memory goes back to the backend at once.
 *   <li>On a peer's failure: {@link #entries(Channel, long, long)} and {@link
 *       LogEntry#readPayload(MemorySegment, long)} to send the messages again in order.
 * </ol>
 *
 * <h2>Threading</h2>
 *
 * Each rank owns its log; only that rank's threads and the log's own copier thread touch it. Any
 * number of the rank's threads may append, truncate, list and read concurrently (an {@code
 * MPI_THREAD_MULTIPLE} rank is supported): the index, accounting and block bookkeeping are guarded
 * by one lock held only for bookkeeping. Pack copies of at most {@value #INLINE_COPY_MAX_BYTES}
 * bytes run under it; every other copy, and every read, runs outside it, holding a use count on
 * the blocks it touches so those cannot be freed or unmapped underneath it. Per channel, sequence numbers must be unique
 * but may be appended out of order by concurrent senders. The quota listener runs on the
 * appending thread, outside the lock. {@link #close()} must be called once no other thread uses the
 * log; it first lets queued helper copies finish, then frees all storage.
 */
public final class PayloadLog implements AutoCloseable {

    /**
     * Pack copies up to this size run under the lock: up to a few microseconds of copying, holding the
     * lock (which only the rank's own threads take) costs less than a second lock round trip and the
     * use counts that let a copy run outside it.
     */
    static final long INLINE_COPY_MAX_BYTES = 16 << 10;

    private final int rank;
    private final PayloadLogConfig config;
    private final HybridCopyPolicy policy;
    private final QuotaListener quotaListener;
    private final LongSupplier nanoClock;
    private final long openedNanos;
    private final ReentrantLock lock = new ReentrantLock();

    private final Appender primary;
    /** The mapped-file appender of a hybrid log, else null. */
    private final Appender spill;

    private final Map<Channel, ChannelIndex> channels = new HashMap<>();
    /**
     * The channels appended to recently, one per slot by a hash of the channel: a rank's sends go round
     * a few peers (a collective, a halo exchange), and finding the channel here takes no allocation and
     * no record hashing, where the map above costs both on every append. Channels are never removed
     * from the map, so a slot is never stale.
     */
    private final ChannelIndex[] recentIndexes = new ChannelIndex[RECENT_SLOTS];

    private static final int RECENT_SLOTS = 64;

    private final ArrayDeque<LogEntry> sendOrder = new ArrayDeque<>();
    private final List<StorageBlock> retiredScratch = new ArrayList<>();
    private int truncatedInSendOrder;
    private volatile HelperThreadCopier copier;
    private boolean closed;
    /** Leases not yet released: the storage is freed at {@link #close} only once there are none. */
    private int leases;

    private long entries;
    private long payloadBytes;
    private long highWaterPayloadBytes;
    private long highWaterStorageBytes;
    private long appendedEntries;
    private long appendedBytes;
    private long truncatedEntries;
    private long truncatedBytes;
    private boolean overQuota;
    /** Whether an append happened since the last truncation: the next truncation ends an interval. */
    private boolean appendedSinceTruncation;

    private PayloadLog(
            int rank,
            PayloadLogConfig config,
            QuotaListener quotaListener,
            LongSupplier nanoClock,
            LogFileOpener fileOpener) {
        this.rank = rank;
        this.config = config;
        this.policy = config.copyPolicy();
        this.quotaListener = quotaListener;
        this.nanoClock = nanoClock;
        this.openedNanos = nanoClock.getAsLong();
        String filePrefix = "rewind-payload-rank" + rank + "-";
        this.primary = switch (config.backend()) {
            case OFF_HEAP, HYBRID -> offHeap(rank, config);
            case MAPPED_FILE -> mapped(config, filePrefix, fileOpener);
            case DUMMY -> new DummyAppender(new DummyBlockSource());
        };
        this.spill = config.backend() == StorageBackend.HYBRID ? mapped(config, filePrefix, fileOpener) : null;
    }

    private static Appender offHeap(int rank, PayloadLogConfig config) {
        OffHeapBlockSource blocks = new OffHeapBlockSource(
                config.blockBytes(),
                config.spareBlocks(),
                config.spareLimitBytes(),
                config.offHeapLimitBytes(),
                config.hugePages(),
                config.prepareAhead(),
                config.reserveBytes());
        if (config.reserveBytes() > 0) {
            long reserved = blocks.reserve();
            if (reserved < config.reserveBytes()) {
                // Said, not thrown: the log works without its reserve, only slower while it grows.
                RuntimeNotices.print(String.format(
                        java.util.Locale.ROOT,
                        "rewind: rank %d: payload log reserve cut to %d MiB of the %d MiB asked: the machine "
                                + "has %d MiB available, and a reserve leaves at least %d MiB to the rest",
                        rank,
                        reserved >> 20,
                        config.reserveBytes() >> 20,
                        Math.max(0, SystemMemory.availableBytes()) >> 20,
                        OffHeapBlockSource.reserveMarginBytes() >> 20));
            }
        }
        return new BlockAppender(blocks, config.blockBytes());
    }

    private static Appender mapped(PayloadLogConfig config, String filePrefix, LogFileOpener opener) {
        return new BlockAppender(
                new MappedFileBlockSource(
                        config.mappedDirectory(),
                        filePrefix,
                        config.mappedWindowBytes(),
                        config.mappedFileLimitBytes(),
                        opener),
                config.mappedWindowBytes());
    }

    /**
     * Opens an empty log for {@code rank}.
     *
     * @param quotaListener told about appends that leave the log over {@code config.quotaBytes()};
     *     required when a quota is configured, since a quota nobody hears about would be silently
     *     ignored
     */
    public static PayloadLog open(int rank, PayloadLogConfig config, QuotaListener quotaListener) {
        return open(rank, config, quotaListener, System::nanoTime, LogFileOpener.DEFAULT);
    }

    /** Opens an empty log for {@code rank} without a quota. */
    public static PayloadLog open(int rank, PayloadLogConfig config) {
        return open(rank, config, null);
    }

    static PayloadLog open(
            int rank,
            PayloadLogConfig config,
            QuotaListener quotaListener,
            LongSupplier nanoClock,
            LogFileOpener fileOpener) {
        Objects.requireNonNull(config, "config");
        if (rank < 0) {
            throw new IllegalArgumentException("rank must be >= 0, got " + rank);
        }
        if (quotaListener == null && config.quotaBytes() != PayloadLogConfig.UNLIMITED) {
            throw new IllegalArgumentException(
                    "quotaBytes=" + config.quotaBytes() + " is set but no QuotaListener was given");
        }
        return new PayloadLog(rank, config, quotaListener, nanoClock, fileOpener);
    }

    public int rank() {
        return rank;
    }

    public PayloadLogConfig config() {
        return config;
    }

    public HybridCopyPolicy policy() {
        return policy;
    }

    /** Appends with the copy method the configured policy picks for this size. */
    public LogEntry append(MessageKey key, MemorySegment source, long sourceOffset, long lengthBytes) {
        return append(key, source, sourceOffset, lengthBytes, policy.methodFor(lengthBytes));
    }

    /**
     * Logs {@code lengthBytes} of {@code source} from {@code sourceOffset} under {@code key}.
     *
     * <p>The source may be any segment (heap arrays of any primitive type, native memory). A
     * helper-thread copy reads it after this call returns, so it must stay valid and unchanged until
     * the entry's copy is done, which the MPI rule "do not touch a send buffer before the request
     * completes" already guarantees; a source confined to the calling thread, which the copier could
     * not read, is packed instead.
     *
     * @return the entry, which is also the completion of its copy
     * @throws IllegalArgumentException if the sequence number is already logged or already truncated
     * @throws IndexOutOfBoundsException if the range lies outside {@code source}
     * @throws PayloadLogException if storage could not be obtained (nothing is logged then), or a
     *     pack copy failed (the entry stays in the log, marked failed)
     */
    public LogEntry append(
            MessageKey key, MemorySegment source, long sourceOffset, long lengthBytes, CopyMethod method) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(method, "method");
        Objects.checkFromIndexSize(sourceOffset, lengthBytes, source.byteSize());
        CopyMethod effective = method;
        HelperThreadCopier helper = null;
        if (lengthBytes == 0) {
            effective = CopyMethod.PACK;
        } else if (method == CopyMethod.HELPER_THREAD) {
            helper = copier();
            if (!source.isAccessibleBy(helper.thread())) {
                effective = CopyMethod.PACK;
            }
        }
        boolean inline = effective == CopyMethod.PACK && lengthBytes <= INLINE_COPY_MAX_BYTES;

        LogEntry entry;
        QuotaEvent quotaEvent = null;
        lock.lock();
        try {
            ensureOpen();
            ChannelIndex index = indexFor(key);
            index.checkInsertable(key.sequence());
            Appender appender = spill != null && policy.prefersMappedFile(lengthBytes) ? spill : primary;
            Extent[] extents;
            try {
                extents = appender.reserve(key, lengthBytes, retiredScratch);
            } catch (PayloadLogException e) {
                if (spill == null || appender == spill || e.reason() != PayloadLogException.Reason.STORAGE_EXHAUSTED) {
                    throw e;
                }
                // Memory first, file when memory runs out: the hybrid backend's whole point.
                appender = spill;
                extents = appender.reserve(key, lengthBytes, retiredScratch);
            }
            boolean retained = appender.retainsPayload();
            entry = inline
                    ? new LogEntry(this, key, lengthBytes, effective, extents, retained)
                    : new LogEntry(this, key, lengthBytes, effective, extents, retained, source, sourceOffset);
            for (Extent extent : extents) {
                StorageBlock block = extent.block();
                if (retained) {
                    block.liveEntries++;
                }
                if (!inline) {
                    block.users++;
                }
            }
            entry.holdsBlocks = !inline;
            if (inline) {
                entry.copyUnderLock(source, sourceOffset);
            }
            for (StorageBlock block : retiredScratch) {
                settle(block);
            }
            retiredScratch.clear();

            index.insert(entry);
            sendOrder.addLast(entry);
            entries++;
            payloadBytes += lengthBytes;
            appendedEntries++;
            appendedBytes += lengthBytes;
            appendedSinceTruncation = true;
            highWaterPayloadBytes = Math.max(highWaterPayloadBytes, payloadBytes);
            highWaterStorageBytes = Math.max(highWaterStorageBytes, storageBytes());
            boolean wasOverQuota = overQuota;
            overQuota = payloadBytes > config.quotaBytes();
            if (overQuota) {
                quotaEvent =
                        new QuotaEvent(rank, payloadBytes, config.quotaBytes(), storageBytes(), key, !wasOverQuota);
            }
        } finally {
            retiredScratch.clear();
            lock.unlock();
        }

        try {
            switch (effective) {
                case PACK -> {
                    if (inline) {
                        if (entry.copyFailed()) {
                            entry.awaitCopy(); // throws COPY_FAILED with the cause
                        }
                    } else {
                        entry.copyAllAndThrow();
                    }
                }
                case PIPELINED -> {} // the transfer drives it, or awaitCopy() finishes it
                case HELPER_THREAD -> helper.submit(entry::runOnHelper);
            }
        } finally {
            if (quotaEvent != null) {
                quotaListener.onQuotaExceeded(quotaEvent);
            }
        }
        return entry;
    }

    /** The copier, started if need be (tests use it to hold the copier back deterministically). */
    HelperThreadCopier helperCopier() {
        return copier();
    }

    private ChannelIndex indexFor(MessageKey key) {
        int slot = recentSlot(key.contextId(), key.source(), key.destination());
        ChannelIndex recent = recentIndexes[slot];
        if (recent != null && recent.matches(key)) {
            return recent;
        }
        ChannelIndex index = channels.computeIfAbsent(key.channel(), ChannelIndex::new);
        recentIndexes[slot] = index;
        return index;
    }

    private static int recentSlot(int contextId, int source, int destination) {
        long packed = ((long) contextId << 32) ^ ((long) source << 16) ^ (destination & 0xffffffffL);
        return (int) ((packed * 0x9E3779B97F4A7C15L) >>> (Long.SIZE - Integer.numberOfTrailingZeros(RECENT_SLOTS)));
    }

    private HelperThreadCopier copier() {
        HelperThreadCopier existing = copier;
        if (existing != null) {
            return existing;
        }
        lock.lock();
        try {
            ensureOpen();
            if (copier == null) {
                copier = new HelperThreadCopier("rewind-payload-copier-rank-" + rank);
            }
            return copier;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The live entries of {@code channel} with sequence numbers in the given range, in sequence
     * order. A snapshot: later appends and truncations do not change the returned list.
     */
    public List<LogEntry> entries(Channel channel, long fromSequenceInclusive, long toSequenceInclusive) {
        Objects.requireNonNull(channel, "channel");
        lock.lock();
        try {
            ensureOpen();
            ChannelIndex index = channels.get(channel);
            return index == null ? List.of() : index.range(fromSequenceInclusive, toSequenceInclusive);
        } finally {
            lock.unlock();
        }
    }

    /** All live entries in the order they were appended (send order). A snapshot. */
    public List<LogEntry> entriesInSendOrder() {
        lock.lock();
        try {
            ensureOpen();
            List<LogEntry> out = new ArrayList<>((int) entries);
            for (LogEntry entry : sendOrder) {
                if (!entry.truncated) {
                    out.add(entry);
                }
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The oldest live entries in send order whose copy is done, up to {@code maxBytes} of payload (at
     * least one entry if any qualifies): what a dump to a logger node takes. Stops at the first entry
     * still being copied, so the result is a prefix of the send order.
     */
    public List<LogEntry> oldestEntries(long maxBytes) {
        lock.lock();
        try {
            ensureOpen();
            List<LogEntry> out = new ArrayList<>();
            long bytes = 0;
            for (LogEntry entry : sendOrder) {
                if (entry.truncated) {
                    continue;
                }
                if (!entry.isCopyDone() || (!out.isEmpty() && bytes + entry.lengthBytes() > maxBytes)) {
                    break;
                }
                out.add(entry);
                bytes += entry.lengthBytes();
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes live entries out of the log because their payload is now kept elsewhere (a logger node):
     * their memory goes back as for truncation, but the channels are not marked obsolete. Entries no
     * longer live are ignored.
     *
     * @return payload bytes released
     */
    public long evict(List<LogEntry> evicted) {
        lock.lock();
        try {
            ensureOpen();
            long released = 0;
            for (LogEntry entry : evicted) {
                if (entry.truncated || entry.log() != this) {
                    continue;
                }
                ChannelIndex index = channels.get(entry.key().channel());
                if (index == null || !index.remove(entry)) {
                    continue;
                }
                released += entry.lengthBytes();
                evictedEntries++;
                evictedBytes += entry.lengthBytes();
                entry.truncated = true;
                entries--;
                payloadBytes -= entry.lengthBytes();
                truncatedInSendOrder++;
                if (entry.retained) {
                    releaseLiveEntry(entry);
                }
            }
            sweepSendOrder();
            return released;
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@code entry} is still held (neither truncated nor evicted). */
    boolean isLive(LogEntry entry) {
        lock.lock();
        try {
            return !closed && !entry.truncated;
        } finally {
            lock.unlock();
        }
    }

    private long evictedEntries;
    private long evictedBytes;

    /** Payload bytes taken out of the log by {@link #evict} since it was opened. */
    public long evictedBytes() {
        lock.lock();
        try {
            return evictedBytes;
        } finally {
            lock.unlock();
        }
    }

    /** Channels that have ever been appended to or truncated. */
    public Set<Channel> channels() {
        lock.lock();
        try {
            return Set.copyOf(channels.keySet());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Drops the entries of {@code channel} up to {@code upToSequenceInclusive}: the receiver has
     * checkpointed past them. Later appends of sequence numbers in that range are rejected. Blocks
     * left without live entries go back to the backend now (or as soon as copies still writing into
     * them, or reads still copying out of them, finish).
     *
     * @return the number of entries dropped
     */
    public long truncate(Channel channel, long upToSequenceInclusive) {
        Objects.requireNonNull(channel, "channel");
        lock.lock();
        try {
            ensureOpen();
            ChannelIndex index = channels.computeIfAbsent(channel, ChannelIndex::new);
            long before = truncatedEntries;
            index.removeUpTo(upToSequenceInclusive, this::drop);
            afterTruncation();
            return truncatedEntries - before;
        } finally {
            lock.unlock();
        }
    }

    /** Drops every entry of every channel (a new recovery line makes them all obsolete). */
    public long truncateAll() {
        lock.lock();
        try {
            ensureOpen();
            long before = truncatedEntries;
            for (ChannelIndex index : channels.values()) {
                index.removeUpTo(index.lastSequence(), this::drop);
            }
            afterTruncation();
            return truncatedEntries - before;
        } finally {
            lock.unlock();
        }
    }

    private void drop(LogEntry entry) {
        entry.truncated = true;
        entries--;
        payloadBytes -= entry.lengthBytes();
        truncatedEntries++;
        truncatedBytes += entry.lengthBytes();
        truncatedInSendOrder++;
        if (entry.retained) {
            releaseLiveEntry(entry);
        }
    }

    private void afterTruncation() {
        if (appendedSinceTruncation) {
            appendedSinceTruncation = false;
            primary.source().onIntervalEnd();
            if (spill != null) {
                spill.source().onIntervalEnd();
            }
        }
        sweepSendOrder();
    }

    /** Drops gone entries from the head of the send order, and sweeps them all once they are many. */
    private void sweepSendOrder() {
        while (!sendOrder.isEmpty() && sendOrder.peekFirst().truncated) {
            sendOrder.pollFirst();
            truncatedInSendOrder--;
        }
        // Entries truncated out of send order (another channel still holds older ones) are skipped
        // lazily, and swept once they are the majority so the deque does not grow without bound.
        if (truncatedInSendOrder > 64 && truncatedInSendOrder * 2 > sendOrder.size()) {
            sendOrder.removeIf(entry -> entry.truncated);
            truncatedInSendOrder = 0;
        }
        overQuota = payloadBytes > config.quotaBytes();
    }

    /** Accounting snapshot. */
    public LogStatistics statistics() {
        lock.lock();
        try {
            Map<Channel, ChannelStatistics> perChannel = new HashMap<>();
            channels.forEach((channel, index) -> perChannel.put(channel, index.statistics()));
            return new LogStatistics(
                    entries,
                    payloadBytes,
                    storageBytes(),
                    spareStorageBytes(),
                    readyStorageBytes(),
                    mappedBytes(),
                    highWaterPayloadBytes,
                    highWaterStorageBytes,
                    appendedEntries,
                    appendedBytes,
                    truncatedEntries,
                    truncatedBytes,
                    nanoClock.getAsLong() - openedNanos,
                    perChannel);
        } finally {
            lock.unlock();
        }
    }

    /** Accounting of one channel (all zero for a channel never used). */
    public ChannelStatistics statistics(Channel channel) {
        lock.lock();
        try {
            ChannelIndex index = channels.get(channel);
            return index == null ? new ChannelStatistics(0, 0, 0, 0, 0) : index.statistics();
        } finally {
            lock.unlock();
        }
    }

    private long storageBytes() {
        return primary.source().inUseBytes()
                + (spill == null ? 0 : spill.source().inUseBytes());
    }

    private long spareStorageBytes() {
        return primary.source().spareBytes()
                + (spill == null ? 0 : spill.source().spareBytes());
    }

    private long readyStorageBytes() {
        return primary.source().readyBytes()
                + (spill == null ? 0 : spill.source().readyBytes());
    }

    private long mappedBytes() {
        return primary.source().mappedBytes()
                + (spill == null ? 0 : spill.source().mappedBytes());
    }

    /** The mapped log file, or null if none was created yet (tests and diagnostics). */
    Path mappedFile() {
        lock.lock();
        try {
            Appender fileAppender = spill != null ? spill : primary;
            return fileAppender.source() instanceof MappedFileBlockSource mapped ? mapped.file() : null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Frees all storage and deletes the mapped file. Helper copies already queued finish first; the
     * entries become unreadable.
     */
    @Override
    public void close() {
        HelperThreadCopier toStop;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            toStop = copier;
        } finally {
            lock.unlock();
        }
        if (toStop != null) {
            toStop.close();
        }
        lock.lock();
        try {
            if (leases == 0) {
                closeSources();
            } // else: the last lease released frees the storage
        } finally {
            lock.unlock();
        }
    }

    /** Lock held. */
    private void closeSources() {
        primary.source().close();
        if (spill != null) {
            spill.source().close();
        }
    }

    /**
     * The payload of a live entry as views of the log's own memory, for a transport to write from
     * (its staging copy then is the log copy). The blocks stay where they are until the lease is
     * released, even if the entry is truncated or the log closed meanwhile.
     *
     * @return null if the payload cannot be read in place: its copy is not finished, the backend keeps
     *     no payloads, the entry is gone, or a fragment lies in a window of the file not mapped now
     */
    public LogLease lease(LogEntry entry) {
        if (!entry.isCopyDone() || entry.copyFailed()) {
            return null;
        }
        lock.lock();
        try {
            if (closed || !entry.retained || entry.truncated) {
                return null;
            }
            ByteBuffer[] buffers = new ByteBuffer[entry.extentCount()];
            long next = 0;
            for (int i = 0; i < buffers.length; i++) {
                Extent extent = entry.extent(i);
                MemorySegment segment = extent.block().segment;
                if (segment == null || extent.messageOffsetBytes() != next) {
                    return null;
                }
                buffers[i] = segment.asSlice(extent.offsetBytes(), extent.lengthBytes())
                        .asByteBuffer();
                next += extent.lengthBytes();
            }
            holdBlocks(entry);
            leases++;
            return new LogLease(this, entry, buffers);
        } finally {
            lock.unlock();
        }
    }

    /** A lease of {@code entry} was released: its blocks may move along their life cycle again. */
    void endLease(LogEntry entry) {
        lock.lock();
        try {
            releaseBlocks(entry);
            if (--leases == 0 && closed) {
                closeSources();
            }
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new PayloadLogException(
                    PayloadLogException.Reason.CLOSED, "the payload log of rank " + rank + " is closed");
        }
    }

    // ---- block life cycle (lock held) ----------------------------------------------------------

    /**
     * Moves a block along its life cycle once nothing is happening in it: freed when it holds no
     * live entry (or rewound, if it is the block being filled), unmapped when it is a retired window
     * that still holds entries.
     */
    private void settle(StorageBlock block) {
        if (block.released || block.users > 0) {
            return;
        }
        if (block.liveEntries == 0) {
            if (block.retired) {
                block.source.release(block);
            } else if (block.fillBytes > 0) {
                block.fillBytes = 0;
                LogBlockFormat.writeEnd(block.segment, 0);
            }
            return;
        }
        if (block.retired) {
            block.source.onRetiredAndIdle(block);
        }
    }

    /** A use count on each block of the entry: none of them moves while it is held. Lock held. */
    private void holdBlocks(LogEntry entry) {
        for (int i = 0, n = entry.extentCount(); i < n; i++) {
            entry.block(i).users++;
        }
    }

    /** Drops the use counts {@link #holdBlocks} took, and moves each block along if it is idle now. Lock held. */
    private void releaseBlocks(LogEntry entry) {
        for (int i = 0, n = entry.extentCount(); i < n; i++) {
            StorageBlock block = entry.block(i);
            block.users--;
            if (!closed) {
                settle(block);
            }
        }
    }

    /** The entry leaves the log: its blocks hold one live entry fewer, and move along if idle. Lock held. */
    private void releaseLiveEntry(LogEntry entry) {
        for (int i = 0, n = entry.extentCount(); i < n; i++) {
            StorageBlock block = entry.block(i);
            block.liveEntries--;
            settle(block);
        }
    }

    /** A copy finished (or failed): drop its use counts. */
    void onCopyFinished(LogEntry entry) {
        if (!entry.holdsBlocks) {
            return;
        }
        lock.lock();
        try {
            entry.holdsBlocks = false;
            releaseBlocks(entry);
        } finally {
            lock.unlock();
        }
    }

    /** Copies a live entry's payload out, holding use counts so the blocks stay put meanwhile. */
    void readInto(LogEntry entry, MemorySegment destination, long destinationOffset) {
        lock.lock();
        try {
            ensureOpen();
            if (!entry.retained) {
                throw new PayloadLogException(
                        PayloadLogException.Reason.PAYLOAD_UNAVAILABLE,
                        "the " + config.backend() + " backend keeps no payloads (" + entry.key() + ")");
            }
            if (entry.truncated) {
                throw new PayloadLogException(
                        PayloadLogException.Reason.PAYLOAD_UNAVAILABLE,
                        entry.key() + " was truncated; its payload is gone");
            }
            holdBlocks(entry);
        } finally {
            lock.unlock();
        }
        try (Arena scratch = Arena.ofConfined()) {
            for (int i = 0, n = entry.extentCount(); i < n; i++) {
                Extent extent = entry.extent(i);
                MemorySegment view = extent.block().source.readView(extent.block(), scratch);
                MemorySegment.copy(
                        view,
                        extent.offsetBytes(),
                        destination,
                        destinationOffset + extent.messageOffsetBytes(),
                        extent.lengthBytes());
            }
        } finally {
            lock.lock();
            try {
                releaseBlocks(entry);
            } finally {
                lock.unlock();
            }
        }
    }
}
