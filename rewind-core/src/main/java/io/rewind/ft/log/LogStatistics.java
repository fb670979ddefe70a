package io.rewind.ft.log;

import java.util.Map;

/**
 * Accounting of one rank's payload log at one instant. Payload figures count message bytes only;
 * storage figures count whole blocks or windows, headers and unused tails included, which is what
 * the memory quota planning of logger nodes needs.
 *
 * @param entries entries held
 * @param payloadBytes payload bytes held
 * @param storageBytes storage bytes in use (blocks or windows holding live entries or being filled)
 * @param spareStorageBytes freed off-heap blocks kept for reuse
 * @param readyStorageBytes off-heap blocks prepared ahead of the writer (mapped and faulted in),
 *     not yet handed to it
 * @param mappedBytes bytes of the log file currently mapped into memory
 * @param highWaterPayloadBytes largest {@code payloadBytes} seen
 * @param highWaterStorageBytes largest {@code storageBytes} seen
 * @param appendedEntries entries appended since the log was opened
 * @param appendedBytes payload bytes appended since the log was opened
 * @param truncatedEntries entries released by truncation since the log was opened
 * @param truncatedBytes payload bytes released by truncation since the log was opened
 * @param elapsedNanos time since the log was opened, on the log's clock
 * @param channels per-channel accounting
 */
public record LogStatistics(
        long entries,
        long payloadBytes,
        long storageBytes,
        long spareStorageBytes,
        long readyStorageBytes,
        long mappedBytes,
        long highWaterPayloadBytes,
        long highWaterStorageBytes,
        long appendedEntries,
        long appendedBytes,
        long truncatedEntries,
        long truncatedBytes,
        long elapsedNanos,
        Map<Channel, ChannelStatistics> channels) {

    public LogStatistics {
        channels = Map.copyOf(channels);
    }

    /**
     * Memory the log holds now: blocks in use, spares and blocks prepared ahead. What a run's memory
     * footprint shows of the log (the log file's mapped windows are page cache, not counted).
     */
    public long memoryBytes() {
        return storageBytes + spareStorageBytes + readyStorageBytes;
    }

    /** Average log growth rate since the log was opened (appended bytes, truncation ignored). */
    public double appendedBytesPerSecond() {
        return elapsedNanos <= 0 ? 0.0 : appendedBytes * 1e9 / elapsedNanos;
    }

    /**
     * Growth rate between two snapshots of the same log: the figure logger-node dumping sizes its
     * transfers by.
     */
    public static double appendedBytesPerSecond(LogStatistics earlier, LogStatistics later) {
        long dtNanos = later.elapsedNanos - earlier.elapsedNanos;
        if (dtNanos <= 0) {
            return 0.0;
        }
        return (later.appendedBytes - earlier.appendedBytes) * 1e9 / dtNanos;
    }
}
