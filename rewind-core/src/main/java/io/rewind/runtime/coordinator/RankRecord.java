package io.rewind.runtime.coordinator;

import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.RankOutcome;
import io.rewind.runtime.RunReport;

/** One rank across its incarnations, as the coordinator sees it. Coordinator thread only. */
final class RankRecord {
    final int rank;
    int incarnation;
    RankLife life = RankLife.DOWN;

    RankOutcome outcome;
    /** The newest line its current incarnation has written or restarted from (0: none). */
    long lineReached;
    /** The line its current incarnation started from. */
    long restartLine;
    /** Where its current incarnation is back at the crash point: checkpoint points passed. */
    long catchUpPoints;
    /** Or, for a restart from the beginning, communication operations made. */
    long catchUpOperations;
    /** Incarnations of this rank that went down in a row before they were reachable. */
    int failedStarts;

    /** The incarnation whose progress is below (-1: none reported). */
    int progressIncarnation = -1;

    long operations;
    long points;
    boolean waiting;
    /** The current incarnation's log as it last reported it. */
    long logBytes;

    long logMemoryBytes;

    Strike strike;
    /** The kill of the schedule that fired in the current incarnation, if any. */
    FailureSchedule.Kill firedKill;
    /** Down by a failure of its own (not stopped for a rollback). */
    boolean failed;
    /** When the incarnation told to stop (a rollback) or crash must be down by (0: it was told nothing). */
    long stopDeadline;
    /** What it failed to do if it is not down by then ("did not stop for the rollback"). */
    String stopFailure;

    long detectedNanos;
    /** The failure record its current incarnation recovers (null: not a recovery, or stopped for one). */
    RunReport.FailureRecord recovery;

    RankRecord(int rank) {
        this.rank = rank;
    }

    /** The one way its life moves; a move {@link RankLife} does not allow is a fault of the coordinator. */
    void transition(RankLife next) {
        if (!life.canMoveTo(next)) {
            throw new IllegalStateException("rank " + rank + "." + incarnation + ": " + life + " -> " + next);
        }
        life = next;
    }

    /** How far the current incarnation had got, as far as the coordinator heard: a lower bound. */
    long operationsHeard() {
        return progressIncarnation == incarnation ? operations : 0;
    }

    long pointsHeard() {
        return progressIncarnation == incarnation ? points : 0;
    }
}
