package io.rewind.ft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.engine.ChannelKey;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** When a line is complete for a group restarting from it: every message a member needs is held somewhere. */
class RecoveryLinesTest {
    private static final int WORLD = 0; // the point-to-point context of COMM_WORLD

    /** The key of the channel on {@code WORLD} with {@code peer} at the other end. */
    private static long to(int peer) {
        return ChannelKey.of(WORLD, peer);
    }

    @Test
    void aMessageSentBeforeTheLineAndArrivedAfterItMakesTheLineIncompleteUntilItIsKept() {
        RecoveryLines lines = new RecoveryLines(2, 2);
        lines.published(0, 1, Map.of(), null, Map.of(to(1), 5L)); // rank 0 had sent 5 to rank 1
        lines.published(1, 1, Map.of(to(0), 3L), null, Map.of()); // rank 1 had 3 of them

        assertFalse(lines.complete(Set.of(0, 1), 1));
        lines.keptInTransit(1, 1, Map.of(to(0), 4L));
        assertFalse(lines.complete(Set.of(0, 1), 1), "one of the two in transit is still missing");
        lines.keptInTransit(1, 1, Map.of(to(0), 5L));
        assertTrue(lines.complete(Set.of(0, 1), 1));
    }

    @Test
    void aSurvivorThatNeverRestartedHasEverythingInItsLog() {
        RecoveryLines lines = new RecoveryLines(2, 2);
        lines.published(0, 1, Map.of(), null, Map.of(to(1), 5L));
        lines.published(1, 1, Map.of(to(0), 3L), null, Map.of());

        assertTrue(lines.complete(Set.of(1), 1), "rank 0 survives and replays 4 and 5 from its log");
    }

    @Test
    void aSurvivorThatRestartedNoLongerLogsWhatItSentBeforeItsRestartLine() {
        RecoveryLines lines = new RecoveryLines(2, 2);
        lines.published(0, 1, Map.of(), null, Map.of(to(1), 5L));
        lines.published(1, 1, Map.of(to(0), 3L), null, Map.of());
        lines.restartedFrom(0, 1); // rank 0's log now starts after message 5

        assertFalse(lines.complete(Set.of(1), 1));
        assertFalse(lines.complete(Set.of(1), 0), "from the beginning rank 1 needs 1 to 5, which no log holds");
        lines.keptInTransit(1, 1, Map.of(to(0), 5L));
        assertTrue(lines.complete(Set.of(1), 1));
    }

    @Test
    void theBeginningIsCompleteWhenEveryRankRestarts() {
        RecoveryLines lines = new RecoveryLines(3, 2);
        lines.published(0, 1, Map.of(), null, Map.of(to(1), 5L));
        lines.restartedFrom(0, 1);

        assertTrue(lines.complete(Set.of(0, 1, 2), 0));
    }

    @Test
    void aMessageReceivedBeforeTheLineButSentAfterItIsHeld() {
        RecoveryLines lines = new RecoveryLines(2, 2);
        lines.published(0, 1, Map.of(), null, Map.of(to(1), 2L));
        lines.published(1, 1, Map.of(to(0), 3L), null, Map.of()); // an orphan: sent again, dropped as a duplicate

        assertTrue(lines.complete(Set.of(0, 1), 1));
    }

    @Test
    void aLineWhoseSentCountsAreUnknownIsNeverTakenAsComplete() {
        RecoveryLines lines = new RecoveryLines(2, 2);
        lines.published(0, 1, Map.of());
        lines.published(1, 1, Map.of(), null, Map.of());

        assertFalse(lines.complete(Set.of(0, 1), 1));
        assertFalse(lines.complete(Set.of(0, 1), 2), "no rank wrote line 2");
    }

    @Test
    void channelsAreTakenPerContextAndOnlyTowardsTheGroup() {
        RecoveryLines lines = new RecoveryLines(3, 2);
        int collective = 1;
        lines.published(
                0, 1, Map.of(), null, Map.of(ChannelKey.of(collective, 1), 2L, to(2), 9L)); // to rank 2: outside
        lines.published(1, 1, Map.of(ChannelKey.of(collective, 0), 1L, to(0), 7L), null, Map.of());

        assertFalse(lines.complete(Set.of(0, 1), 1), "the collective context lacks one");
        lines.keptInTransit(1, 1, Map.of(ChannelKey.of(collective, 0), 2L));
        assertTrue(lines.complete(Set.of(0, 1), 1));
    }

    @Test
    void allCompleteMovesUpPastLinesThatStayedIncompleteAndOnlyToLinesEveryRankKeeps() {
        RecoveryLines lines = new RecoveryLines(3, 2);
        for (long l = 1; l <= 50; l++) {
            // Rank 0 had sent 5 a line to rank 1, which had received all but the last: never kept.
            lines.published(0, l, Map.of(), null, Map.of(to(1), 5 * l));
            lines.published(1, l, Map.of(to(0), 5 * l - 1), null, Map.of());
            lines.published(2, l, Map.of(), null, Map.of());
        }
        assertEquals(0, lines.allComplete());

        lines.published(0, 51, Map.of(), null, Map.of(to(1), 255L));
        lines.published(1, 51, Map.of(to(0), 255L), null, Map.of());
        assertEquals(0, lines.allComplete(), "rank 2 has not written line 51");
        assertFalse(lines.complete(Set.of(0, 1, 2), 51), "a member without the line, though sent nothing");
        lines.published(2, 51, Map.of(), null, Map.of());
        assertEquals(51, lines.allComplete());

        lines.published(0, 52, Map.of(), null, Map.of(to(1), 260L));
        lines.published(1, 52, Map.of(to(0), 259L), null, Map.of());
        lines.published(2, 52, Map.of(), null, Map.of());
        assertEquals(51, lines.allComplete(), "line 52 lacks message 260");
        lines.keptInTransit(1, 52, Map.of(to(0), 260L));
        assertEquals(52, lines.allComplete());
    }
}
