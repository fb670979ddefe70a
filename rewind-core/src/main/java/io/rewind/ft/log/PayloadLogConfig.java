package io.rewind.ft.log;

import java.nio.file.Path;

/**
 * Everything that shapes one rank's payload log, validated once at construction. Sizes carry their
 * unit in the name; "no limit" is {@link Long#MAX_VALUE}.
 *
 * @param backend where payloads live
 * @param blockBytes size of one off-heap block; also the unit a logger node receives, so it is
 *     fixed for the life of the log (multiple of 4096, at most 1 GiB)
 * @param spareBlocks how many freed off-heap blocks are always kept for reuse instead of being
 *     returned to the system (reuse avoids re-faulting fresh pages after every checkpoint)
 * @param spareLimitBytes cap on the spare blocks kept beyond {@code spareBlocks} so that in-use plus
 *     spare blocks cover the off-heap high-water mark of the previous checkpoint interval (see
 *     {@link OffHeapBlockSource}); {@link #UNLIMITED} by default, since that memory was in use
 *     anyway, and 0 keeps only {@code spareBlocks}
 * @param offHeapLimitBytes hard limit on off-heap storage (in-use plus spare blocks); reaching it
 *     fails the append, or under {@link StorageBackend#HYBRID} spills to the mapped file
 * @param mappedDirectory directory for the mapped log file; required by {@code MAPPED_FILE} and
 *     {@code HYBRID}, created lazily by the first append that needs it
 * @param mappedWindowBytes size of one mapped window of the file (multiple of 4096, at most 1 GiB);
 *     longer messages span several windows
 * @param mappedFileLimitBytes largest size the mapped file may grow to
 * @param quotaBytes payload bytes above which every append reports to the {@link QuotaListener}
 * @param pipelineThresholdBytes messages at least this long use {@link CopyMethod#PIPELINED} when
 *     the hybrid policy chooses; shorter ones use {@link CopyMethod#PACK}
 * @param helperThreadThresholdBytes messages at least this long use {@link CopyMethod#HELPER_THREAD}
 *     when the hybrid policy chooses
 * @param pipelineChunkBytes chunk size of the pipelined copy
 * @param mappedFileThresholdBytes under {@code HYBRID}, messages at least this long go straight to
 *     the mapped file so that one huge message does not evict the application from memory
 * @param hugePages off-heap blocks beyond a log's first few are advised for transparent huge
 *     pages (see {@link OffHeapBlockSource}) where the platform allows it and {@code blockBytes} is
 *     a multiple of 2 MiB; elsewhere, or if the system refuses, they use small pages
 * @param prepareAhead off-heap blocks beyond a log's first few are faulted in ahead of the writer
 *     by a background thread (see {@link OffHeapBlockSource}); off, each block is faulted in by
 *     its first writes
 * @param reserveBytes off-heap memory faulted in when the log opens and kept for it while it is
 *     open (see {@link OffHeapBlockSource}): a log expected to grow that much between two
 *     checkpoints then never waits for new memory; 0 (the default) reserves nothing. Rounded up to
 *     whole blocks; needs an off-heap backend and at most {@code offHeapLimitBytes}
 * @param verifyReplays every logged message carries the digest of its identity and payload, which
 *     the log keeps beside it and its receiver keeps too: a replayed message is checked against it
 *     on arrival, and a send that a restarted rank re-executes and skips against its receiver's copy
 *     (see {@link io.rewind.engine.MessageDigests}); on by default
 */
