package io.rewind.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The stall watch's bounds: the stall timeout, and the shorter one while a restarted rank catches up. */
class StallWatchTest {
    private static final long S = 1_000_000_000L;
    private static final long[] STILL = {0, 5, 1, 7};

    @Test
    void whileARecoveryHasNotCaughtUpAStallIsReportedAfterTenSeconds() {
        StallWatch w = new StallWatch(Duration.ofMinutes(5));
        assertFalse(w.stalled(0, STILL.clone(), true), "the stall starts");
        assertFalse(w.stalled(9 * S, STILL.clone(), true));
        assertTrue(w.stalled(10 * S, STILL.clone(), true));
        assertTrue(w.limitText().equals("10 s"), w.limitText());
        assertTrue(w.reason().startsWith("no progress for 10 s during a recovery: "), w.reason());
    }

    @Test
    void otherwiseTheStallTimeoutHolds() {
        StallWatch w = new StallWatch(Duration.ofMinutes(5));
        assertFalse(w.stalled(0, STILL.clone(), false));
        assertFalse(w.stalled(299 * S, STILL.clone(), false));
        assertTrue(w.stalled(300 * S, STILL.clone(), false));
        assertTrue(w.reason().startsWith("no progress for 300 s: every rank"), w.reason());
    }

    @Test
    void aShorterStallTimeoutIsKeptDuringARecoveryAndProgressStartsItOver() {
        StallWatch w = new StallWatch(Duration.ofSeconds(2));
        assertFalse(w.stalled(0, STILL.clone(), true));
        assertFalse(w.stalled(S, new long[] {0, 6, 1, 7}, true), "an operation: the watch starts over");
        assertFalse(w.stalled(2 * S, new long[] {0, 6, 1, 7}, true));
        assertTrue(w.stalled(3 * S, new long[] {0, 6, 1, 7}, true));
        assertTrue(w.limitText().equals("2 s"), w.limitText());
    }
}
