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
    private final Duration limit;
    /** Since when the progress below has stood still (-1: some rank is not waiting). */
    private long since = -1;

    private long[] progress;

    public StallWatch(Duration limit) {
        this.limit = limit;
    }

    /** Whether the job watches at all (a zero stall timeout: never). */
    public boolean enabled() {
        return !limit.isZero();
    }

    /** Some rank computes, polls, starts or recovers: the watch starts over. */
    public void reset() {
        since = -1;
    }

    /** Every rank that has not ended waits, with this progress: true once it has stood still for the limit. */
    public boolean stalled(long now, long[] progressNow) {
        if (since < 0 || !Arrays.equals(progressNow, progress)) {
            since = now;
            progress = progressNow;
            return false;
        }
        return now - since >= limit.toNanos();
    }

    /** The stall timeout as the reports say it: {@code 2 s}, {@code 400 ms}. */
    public String limitText() {
        return limit.toMillis() % 1000 == 0 ? limit.toSeconds() + " s" : limit.toMillis() + " ms";
    }

    /** Why the job is aborted once {@link #stalled} said so. */
    public String reason() {
        return "no progress for " + limitText() + ": every rank that has not ended waits inside MPI and none made"
                + " an operation (a deadlock: a receive, probe, wait or collective that no rank can satisfy)";
    }
}
