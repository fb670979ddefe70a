package io.rewind.ft.spbc;

import io.rewind.engine.FaultTolerance.ForcedMatch;
import io.rewind.engine.Frame;
import io.rewind.engine.RankEngine;
import io.rewind.ft.ProtocolReports;
import io.rewind.ft.sender.OutcomeLog;

/**
 * What SPBC does with non-deterministic outcomes: it keeps none, and a restarted rank matches freely.
 * A wildcard match or probe made inside a declared communication pattern is safe by the programmer's
 * word (completion functions never are, see {@link #completed}); the first
 * one outside every pattern after each recovery line is reported to the job's protocol before the
 * rank acts on it, so that a failure whose re-execution would repeat it rolls every rank back instead
 * (see {@link SpbcProtocol#plan}). One report per checkpoint interval at most: a flag, not a log.
 */
final class SpbcOutcomes implements OutcomeLog {
    private final int rank;
    private final int incarnation;
    private final ProtocolReports reports;
    private RankEngine engine;
    /** Whether this checkpoint interval's unguarded choice was reported already. Rank threads only. */
    private volatile boolean reported;

    SpbcOutcomes(int rank, int incarnation, ProtocolReports reports) {
        this.rank = rank;
        this.incarnation = incarnation;
        this.reports = reports;
    }

    @Override
    public void started(RankEngine rankEngine) {
        this.engine = rankEngine;
    }

    /** The newest line of this incarnation (written or restarted from): the report says choices came after it. */
    private volatile long line;

    @Override
    public void atLine(long newest) {
        line = newest;
    }

    @Override
    public void afterCheckpoint() {
        reported = false;
    }

    @Override
    public void wildcardMatched(long index, Frame frame) {
        if (frame.patternId() == 0) {
            unguardedChoice();
        }
    }

    /** A probe: inside a pattern, the ids keep it from seeing a message of another iteration. */
    @Override
    public void polled(long index, long[] outcome) {
        if (engine == null || !engine.inPattern()) {
            unguardedChoice();
        }
    }

    /**
     * A completion function: unguarded even inside a pattern. Pattern ids order matching, not which
     * request completes first; replay delivers logged messages early, so a test can now see complete
     * what the program's own dependencies kept incomplete the first time (the SPBC paper's case 4.2.2,
     * a non-blocking barrier tested before every request of the iteration was received).
     */
    @Override
    public void completed(long index, long[] outcome) {
        unguardedChoice();
    }

    private void unguardedChoice() {
        if (!reported) {
            synchronized (this) {
                if (!reported) {
                    // The line travels with the report: the launcher may learn of the checkpoint later.
                    reports.report(rank, incarnation, new long[] {SpbcProtocol.UNGUARDED_CHOICE, line});
                    reported = true;
                }
            }
        }
    }

    @Override
    public ForcedMatch forcedWildcard(long index) {
        return null;
    }

    @Override
    public long[] forcedPoll(long index) {
        return null;
    }
}
