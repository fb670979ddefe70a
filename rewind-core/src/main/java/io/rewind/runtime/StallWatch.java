package io.rewind.runtime;

import java.time.Duration;
import java.util.Arrays;

/**
 * The stall watch of a job's coordinator ({@link Job} for ranks as threads, the launcher for ranks
 * as processes): fed, at each of its samples, either that some rank is not parked in a blocking MPI
 * wait ({@link #reset}) or the progress of every rank that has not ended while all of them wait
 * (incarnation and operations per rank), it says when that progress has stood still for the stall
 * timeout. Nothing can end such a wait: the program (or the runtime) is deadlocked. Coordinator
 * thread only.
 */
public final class StallWatch {
    /**
     * The stall bound while a restarted rank has not caught up yet (when shorter than the stall
     * timeout): every rank waiting then, none making an operation, means the replay it waits for will
     * not come, and that is reported within seconds rather than after the stall timeout.
     */
    public static final Duration DURING_RECOVERY = Duration.ofSeconds(10);

    private final Duration limit;
    /** The bound that fired ({@link #stalled}); the stall timeout until one did. */
    private Duration fired;

    private boolean firedDuringRecovery;
    /** Since when the progress below has stood still (-1: some rank is not waiting). */
    private long since = -1;

    private long[] progress;

    public StallWatch(Duration limit) {
        this.limit = limit;
        this.fired = limit;
    }

    /** Whether the job watches at all (a zero stall timeout: never). */
    public boolean enabled() {
        return !limit.isZero();
    }

    /** Some rank computes, polls, starts or recovers: the watch starts over. */
    public void reset() {
        since = -1;
    }

    /**
     * Every rank that has not ended waits, with this progress: true once it has stood still for the
     * limit, or for {@link #DURING_RECOVERY} if shorter while {@code recovering} (a restarted rank has
     * not caught up).
     */
    public boolean stalled(long now, long[] progressNow, boolean recovering) {
        if (since < 0 || !Arrays.equals(progressNow, progress)) {
            since = now;
            progress = progressNow;
            return false;
        }
        Duration bound = recovering && DURING_RECOVERY.compareTo(limit) < 0 ? DURING_RECOVERY : limit;
        if (now - since < bound.toNanos()) {
            return false;
        }
        fired = bound;
        firedDuringRecovery = recovering;
        return true;
    }

    /** The bound that fired as the reports say it: {@code 2 s}, {@code 400 ms}. */
    public String limitText() {
        return fired.toMillis() % 1000 == 0 ? fired.toSeconds() + " s" : fired.toMillis() + " ms";
    }

    /** Why the job is aborted once {@link #stalled} said so. */
    public String reason() {
        if (firedDuringRecovery) {
            return "no progress for " + limitText() + " during a recovery: every rank that has not ended waits inside"
                    + " MPI and none made an operation, so the restarted rank cannot catch up (what it waits for is"
                    + " never sent again)";
        }
        return "no progress for " + limitText() + ": every rank that has not ended waits inside MPI and none made"
                + " an operation (a deadlock: a receive, probe, wait or collective that no rank can satisfy)";
    }
}
