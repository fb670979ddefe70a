package io.rewind.runtime.watch;

import io.rewind.runtime.RunReport;
import io.rewind.runtime.rank.RankEvent;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The live figures of one job, as the summary will give them at its end: kept up to date from its
 * coordinator's thread ({@link #take} and the failure and recovery calls), read from any thread (the
 * status line, the MBeans).
 */
public final class JobFigures {
    /** What a rank is doing, as far as the job's coordinator knows. */
    public enum RankState {
        STARTING,
        RUNNING,
        RECOVERING,
        ENDED
    }

    /** One rank's figures. */
    public static final class Rank {
        private final int rank;
        volatile RankState state = RankState.STARTING;
        volatile int incarnation;
        volatile long points;
        volatile long operations;
        volatile long lines;
        volatile long recoveries;

        Rank(int rank) {
            this.rank = rank;
        }

        public int rank() {
            return rank;
        }

        public RankState state() {
            return state;
        }

        public int incarnation() {
            return incarnation;
        }

        /** Checkpoint points its current incarnation has passed (the iteration reached). */
        public long points() {
            return points;
        }

        /** Communication operations its current incarnation has made. */
        public long operations() {
            return operations;
        }

        /** Recovery lines written (by every incarnation). */
        public long lines() {
            return lines;
        }

        public long recoveries() {
            return recoveries;
        }
    }

    private final String name;
    private final Rank[] ranks;
    private final AtomicLong checkpoints = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong recoveries = new AtomicLong();
    private volatile long startNanos = System.nanoTime();
    private volatile String state = "STARTING";

    public JobFigures(String name, int rankCount) {
        this.name = name;
        this.ranks = new Rank[rankCount];
        for (int r = 0; r < rankCount; r++) {
            ranks[r] = new Rank(r);
        }
    }

    public String name() {
        return name;
    }

    public int rankCount() {
        return ranks.length;
    }

    public Rank rank(int r) {
        return ranks[r];
    }

    public double elapsedSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** STARTING, RUNNING, RECOVERING, then SUCCEEDED or FAILED. */
    public String state() {
        return state;
    }

    public long checkpoints() {
        return checkpoints.get();
    }

    public long failures() {
        return failures.get();
    }

    public long recoveries() {
        return recoveries.get();
    }

    /** Ranks whose program runs now (not starting, recovering or ended). */
    public int running() {
        int n = 0;
        for (Rank r : ranks) {
            n += r.state == RankState.RUNNING ? 1 : 0;
        }
        return n;
    }

    /** The most checkpoint points a rank has passed. */
    public long points() {
        long most = 0;
        for (Rank r : ranks) {
            most = Math.max(most, r.points);
        }
        return most;
    }

    void started(long startNanos) {
        this.startNanos = startNanos;
        for (Rank r : ranks) {
            r.state = RankState.RUNNING;
        }
        state = "RUNNING";
    }

    /** A rank event, as the coordinator takes it. */
    void take(RankEvent event) {
        if (event.rank() < 0 || event.rank() >= ranks.length) {
            return;
        }
        Rank r = ranks[event.rank()];
        if (event.incarnation() < r.incarnation) {
            return; // an earlier incarnation's news
        }
        if (event.incarnation() > r.incarnation) {
            r.incarnation = event.incarnation();
            r.points = 0;
            r.operations = 0;
            if (r.state != RankState.RECOVERING) {
                r.state = RankState.RUNNING; // rolled back with a failed one, running again
            }
        }
        switch (event) {
            case RankEvent.Progress p -> {
                r.points = p.points();
                r.operations = p.operations();
            }
            case RankEvent.Checkpointed c -> {
                r.lines++;
                checkpoints.incrementAndGet();
            }
            case RankEvent.Ended e -> r.state = RankState.ENDED;
            default -> {}
        }
    }

    void failed(RunReport.FailureRecord f) {
        failures.incrementAndGet();
        ranks[f.rank()].state = RankState.RECOVERING;
        state = "RECOVERING";
    }

    void recovered(RunReport.FailureRecord f) {
        recoveries.incrementAndGet();
        Rank r = ranks[f.rank()];
        r.recoveries++;
        r.state = RankState.RUNNING;
        boolean anyRecovering = false;
        for (Rank o : ranks) {
            anyRecovering |= o.state == RankState.RECOVERING;
        }
        if (!anyRecovering) {
            state = "RUNNING";
        }
    }

    void ended(boolean ok) {
        state = ok ? "SUCCEEDED" : "FAILED";
    }

    /** The status line's text: {@code rewind: 12.3 s  4/4 running  point 57  12 checkpoints  1 failure}. */
    public String statusText() {
        long f = failures();
        long rec = recoveries();
        return String.format(
                java.util.Locale.ROOT,
                "rewind: %.1f s  %d/%d running  point %d  %d checkpoint%s  %d failure%s, %d recovered",
                elapsedSeconds(),
                running(),
                ranks.length,
                points(),
                checkpoints(),
                checkpoints() == 1 ? "" : "s",
                f,
                f == 1 ? "" : "s",
                rec);
    }
}