public record PayloadLogConfig(
        StorageBackend backend,
        long blockBytes,
        int spareBlocks,
        long spareLimitBytes,
        long offHeapLimitBytes,
        Path mappedDirectory,
        long mappedWindowBytes,
        long mappedFileLimitBytes,
        long quotaBytes,
        long pipelineThresholdBytes,
        long helperThreadThresholdBytes,
        long pipelineChunkBytes,
        long mappedFileThresholdBytes,
        boolean hugePages,
        boolean prepareAhead,
        long reserveBytes,
        boolean verifyReplays) {

    public static final long PAGE_BYTES = 4096;
    static final long MAX_BLOCK_BYTES = 1L << 30;
    /** No limit, no quota, or "never" for a threshold. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    public PayloadLogConfig {
        if (backend == null) {
            throw new IllegalArgumentException("backend must be set");
        }
        requireBlockSize("blockBytes", blockBytes);
        requireBlockSize("mappedWindowBytes", mappedWindowBytes);
        if (spareBlocks < 0) {
            throw new IllegalArgumentException("spareBlocks must be >= 0, got " + spareBlocks);
        }
        if (spareLimitBytes < 0) {
            throw new IllegalArgumentException("spareLimitBytes must be >= 0, got " + spareLimitBytes);
        }
        if (offHeapLimitBytes < blockBytes) {
            throw new IllegalArgumentException("offHeapLimitBytes (" + offHeapLimitBytes
                    + ") must hold at least one block of blockBytes (" + blockBytes + ")");
        }
        if (mappedFileLimitBytes < mappedWindowBytes) {
            throw new IllegalArgumentException("mappedFileLimitBytes (" + mappedFileLimitBytes
                    + ") must hold at least one window of" + " mappedWindowBytes (" + mappedWindowBytes + ")");
        }
        boolean needsFile = backend == StorageBackend.MAPPED_FILE || backend == StorageBackend.HYBRID;
        if (needsFile && mappedDirectory == null) {
            throw new IllegalArgumentException("backend " + backend + " needs mappedDirectory");
        }
        if (quotaBytes <= 0) {
            throw new IllegalArgumentException("quotaBytes must be > 0, got " + quotaBytes);
        }
        if (pipelineThresholdBytes < 0 || helperThreadThresholdBytes < 0 || mappedFileThresholdBytes < 0) {
            throw new IllegalArgumentException("thresholds must be >= 0");
        }
        if (pipelineThresholdBytes > helperThreadThresholdBytes) {
            throw new IllegalArgumentException("pipelineThresholdBytes (" + pipelineThresholdBytes + ") must not exceed"
                    + " helperThreadThresholdBytes (" + helperThreadThresholdBytes + ")");
        }
        if (reserveBytes < 0) {
            throw new IllegalArgumentException("reserveBytes must be >= 0, got " + reserveBytes);
        }
        if (reserveBytes > 0 && backend != StorageBackend.OFF_HEAP && backend != StorageBackend.HYBRID) {
            throw new IllegalArgumentException("reserveBytes is memory for off-heap blocks; backend " + backend
                    + " has none (use off-heap or hybrid)");
        }
        if (reserveBytes > offHeapLimitBytes) {
            throw new IllegalArgumentException(
                    "reserveBytes (" + reserveBytes + ") exceeds offHeapLimitBytes (" + offHeapLimitBytes + ")");
        }
        if (pipelineChunkBytes < 64) {
            throw new IllegalArgumentException("pipelineChunkBytes must be >= 64, got " + pipelineChunkBytes);
        }
    }

    private static void requireBlockSize(String name, long bytes) {
        if (bytes < PAGE_BYTES || bytes > MAX_BLOCK_BYTES || bytes % PAGE_BYTES != 0) {
            throw new IllegalArgumentException(name + " must be a multiple of " + PAGE_BYTES + " between " + PAGE_BYTES
                    + " and " + MAX_BLOCK_BYTES + ", got " + bytes);
        }
    }

    /** The size-based choice of copy method and backend these thresholds describe. */
    public HybridCopyPolicy copyPolicy() {
        return new HybridCopyPolicy(
                pipelineThresholdBytes,
                helperThreadThresholdBytes,
                backend == StorageBackend.HYBRID ? mappedFileThresholdBytes : UNLIMITED);
    }

    /** A builder starting from the defaults for {@code backend}. */
    public static Builder builder(StorageBackend backend) {
        return new Builder(backend);
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return new Builder(backend)
                .blockBytes(blockBytes)
                .spareBlocks(spareBlocks)
                .spareLimitBytes(spareLimitBytes)
                .offHeapLimitBytes(offHeapLimitBytes)
                .mappedDirectory(mappedDirectory)
                .mappedWindowBytes(mappedWindowBytes)
                .mappedFileLimitBytes(mappedFileLimitBytes)
                .quotaBytes(quotaBytes)
                .pipelineThresholdBytes(pipelineThresholdBytes)
                .helperThreadThresholdBytes(helperThreadThresholdBytes)
                .pipelineChunkBytes(pipelineChunkBytes)
                .mappedFileThresholdBytes(mappedFileThresholdBytes)
                .hugePages(hugePages)
                .prepareAhead(prepareAhead)
                .reserveBytes(reserveBytes)
                .verifyReplays(verifyReplays);
    }

    /**
     * Defaults. Blocks of 2 MiB are one huge page each (a copy into a log that cycles through tens of
     * MiB then pays fewer TLB misses), keep the unused tail of the last block small and are a
     * reasonable unit to ship to a logger node; windows of 64 MiB amortise the cost of remapping
     * without reserving much address space. The copy thresholds are placeholders until {@code rewind
     * calibrate} has measured the machine (see docs/payload-log.md).
     */
    public static final class Builder {
        private final StorageBackend backend;
        private long blockBytes = 2L << 20;
        private int spareBlocks = 4;
        private long spareLimitBytes = UNLIMITED;
        private long offHeapLimitBytes = UNLIMITED;
        private Path mappedDirectory;
        private long mappedWindowBytes = 64L << 20;
        private long mappedFileLimitBytes = UNLIMITED;
        private long quotaBytes = UNLIMITED;
        private long pipelineThresholdBytes = 64L << 10;
        private long helperThreadThresholdBytes = 1L << 20;
        private long pipelineChunkBytes = 64L << 10;
        private long mappedFileThresholdBytes = UNLIMITED;
        private boolean hugePages = true;
        private boolean prepareAhead = true;
        private long reserveBytes;
        private boolean verifyReplays = true;

        private Builder(StorageBackend backend) {
            this.backend = backend;
        }

        public Builder blockBytes(long v) {
            blockBytes = v;
            return this;
        }

        public Builder spareBlocks(int v) {
            spareBlocks = v;
            return this;
        }

        public Builder spareLimitBytes(long v) {
            spareLimitBytes = v;
            return this;
        }

        public Builder offHeapLimitBytes(long v) {
            offHeapLimitBytes = v;
            return this;
        }

        public Builder mappedDirectory(Path v) {
            mappedDirectory = v;
            return this;
        }

        public Builder mappedWindowBytes(long v) {
            mappedWindowBytes = v;
            return this;
        }

        public Builder mappedFileLimitBytes(long v) {
            mappedFileLimitBytes = v;
            return this;
        }

        public Builder quotaBytes(long v) {
            quotaBytes = v;
            return this;
        }

        public Builder pipelineThresholdBytes(long v) {
            pipelineThresholdBytes = v;
            return this;
        }

        public Builder helperThreadThresholdBytes(long v) {
            helperThreadThresholdBytes = v;
            return this;
        }

        public Builder pipelineChunkBytes(long v) {
            pipelineChunkBytes = v;
            return this;
        }

        public Builder mappedFileThresholdBytes(long v) {
            mappedFileThresholdBytes = v;
            return this;
        }

        public Builder hugePages(boolean v) {
            hugePages = v;
            return this;
        }

        public Builder prepareAhead(boolean v) {
            prepareAhead = v;
            return this;
        }

        public Builder reserveBytes(long v) {
            reserveBytes = v;
            return this;
        }

        /** Whether logged messages carry digests that replays and re-executed sends are checked against. */
        public Builder verifyReplays(boolean v) {
            verifyReplays = v;
            return this;
        }

        /** Validates and builds; throws {@link IllegalArgumentException} naming the bad setting. */
        public PayloadLogConfig build() {
            return new PayloadLogConfig(
                    backend,
                    blockBytes,
                    spareBlocks,
                    spareLimitBytes,
                    offHeapLimitBytes,
                    mappedDirectory,
                    mappedWindowBytes,
                    mappedFileLimitBytes,
                    quotaBytes,
                    pipelineThresholdBytes,
                    helperThreadThresholdBytes,
                    pipelineChunkBytes,
                    mappedFileThresholdBytes,
                    hugePages,
                    prepareAhead,
                    reserveBytes,
                    verifyReplays);
        }
    }
}
