package io.rewind.launch.liveness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * The watch driven as the launcher drives it: a check every {@code checkEvery}, heartbeats arriving
 * at the times a scenario gives, probes answered (or not) after a delay.
 */
class PeerWatchTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final FakeClock clock = new FakeClock();
    private final PeerWatch watch = new PeerWatch(PeerWatch.Settings.of(TIMEOUT, 8), clock);
    private final long checkMillis = watch.settings().checkEvery().toMillis();

    /** Milliseconds since the start of the scenario. */
    private long now;

    /** A probe sent, and the time its answer is due (-1: none outstanding). */
    private long probe;

    private long answerAt = -1;

    /**
     * Runs the scenario for up to {@code millis}: heartbeats at the times {@code beatAt(i)} gives (the
     * i-th heartbeat; {@code Long.MAX_VALUE}: no more), probes answered {@code answerDelay} ms after
     * they were sent (negative: never). Returns the time the peer was taken for lost, or -1.
     */
    private long run(long millis, IntToLongFunction beatAt, long answerDelay) {
        int beat = 0;
        long nextCheck = checkMillis;
        while (now < millis) {
            long next = Math.min(nextCheck, beatAt.applyAsLong(beat));
            if (answerAt >= 0) {
                next = Math.min(next, answerAt);
            }
            if (next > millis) {
                break;
            }
            clock.advanceMillis(next - now);
            now = next;
            if (now == beatAt.applyAsLong(beat)) {
                watch.heard(true);
                beat++;
            }
            if (now == answerAt) {
                watch.answered(probe);
                answerAt = -1;
            }
            if (now == nextCheck) {
                nextCheck += checkMillis;
                PeerWatch.Verdict v = watch.check();
                switch (v.action()) {
                    case LOST -> {
                        return now;
                    }
                    case PROBE -> {
                        probe = v.probe();
                        answerAt = answerDelay < 0 ? -1 : now + answerDelay;
                    }
                    case NONE -> {}
                }
            }
        }
        return -1;
    }

    private static IntToLongFunction steadyUntil(long every, long stopAt) {
        return i -> (i + 1) * every <= stopAt ? (i + 1) * every : Long.MAX_VALUE;
    }

    @Test
    void aPeerThatNeverSpeaksIsLostAtTheTimeoutAndNotBefore() {
        long lost = run(60_000, i -> Long.MAX_VALUE, -1);
        assertTrue(lost > TIMEOUT.toMillis() && lost <= TIMEOUT.toMillis() + checkMillis, "lost at " + lost);
    }

    @Test
    void aStopAfterASteadyHistoryIsProbedAndLostBeforeTheTimeout() {
        long stop = 60_000;
        long lost = run(120_000, steadyUntil(2000, stop), -1);
        long after = lost - stop;
        // phi 8 about 5 s after the last heartbeat, found by the check at 5.5 s, then a probe's 2 s and
        // the check after it: 8 s, where the timeout alone takes 10.5.
        assertTrue(after > 6000 && after <= 8000, "lost " + after + " ms after the last heartbeat");
    }

    @Test
    void aPeerThatAnswersItsProbesIsNeverLostWhileItAnswersWithinTheTimeout() {
        // Its heartbeats stop (a heartbeat thread starved), its link still answers, slowly.
        long lost = run(120_000, steadyUntil(2000, 30_000), 1500);
        assertEquals(-1, lost, "an answering peer was taken for lost");
    }

    @Test
    void aFewSlowIntervalsUnderLoadAreNotALoss() {
        // Steady, then a loaded stretch with heartbeats 6 to 9 s apart (under the timeout), probes answered
        // 1.8 s late: suspicion maybe, loss never.
        long[] at = new long[80];
        long t = 0;
        for (int i = 0; i < at.length; i++) {
            t += i < 40 ? 2000 : 6000 + (i % 4) * 1000;
            at[i] = t;
        }
        long lost = run(at[at.length - 1], i -> i < at.length ? at[i] : Long.MAX_VALUE, 1800);
        assertEquals(-1, lost, "slow heartbeats under load were taken for a loss");
    }

    @Test
    void aPeerUnansweringAfterAFewSlowIntervalsIsStillLostByTheTimeout() {
        long[] at = {2000, 4000, 6000, 8000, 10000, 12000, 14000, 16000, 18000, 20000, 22000, 27000, 33000};
        long lost = run(120_000, i -> i < at.length ? at[i] : Long.MAX_VALUE, -1);
        assertTrue(lost > 33_000 && lost <= 33_000 + TIMEOUT.toMillis() + checkMillis, "lost at " + lost);
    }

    @Test
    void aWatcherThatWasItselfHeldUpJudgesOnlyOnItsNextCheck() {
        run(20_000, steadyUntil(2000, 20_000), 0);
        // The watcher sleeps through 12 s; the peer's heartbeats of that time wait unread on the link.
        clock.advanceMillis(12_000);
        assertEquals(PeerWatch.Action.NONE, watch.check().action());
        // The reader catches up on its link: the heartbeats that waited arrive at once.
        watch.heard(true);
        clock.advanceMillis(checkMillis);
        assertEquals(PeerWatch.Action.NONE, watch.check().action());
        // Held up again and the peer really silent: judged at the next check, a deferral at a time.
        clock.advanceMillis(11_000);
        assertEquals(PeerWatch.Action.NONE, watch.check().action());
        clock.advanceMillis(checkMillis);
        assertEquals(PeerWatch.Action.LOST, watch.check().action());
        assertEquals(PeerWatch.Action.NONE, watch.check().action(), "a loss is said once");
    }

    @Test
    void aThresholdOfZeroLeavesTheTimeoutAlone() {
        PeerWatch timeoutOnly = new PeerWatch(PeerWatch.Settings.of(TIMEOUT, 0), clock);
        for (int i = 0; i < 30; i++) {
            clock.advanceMillis(2000);
            timeoutOnly.heard(true);
        }
        for (long silent = checkMillis; silent <= TIMEOUT.toMillis(); silent += checkMillis) {
            clock.advanceMillis(checkMillis);
            assertEquals(PeerWatch.Action.NONE, timeoutOnly.check().action(), "silent for " + silent + " ms");
        }
        clock.advanceMillis(checkMillis);
        assertEquals(PeerWatch.Action.LOST, timeoutOnly.check().action());
    }

    @Test
    void aShortHistoryDoesNotSuspect() {
        // Three heartbeats only: phi has too little to go by, and the timeout alone decides.
        long lost = run(60_000, steadyUntil(2000, 6000), -1);
        assertTrue(lost > 6000 + TIMEOUT.toMillis(), "lost at " + lost);
    }

    @Test
    void theSettingsFollowTheTimeout() {
        PeerWatch.Settings s = PeerWatch.Settings.of(Duration.ofSeconds(2), 8);
        assertEquals(Duration.ofMillis(400), s.heartbeat());
        assertEquals(Duration.ofMillis(100), s.checkEvery());
        assertEquals(Duration.ofSeconds(1), s.probeDeadline(), "a probe has at least a second");
        assertEquals(Duration.ofMillis(50), s.detector().minStdDeviation());
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> PeerWatch.Settings.of(TIMEOUT, -1));
        assertTrue(e.getMessage().contains("suspicion threshold"), e.getMessage());
    }
}
