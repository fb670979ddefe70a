package io.rewind.ft.logger;

import java.util.LinkedHashMap;
import java.util.Map;

/** What one rank's dumping did, over all its incarnations: the run record's per-rank figures. */
final class RankDumpFigures {
    private long dumps;
    private long dumpedBytes;
    private long dumpNanos;
    private long loggerDeclines;
    private long declinedByAll;
    private long blockingWaits;
    private long blockedNanos;
    private long overQuotaFrames;
    private long largestExcessBytes;
    private long peakLogBytes;
    private long replayedFromLoggersBytes;

    synchronized void dumpDone(Dump dump, long nanos) {
        dumps++;
        dumpedBytes += dump.bytes();
        dumpNanos += nanos;
    }

    synchronized void directStore(long bytes) {
        directStores++;
        dumpedBytes += bytes;
    }

    private long directStores;

    synchronized void loggerDeclined(long n) {
        loggerDeclines += n;
    }

    synchronized void declinedByAll() {
        declinedByAll++;
    }

    synchronized void blocked(long nanos) {
        blockingWaits++;
        blockedNanos += nanos;
    }

    synchronized void overQuota(long excess) {
        overQuotaFrames++;
        largestExcessBytes = Math.max(largestExcessBytes, excess);
    }

    synchronized void peakLog(long bytes) {
        peakLogBytes = Math.max(peakLogBytes, bytes);
    }

    synchronized void replayedFromLogger(long bytes) {
        replayedFromLoggersBytes += bytes;
    }

    synchronized long dumps() {
        return dumps;
    }

    synchronized long dumpedBytes() {
        return dumpedBytes;
    }

    synchronized long peakLogBytes() {
        return peakLogBytes;
    }

    synchronized long declines() {
        return loggerDeclines;
    }

    synchronized long blockingWaits() {
        return blockingWaits;
    }

    synchronized long overQuotaFrames() {
        return overQuotaFrames;
    }

    /** The figures as words, for a rank process to send to its launcher. */
    synchronized long[] words() {
        return new long[] {
            dumps,
            directStores,
            dumpedBytes,
            dumpNanos,
            loggerDeclines,
            declinedByAll,
            blockingWaits,
            blockedNanos,
            overQuotaFrames,
            largestExcessBytes,
            peakLogBytes,
            replayedFromLoggersBytes
        };
    }

    /** Adds the figures of another incarnation of the rank (sums; the peaks take the larger). */
    synchronized void add(long[] w) {
        dumps += w[0];
        directStores += w[1];
        dumpedBytes += w[2];
        dumpNanos += w[3];
        loggerDeclines += w[4];
        declinedByAll += w[5];
        blockingWaits += w[6];
        blockedNanos += w[7];
        overQuotaFrames += w[8];
        largestExcessBytes = Math.max(largestExcessBytes, w[9]);
        peakLogBytes = Math.max(peakLogBytes, w[10]);
        replayedFromLoggersBytes += w[11];
    }

    synchronized Map<String, Object> record(int rank) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rank", rank);
        m.put("dumps", dumps);
        m.put("directStores", directStores);
        m.put("dumpedBytes", dumpedBytes);
        m.put("dumpMillis", dumpNanos / 1_000_000.0);
        m.put("loggerDeclines", loggerDeclines);
        m.put("dumpsDeclinedByAll", declinedByAll);
        m.put("blockingWaits", blockingWaits);
        m.put("blockedMillis", blockedNanos / 1_000_000.0);
        m.put("overQuotaFrames", overQuotaFrames);
        m.put("largestQuotaExcessBytes", largestExcessBytes);
        m.put("peakLogBytes", peakLogBytes);
        m.put("replayedFromLoggersBytes", replayedFromLoggersBytes);
        return m;
    }
}
