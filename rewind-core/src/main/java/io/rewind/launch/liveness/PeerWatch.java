package io.rewind.launch.liveness;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Whether a peer that heartbeats (a node agent, as the launcher sees it, or the launcher, as an agent
 * sees it) is to be taken for lost. Two rules, the second only ever earlier than the first:
 *
 * <ol>
 *   <li>A peer silent for longer than the timeout is lost: the hard bound, which a frozen peer
 *       (SIGSTOP, a hung host) always meets.
 *   <li>A peer whose heartbeats are late for their own rhythm ({@link PhiAccrualDetector}'s phi at
 *       the threshold, once the history holds enough intervals to judge by) is only suspected: it is
 *       sent a probe, which its link answers at once, and it is lost when no answer comes within the
 *       probe's deadline. A peer slowed by load answers, however late its heartbeats have been.
 * </ol>
 *
 * A watcher that itself did not run for a while (its host loaded, its JVM paused) sees every peer
 * silent for as long as it slept, because the messages waited unread: on its first check after such a
 * pause it convicts no one, and gives the links one check's time to read what waited.
 *
 * <p>Pure logic: the clock is given, and the caller sends the probes and acts on the verdicts. Safe
 * from several threads (a link's reader reports arrivals, a watcher thread checks).
 */
public final class PeerWatch {
    /** The window of heartbeat intervals phi is computed over. */
    static final int WINDOW = 100;
    /** How many intervals a history needs before phi is trusted to suspect anyone. */
    static final int MIN_INTERVALS = 10;
    /** The least a probe is given to be answered, however short the heartbeat interval. */
    static final Duration LEAST_PROBE_DEADLINE = Duration.ofSeconds(1);
    /** The least standard deviation phi assumes, however short and steady the heartbeat interval. */
    static final Duration LEAST_STD_DEVIATION = Duration.ofMillis(50);

    /**
     * @param timeout       the hard bound on a peer's silence
     * @param threshold     the phi at which a peer is suspected and probed; 0: never (the timeout alone)
     * @param heartbeat     how often the peer sends a heartbeat
     * @param checkEvery    how often the watcher checks
     * @param probeDeadline how long a suspected peer has to answer its probe
     * @param minIntervals  how many heartbeat intervals phi needs before it may suspect
     * @param detector      the settings of phi
     */
    public record Settings(
            Duration timeout,
            double threshold,
            Duration heartbeat,
            Duration checkEvery,
            Duration probeDeadline,
            int minIntervals,
            PhiAccrualDetector.Settings detector) {
        public Settings {
            if (!(threshold >= 0) || Double.isInfinite(threshold)) {
                throw new IllegalArgumentException(
                        "the suspicion threshold must be a phi of 0 or more, was " + threshold);
            }
        }

        /**
         * The settings both ends of a link derive from the heartbeat timeout, so they agree: a heartbeat
         * five times a timeout, a check four times a heartbeat, a pause of one heartbeat accepted without
         * suspicion, a probe given one heartbeat (at least a second) to be answered.
         */
        public static Settings of(Duration timeout, double threshold) {
            Duration heartbeat = timeout.dividedBy(5);
            Duration leastStd = heartbeat.dividedBy(10);
            if (leastStd.compareTo(LEAST_STD_DEVIATION) < 0) {
                leastStd = LEAST_STD_DEVIATION;
            }
            Duration probe = heartbeat.compareTo(LEAST_PROBE_DEADLINE) < 0 ? LEAST_PROBE_DEADLINE : heartbeat;
            return new Settings(
                    timeout,
                    threshold,
                    heartbeat,
                    heartbeat.dividedBy(4),
                    probe,
                    MIN_INTERVALS,
                    new PhiAccrualDetector.Settings(WINDOW, leastStd, heartbeat));
        }
    }

    /** What the watcher is to do about the peer after a check. */
    public enum Action {
        /** Nothing: the peer is alive, or its probe has time left. */
        NONE,
        /** Send the peer {@link Verdict#probe()}; it is suspected. */
        PROBE,
        /** Take the peer for lost; said once. */
        LOST
    }

    /** @param probe for {@link Action#PROBE}: the probe's number, which its answer carries back */
    public record Verdict(Action action, long probe, String why) {
        static final Verdict NONE = new Verdict(Action.NONE, 0, "");
    }

    private final Settings settings;
    private final LongSupplier nanoClock;
    private final PhiAccrualDetector heartbeats;

    /** When anything was last heard from the peer (or the watch began). */
    private long lastHeard;
    /** When the watcher last checked; {@code checked} once it has. */
    private long lastCheck;

    private boolean checked;
    /** Whether the last check deferred its judgement because the watcher had been held up. */
    private boolean deferred;
    /** The number of the latest probe; {@code probing} while it waits for its answer. */
    private long probe;

    private boolean probing;
    private long probeSent;
    private double phiAtProbe;
    private boolean convicted;

    public PeerWatch(Settings settings, LongSupplier nanoClock) {
        this.settings = settings;
        this.nanoClock = nanoClock;
        this.heartbeats = new PhiAccrualDetector(settings.detector(), nanoClock);
        this.lastHeard = nanoClock.getAsLong();
    }

    public Settings settings() {
        return settings;
    }

    /** Something came from the peer now; {@code heartbeat}: a heartbeat, which phi learns the rhythm of. */
    public synchronized void heard(boolean heartbeat) {
        lastHeard = nanoClock.getAsLong();
        if (heartbeat) {
            heartbeats.heartbeat();
        }
    }

    /** The peer answered probe {@code number}: it is alive, whatever its heartbeats say. */
    public synchronized void answered(long number) {
        lastHeard = nanoClock.getAsLong();
        if (probing && number == probe) {
            probing = false;
        }
    }

    /** The suspicion level now. */
    public synchronized double phi() {
        return heartbeats.phi();
    }

    /** Judges the peer now; the watcher calls this every {@link Settings#checkEvery()}. */
    public synchronized Verdict check() {
        if (convicted) {
            return Verdict.NONE;
        }
        long now = nanoClock.getAsLong();
        long every = settings.checkEvery().toNanos();
        // Late by more than two checks: this watcher itself was held up, and what the peer sent meanwhile
        // may still wait unread. The next check judges, held up or not: one deferral at a time keeps the
        // timeout a bound, exceeded by one check at most.
        boolean heldUp = checked && !deferred && now - lastCheck > 3 * every;
        lastCheck = now;
        checked = true;
        deferred = heldUp;
        if (heldUp) {
            return Verdict.NONE;
        }
        long silent = now - lastHeard;
        if (silent > settings.timeout().toNanos()) {
            convicted = true;
            return new Verdict(
                    Action.LOST,
                    0,
                    "silent for " + millis(silent) + " ms (heartbeat timeout "
                            + settings.timeout().toMillis() + " ms)");
        }
        if (probing) {
            long waited = now - probeSent;
            if (waited <= settings.probeDeadline().toNanos()) {
                return Verdict.NONE;
            }
            convicted = true;
            return new Verdict(
                    Action.LOST,
                    0,
                    String.format(
                            java.util.Locale.ROOT,
                            "no heartbeat for %d ms (phi %.1f) and no answer to a probe within %d ms",
                            millis(heartbeats.sinceLastHeartbeatNanos()),
                            phiAtProbe,
                            millis(waited)));
        }
        if (settings.threshold() > 0 && heartbeats.intervals() >= settings.minIntervals()) {
            double phi = heartbeats.phi();
            if (phi >= settings.threshold()) {
                probing = true;
                probeSent = now;
                phiAtProbe = phi;
                probe++;
                return new Verdict(
                        Action.PROBE,
                        probe,
                        String.format(
                                java.util.Locale.ROOT,
                                "no heartbeat for %d ms (phi %.1f)",
                                millis(heartbeats.sinceLastHeartbeatNanos()),
                                phi));
            }
        }
        return Verdict.NONE;
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
