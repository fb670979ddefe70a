package io.rewind.launch.liveness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class PhiAccrualDetectorTest {
    /** The settings the default 10 s heartbeat timeout gives: 2 s heartbeats, 200 ms least deviation. */
    private static final PhiAccrualDetector.Settings DEFAULT =
            PeerWatch.Settings.of(Duration.ofSeconds(10), 8).detector();

    private final FakeClock clock = new FakeClock();

    private PhiAccrualDetector beating(PhiAccrualDetector.Settings settings, long... intervalsMillis) {
        PhiAccrualDetector d = new PhiAccrualDetector(settings, clock);
        d.heartbeat();
        for (long i : intervalsMillis) {
            clock.advanceMillis(i);
            d.heartbeat();
        }
        return d;
    }

    private static long[] repeated(long millis, int times) {
        long[] a = new long[times];
        java.util.Arrays.fill(a, millis);
        return a;
    }

    /** The milliseconds of silence after which phi first reaches {@code threshold}, in 10 ms steps. */
    private long silenceToReach(PhiAccrualDetector d, double threshold) {
        long waited = 0;
        while (d.phi() < threshold) {
            clock.advanceMillis(10);
            waited += 10;
            if (waited > 600_000) {
                throw new AssertionError("phi never reached " + threshold);
            }
        }
        return waited;
    }

    @Test
    void theApproximationFollowsTheNormalTail() {
        // -log10(1 - F(mean + k std)) for the standard normal: 0.301, 0.800, 1.642, 2.870, 4.501.
        double[] expected = {0.30103, 0.79955, 1.64302, 2.86966, 4.50035};
        for (int k = 0; k < expected.length; k++) {
            double phi = PhiAccrualDetector.phi(1000 + 100.0 * k, 1000, 100);
            // The logistic curve overstates the far tail a little: 5 % at four deviations.
            assertEquals(expected[k], phi, 0.06 * Math.max(1, expected[k]), "at mean + " + k + " std");
        }
        // Far below the mean there is no suspicion; far above it, phi keeps growing instead of rounding to
        // infinity at once.
        assertTrue(PhiAccrualDetector.phi(0, 1000, 100) < 1e-6);
        assertTrue(PhiAccrualDetector.phi(1800, 1000, 100) > 20);
    }

    @Test
    void noHistoryNoSuspicion() {
        PhiAccrualDetector d = new PhiAccrualDetector(DEFAULT, clock);
        clock.advance(Duration.ofMinutes(5));
        assertEquals(0, d.phi());
        d.heartbeat();
        clock.advance(Duration.ofMinutes(5));
        assertEquals(0, d.phi(), "one heartbeat makes no interval");
        assertEquals(0, d.intervals());
    }

    @Test
    void steadyHeartbeatsRaiseNoSuspicionUntilWellPastTheirRhythm() {
        PhiAccrualDetector d = beating(DEFAULT, repeated(2000, 50));
        assertTrue(d.phi() < 0.01, "just after a heartbeat: " + d.phi());
        clock.advanceMillis(2000);
        assertTrue(d.phi() < 0.01, "one interval on: the acceptable pause is not used up: " + d.phi());
        clock.advanceMillis(2000);
        assertEquals(0.301, d.phi(), 0.01, "at the mean plus the acceptable pause, phi is log10(2)");
        // A stop: the mean (2 s), the pause (2 s), and about 5.2 least deviations (200 ms) for phi 8.
        long toEight = 4000 + silenceToReach(d, 8);
        assertTrue(toEight > 4800 && toEight < 5300, "phi 8 after " + toEight + " ms of silence");
    }

    @Test
    void unevenIntervalsUnderLoadWidenWhatPhiAccepts() {
        PhiAccrualDetector steady = beating(DEFAULT, repeated(2000, 40));
        long steadyToEight = silenceToReach(steady, 8);
        // Heartbeats delayed by a loaded host: between 2 and 4.5 s apart, growing.
        long[] loaded = new long[40];
        for (int i = 0; i < loaded.length; i++) {
            loaded[i] = 2000 + 2500L * i / loaded.length + (i % 3) * 300;
        }
        PhiAccrualDetector underLoad = beating(DEFAULT, loaded);
        long loadedToEight = silenceToReach(underLoad, 8);
        assertTrue(
                loadedToEight > steadyToEight + 3000,
                "under load phi 8 after " + loadedToEight + " ms, steady after " + steadyToEight + " ms");
        // The longest interval it saw, again, is not suspicious at all.
        PhiAccrualDetector again = beating(DEFAULT, loaded);
        clock.advanceMillis(4800);
        assertTrue(again.phi() < 2, "a silence as long as the longest interval seen: phi " + again.phi());
    }

    @Test
    void theWindowForgetsOldIntervals() {
        long[] slowThenSteady = new long[200];
        for (int i = 0; i < 200; i++) {
            slowThenSteady[i] = i < 100 ? 6000 : 2000;
        }
        PhiAccrualDetector forgot = beating(DEFAULT, slowThenSteady);
        assertEquals(100, forgot.intervals());
        clock.advanceMillis(5000);
        double forgotPhi = forgot.phi();
        PhiAccrualDetector steady = beating(DEFAULT, repeated(2000, 100));
        clock.advanceMillis(5000);
        assertEquals(steady.phi(), forgotPhi, 1e-9);
    }

    @Test
    void aSuddenStopAfterJitteryHeartbeatsIsSuspectedOnceTheSilenceOutgrowsThem() {
        long[] jittery = new long[60];
        for (int i = 0; i < jittery.length; i++) {
            jittery[i] = 1800 + (i * 37 % 400);
        }
        PhiAccrualDetector d = beating(DEFAULT, jittery);
        long toEight = silenceToReach(d, 8);
        assertTrue(toEight > 4000 && toEight < 6000, "phi 8 after " + toEight + " ms");
    }

    @Test
    void badSettingsAreRefusedInOneLine() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new PhiAccrualDetector.Settings(1, Duration.ofMillis(1), Duration.ZERO));
        assertTrue(e.getMessage().contains("at least 2"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> new PhiAccrualDetector.Settings(10, Duration.ZERO, Duration.ZERO));
        assertThrows(
                IllegalArgumentException.class,
                () -> new PhiAccrualDetector.Settings(10, Duration.ofMillis(1), Duration.ofMillis(-1)));
    }

    /** Whatever the history, phi is never negative and never falls while the silence goes on. */
    @Property(tries = 300)
    void phiGrowsWithTheSilence(
            @ForAll @Size(min = 1, max = 120) List<@IntRange(min = 1, max = 20_000) Integer> intervals,
            @ForAll @IntRange(min = 1, max = 500) int stepMillis) {
        PhiAccrualDetector d = new PhiAccrualDetector(DEFAULT, clock);
        d.heartbeat();
        for (int i : intervals) {
            clock.advanceMillis(i);
            d.heartbeat();
        }
        double previous = d.phi();
        assertTrue(previous >= 0);
        for (int step = 0; step < 200; step++) {
            clock.advanceMillis(stepMillis);
            double phi = d.phi();
            assertTrue(phi >= previous - 1e-9, "phi fell from " + previous + " to " + phi);
            previous = phi;
        }
    }
}
