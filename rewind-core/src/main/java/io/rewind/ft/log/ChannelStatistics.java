package io.rewind.ft.log;

/**
 * Accounting of one channel at one instant.
 *
 * @param entries entries held
 * @param payloadBytes payload bytes held
 * @param appendedEntries entries appended since the log was opened
 * @param appendedBytes payload bytes appended since the log was opened
 * @param truncatedUpToSequence highest sequence number released by truncation (0: none)
 */
public record ChannelStatistics(
        long entries, long payloadBytes, long appendedEntries, long appendedBytes, long truncatedUpToSequence) {}
