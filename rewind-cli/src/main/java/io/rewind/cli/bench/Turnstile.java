package io.rewind.cli.bench;

import io.rewind.runtime.PointListener;
import java.util.concurrent.TimeUnit;

/**
 * Lets jobs running in one JVM take turns: one job at a time runs, from one checkpoint point to the
 * next, while the others wait at theirs (parked, using no core). When every rank of the running job
 * has reached its next point, the turn passes to the next job in a fixed cyclic order (job numbers,
 * starting from the first job given), skipping jobs that have ended. Measurements taken between two
 * points are then side by side in time, whatever the machine was doing meanwhile.
 *
 * <p>The order is fixed rather than first come, first served: a job's place in the round (right
 * after which other job it runs, with what left in the caches) can bias its times by a few percent,
 * and a caller that rotates the first job from one repetition to the next gives every job every
 * place equally often.
 */
final class Turnstile {
    private final int jobs;
    private final int ranksPerJob;
    private final long timeoutNanos;

    /** Guards the turn: owner, holding and ended. Only the last rank of each job waits on it. */
    private final Object lock = new Object();
    /** The job whose turn it is, or -1 once every job has ended. */
    private int owner;
    /** Per job: it has run since it was given the turn (its next point passes the turn on). */
    private final boolean[] holding;
    /** Per job: it ended and takes no more turns. */
    private final boolean[] ended;

    /** Per job: guards its arrived and phase; the job's other ranks wait on it. */
    private final Object[] jobLocks;
    /** Per job: ranks that have reached the current point. */
    private final int[] arrived;
    /** Per job: counts the job's turns, so its waiting ranks see when the next one begins. */
    private final long[] phase;

    Turnstile(int jobs, int ranksPerJob, long timeoutNanos) {
        this(jobs, ranksPerJob, timeoutNanos, 0);
    }

    /** {@code firstJob} has the first turn; the others follow in cyclic order of their numbers. */
    Turnstile(int jobs, int ranksPerJob, long timeoutNanos, int firstJob) {
        if (firstJob < 0 || firstJob >= jobs) {
            throw new IllegalArgumentException("first job " + firstJob + " of " + jobs);
        }
        this.jobs = jobs;
        this.ranksPerJob = ranksPerJob;
        this.timeoutNanos = timeoutNanos;
        this.owner = firstJob;
        this.holding = new boolean[jobs];
        this.ended = new boolean[jobs];
        this.jobLocks = new Object[jobs];
        this.arrived = new int[jobs];
        this.phase = new long[jobs];
        for (int j = 0; j < jobs; j++) {
            jobLocks[j] = new Object();
        }
    }

    /** The listener for job {@code job}'s configuration. */
    PointListener listenerFor(int job) {
        return (rank, point) -> arrive(job);
    }

    /**
     * A rank of {@code job} reached a point. The last of its ranks to arrive passes the turn on (if the
     * job held it) and waits for the job's next turn; the others wait until it has it.
     */
    private void arrive(int job) {
        long deadline = System.nanoTime() + timeoutNanos;
        Object jobLock = jobLocks[job];
        synchronized (jobLock) {
            if (++arrived[job] < ranksPerJob) {
                long mine = phase[job];
                while (phase[job] == mine) {
                    waitUntil(jobLock, deadline, job);
                }
                return;
            }
            arrived[job] = 0;
        }
        synchronized (lock) {
            if (holding[job]) {
                holding[job] = false;
                passOn(job);
            }
            while (owner != job) {
                waitUntil(lock, deadline, job);
            }
            holding[job] = true;
        }
        synchronized (jobLock) {
            phase[job]++;
            jobLock.notifyAll();
        }
    }

    /** The job ended (or failed): it gives up its turn for good. */
    void finished(int job) {
        synchronized (lock) {
            ended[job] = true;
            holding[job] = false;
            if (owner == job) {
                passOn(job);
            }
        }
    }

    /** Lock held: gives the turn to the next job after {@code job} that has not ended. */
    private void passOn(int job) {
        owner = -1;
        for (int k = 1; k <= jobs; k++) {
            int next = (job + k) % jobs;
            if (!ended[next]) {
                owner = next;
                break;
            }
        }
        lock.notifyAll();
    }

    private static void waitUntil(Object monitor, long deadline, int job) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new IllegalStateException("job " + job + " waited too long for its turn");
        }
        try {
            TimeUnit.NANOSECONDS.timedWait(monitor, left);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a turn", e);
        }
    }
}
