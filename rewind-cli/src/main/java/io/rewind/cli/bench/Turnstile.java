package io.rewind.cli.bench;

import io.rewind.runtime.PointListener;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Lets jobs running in one JVM take turns: one job at a time runs, from one checkpoint point to the
 * next, while the others wait at theirs (parked, using no core). When every rank of the running job
 * has reached its next point, the turn passes to the job that has waited longest. Measurements taken
 * between two points are then side by side in time, whatever the machine was doing meanwhile.
 */
final class Turnstile {
    private final int ranksPerJob;
    private final long timeoutNanos;
    /** The one permit: held by the job whose turn it is. Fair, so jobs go round in order. */
    private final Semaphore turn = new Semaphore(1, true);

    private final Object[] locks;
    private final int[] arrived;
    private final long[] phase;
    private final boolean[] holding;

    Turnstile(int jobs, int ranksPerJob, long timeoutNanos) {
        this.ranksPerJob = ranksPerJob;
        this.timeoutNanos = timeoutNanos;
        this.locks = new Object[jobs];
        this.arrived = new int[jobs];
        this.phase = new long[jobs];
        this.holding = new boolean[jobs];
        for (int j = 0; j < jobs; j++) {
            locks[j] = new Object();
        }
    }

    /** The listener for job {@code job}'s configuration. */
    PointListener listenerFor(int job) {
        return (rank, point) -> arrive(job);
    }

    /**
     * A rank of {@code job} reached a point. The last of its ranks to arrive gives the turn away and
     * queues for the next one; the others wait until it has it.
     */
    private void arrive(int job) {
        Object lock = locks[job];
        synchronized (lock) {
            if (++arrived[job] < ranksPerJob) {
                long mine = phase[job];
                long deadline = System.nanoTime() + timeoutNanos;
                while (phase[job] == mine) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new IllegalStateException("job " + job + " waited too long for its turn");
                    }
                    waitNanos(lock, left);
                }
                return;
            }
            arrived[job] = 0;
        }
        release(job);
        try {
            if (!turn.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException("job " + job + " waited too long for its turn");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a turn", e);
        }
        synchronized (lock) {
            holding[job] = true;
            phase[job]++;
            lock.notifyAll();
        }
    }

    /** The job ended (or failed): it gives up its turn for good. */
    void finished(int job) {
        release(job);
    }

    private void release(int job) {
        boolean held;
        synchronized (locks[job]) {
            held = holding[job];
            holding[job] = false;
        }
        if (held) {
            turn.release();
        }
    }

    private static void waitNanos(Object lock, long nanos) {
        try {
            TimeUnit.NANOSECONDS.timedWait(lock, nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a turn", e);
        }
    }
}
