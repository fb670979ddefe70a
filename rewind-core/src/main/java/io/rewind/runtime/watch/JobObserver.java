package io.rewind.runtime.watch;

import io.rewind.runtime.RunReport;
import io.rewind.runtime.rank.RankEvent;
import io.rewind.runtime.rank.RankEventSink;
import java.nio.file.Path;

/**
 * What a job tells whoever watches it while it runs: every rank event its coordinator takes ({@link
 * #emit}, in the order taken, before the coordinator does), and what only the coordinator knows: a
 * failure once its recovery is planned, and the recovery once the rank is back where it crashed.
 * Every method is called on the job's coordinator thread and must not block.
 */
public interface JobObserver extends RankEventSink {
    /** An observer that hears nothing. */
    JobObserver NONE = event -> {};

    /** An observer of the rank events alone. */
    static JobObserver of(RankEventSink events) {
        return events instanceof JobObserver o ? o : events::emit;
    }

    /** The job starts its {@code ranks} ranks; {@code startNanos} is when its clock started. */
    default void started(int ranks, long startNanos) {}

    /**
     * A rank failed ({@code cause}: why, as the announcement says it) and its recovery is planned:
     * {@code failure} says from which line and which ranks roll back.
     */
    default void failed(RunReport.FailureRecord failure, String cause) {}

    /** The restarted rank is back where it crashed: {@code failure} has every phase's time now. */
    default void recovered(RunReport.FailureRecord failure) {}

    /** The job is over (its result is being put together); called once, last. */
    default void ended(boolean ok) {}

    /**
     * Where rank processes of this job write their JFR recordings (null: they record nothing); the
     * observer reads them at the end.
     */
    default Path rankRecordings() {
        return null;
    }

    /** Rank events only; {@code RankEvent} values are serialisable and carry their rank. */
    @Override
    void emit(RankEvent event);
}
