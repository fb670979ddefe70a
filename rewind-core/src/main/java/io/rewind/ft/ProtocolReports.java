package io.rewind.ft;

/**
 * How a rank's protocol tells the job's protocol (the instance that plans recoveries, in the launcher
 * when ranks are processes) something it must know before the rank can crash. A report returns once
 * the job's protocol has taken it in ({@link Protocol#onReport}), so a rank may report a fact and then
 * act on it. Meant for rare facts (at most a few per checkpoint interval), not for every message.
 */
@FunctionalInterface
public interface ProtocolReports {
    /**
     * Delivers {@code words} from incarnation {@code incarnation} of {@code rank}; returns once taken
     * in, with the job protocol's answer ({@link Protocol#onReport}; null for none).
     */
    long[] report(int rank, int incarnation, long[] words);

    /** Reports that go nowhere, for protocols that make none. */
    ProtocolReports NONE = (rank, incarnation, words) -> null;
}
