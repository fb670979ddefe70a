package io.rewind.runtime;

import java.util.Map;

/**
 * What a rank running as a process of its own reports to the launcher that coordinates its job,
 * and what it learns from it: the coordinator of an in-JVM job sees these events directly, a rank
 * process sends them. Called by the rank's threads.
 */
public interface RankSupervisor {
    /** The rank restored its state from recovery line {@code line}, which took {@code nanos}. */
    void restored(long line, long nanos);

    /**
     * The rank wrote recovery line {@code line} with these arrival frontiers, having sent {@code sent}
     * (last sequence number per outgoing channel).
     */
    void checkpointed(
            long line, Map<Long, Long> frontiers, Map<Long, Long> sent, long[] events, long bytes, long nanos);

    /**
     * The rank keeps durably, with recovery line {@code line}, the messages in transit across it up to
     * these sequence numbers per incoming channel.
     */
    void keptInTransit(long line, Map<Long, Long> upTo);

    /**
     * A restarted rank is back where its predecessor crashed, having been replayed {@code replayed}
     * frames, with at most {@code peakUnmatched} frames ({@code peakUnmatchedBytes} bytes) waiting at
     * once for their receive.
     */
    void caughtUp(long replayed, int peakUnmatched, long peakUnmatchedBytes);

    /** A kill of the rank's schedule fired (it is about to strike). */
    void killFired(FailureSchedule.Kill kill);

    /**
     * A scheduled kill struck the rank: the launcher kills its process. Does not return (the process
     * dies in here, killed from outside, or halts itself if nobody does).
     */
    void struck(String reason, long points, long operations);

    /**
     * The rank's program ended (completed or failed) after {@code operations} communication
     * operations, with its payload log's figures ({@link LogFigures}) and what it sent; the process
     * stays to serve its peers.
     */
    void ended(RankOutcome outcome, long operations, LogFigures log, io.rewind.engine.TrafficCounters.Sent sent);

    /** What a rank logged: appended entries and bytes, the most payload held at once, collective entries and bytes. */
    record LogFigures(
            long appendedEntries,
            long appendedBytes,
            long highWaterBytes,
            long collectiveEntries,
            long collectiveBytes,
            long[] determinants)
            implements java.io.Serializable {}

    /**
     * How many operations the rank has made and whether it waits parked inside MPI, sent whenever
     * either changed (at most every sample): what the launcher's stall watch needs.
     */
    void progress(long operations, long points, boolean waiting, io.rewind.engine.TrafficCounters.Sent sent);

    /** The program called abort, or failed: the launcher ends the whole job. */
    void abort(int errorCode, String reason);

    /** Whether every rank of the job has finished (a finished rank serves its peers until then). */
    boolean jobFinished();

    /** The job's abort as the launcher announced it, or null. */
    JobAbortedException jobAbort();
}
