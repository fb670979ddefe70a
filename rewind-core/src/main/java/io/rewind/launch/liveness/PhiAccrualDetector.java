package io.rewind.launch.liveness;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * How suspicious a peer's silence is, given the rhythm of its heartbeats so far: the phi-accrual
 * failure detector of Hayashibara et al., as Cassandra and Akka use it. It keeps the last intervals
 * between heartbeats and models them as a normal distribution; phi is {@code -log10} of the
 * probability that a heartbeat comes later still than the present silence. A phi of 8 says one
 * silence in a hundred million would be that long if the peer were alive and kept its rhythm.
 *
 * <p>Two settings keep phi from reading too much into a short, regular history: the standard
 * deviation is never taken below a floor (a history of identical intervals would otherwise make a
 * few milliseconds' delay look like death), and an acceptable pause is added to the mean (a peer
 * may miss a heartbeat or so, to a collection or a busy scheduler, without any suspicion). A history
 * of slow, uneven intervals under load widens the distribution by itself, so the same silence weighs
 * less there than after a steady history.
 *
 * <p>Pure logic: the clock is given, and nothing here judges; {@link PeerWatch} decides what a phi
 * means. Safe from several threads (heartbeats arrive on a link's reader, phi is read by a watcher).
 */
public final class PhiAccrualDetector {
    /**
     * @param window           how many of the latest intervals make the history
     * @param minStdDeviation  the least standard deviation the model assumes
     * @param acceptablePause  a silence beyond the mean interval that raises no suspicion at all
     */
    public record Settings(int window, Duration minStdDeviation, Duration acceptablePause) {
        public Settings {
            if (window < 2) {
                throw new IllegalArgumentException("a heartbeat history needs at least 2 intervals, was " + window);
            }
            if (minStdDeviation.isNegative() || minStdDeviation.isZero()) {
                throw new IllegalArgumentException("the least standard deviation must be positive");
            }
            if (acceptablePause.isNegative()) {
                throw new IllegalArgumentException("the acceptable pause cannot be negative");
            }
        }
    }

    private final LongSupplier nanoClock;
    private final double minStdDeviationNanos;
    private final double acceptablePauseNanos;
    /** The latest intervals, a ring; {@code count} of them are filled, the next goes at {@code next}. */
    private final long[] intervals;

    private int count;
    private int next;
    /** When the last heartbeat came; meaningful once {@code started}. */
    private long lastHeartbeat;

    private boolean started;

    public PhiAccrualDetector(Settings settings, LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.minStdDeviationNanos = settings.minStdDeviation().toNanos();
        this.acceptablePauseNanos = settings.acceptablePause().toNanos();
        this.intervals = new long[settings.window()];
    }

    /** A heartbeat came now. The first only starts the clock: an interval needs two. */
    public synchronized void heartbeat() {
        long now = nanoClock.getAsLong();
        if (started) {
            intervals[next] = now - lastHeartbeat;
            next = (next + 1) % intervals.length;
            count = Math.min(count + 1, intervals.length);
        }
        lastHeartbeat = now;
        started = true;
    }

    /** How many intervals the history holds (at most the window). */
    public synchronized int intervals() {
        return count;
    }

    /** The silence since the last heartbeat, in nanoseconds (0 before the first). */
    public synchronized long sinceLastHeartbeatNanos() {
        return started ? nanoClock.getAsLong() - lastHeartbeat : 0;
    }

    /** The suspicion level of the present silence: 0 with no interval to judge it by. */
    public synchronized double phi() {
        if (count == 0) {
            return 0;
        }
        double mean = 0;
        for (int i = 0; i < count; i++) {
            mean += intervals[i];
        }
        mean /= count;
        double variance = 0;
        for (int i = 0; i < count; i++) {
            double d = intervals[i] - mean;
            variance += d * d;
        }
        variance /= count;
        double std = Math.max(Math.sqrt(variance), minStdDeviationNanos);
        return phi(nanoClock.getAsLong() - lastHeartbeat, mean + acceptablePauseNanos, std);
    }

    /**
     * {@code -log10(1 - F(silence))} for the normal distribution F of that mean and deviation, with
     * the logistic approximation of F that Akka uses: it has no erf to compute, and it does not lose
     * the tail to rounding where {@code 1 - F} is far below the precision of F itself.
     */
    static double phi(double silence, double mean, double std) {
        double y = (silence - mean) / std;
        double e = Math.exp(-y * (1.5976 + 0.070566 * y * y));
        if (silence > mean) {
            return -Math.log10(e / (1.0 + e));
        }
        return -Math.log10(1.0 - 1.0 / (1.0 + e));
    }
}
