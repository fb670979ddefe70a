package io.rewind.runtime.watch;

import io.rewind.runtime.RunReport;
import io.rewind.runtime.rank.RankEvent;

/**
 * Announces every failure and recovery on standard error the moment the coordinator knows of it
 * ({@link Announcements} words them), then tells the observer behind it. Every job's host puts one
 * in front of its observer, so the announcements are the same whether ranks are threads or processes.
 */
public final class Announcer implements JobObserver {
    private final JobObserver next;
    private final int ranks;
    private final long startNanos;

    public Announcer(JobObserver next, int ranks, long startNanos) {
        this.next = next;
        this.ranks = ranks;
        this.startNanos = startNanos;
    }

    @Override
    public void emit(RankEvent event) {
        next.emit(event);
    }

    @Override
    public void started(int ranks, long startNanos) {
        next.started(ranks, startNanos);
    }

    @Override
    public void failed(RunReport.FailureRecord failure, String cause) {
        // System.err as it is now: a status line on a terminal wraps it, and clears itself first.
        System.err.println(Announcements.failed(failure, cause, ranks, startNanos));
        next.failed(failure, cause);
    }

    @Override
    public void recovered(RunReport.FailureRecord failure) {
        System.err.println(Announcements.recovered(failure, ranks, startNanos));
        next.recovered(failure);
    }

    @Override
    public void ended(boolean ok) {
        next.ended(ok);
    }

    @Override
    public java.nio.file.Path rankRecordings() {
        return next.rankRecordings();
    }
}
