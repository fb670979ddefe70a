package io.rewind.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class HeldLinesTest {
    @Test
    void aLostNodeTakesTheLinesOnlyItHeld() {
        HeldLines held = new HeldLines(2, 3, false);
        held.written(0, 1, List.of("a", "b"), new long[] {4, 0});
        held.written(0, 2, List.of("a"), new long[] {6, 0});
        held.written(1, 1, List.of("b", "a"), new long[2]);
        held.written(1, 2, List.of("b", "a"), new long[2]);

        assertEquals(2, held.newestCommonLine(List.of(0, 1), Long.MAX_VALUE));
        held.nodeLost("a");

        assertEquals(1, held.newestCommonLine(List.of(0, 1), Long.MAX_VALUE));
        assertTrue(held.canRestore(0, 1, "b"));
        assertFalse(held.canRestore(0, 1, "a"));
        assertFalse(held.canRestore(0, 2, "b"));
        assertTrue(held.canRestore(0, 0, "anywhere"));
        assertArrayEquals(new long[] {4, 0}, held.output(0, 1));
    }

    @Test
    void aLineWhoseHoldersWereAllLostSinceCountsForNothing() {
        HeldLines held = new HeldLines(1, 2, false);
        held.written(0, 1, List.of("a"), new long[2]);
        held.written(0, 2, List.of(), new long[2]);
        assertEquals(1, held.newestCommonLine(List.of(0), Long.MAX_VALUE));
    }

    @Test
    void aSharedFolderKeepsEveryLineWhateverTheNodes() {
        HeldLines held = new HeldLines(1, 2, true);
        held.written(0, 1, List.of("a"), new long[2]);
        held.nodeLost("a");
        assertTrue(held.canRestore(0, 1, "b"));
        assertEquals(1, held.newestCommonLine(List.of(0), Long.MAX_VALUE));
    }

    @Test
    void onlyTheKeptNumberOfLinesRemainAndDiscardsCutTheNewest() {
        HeldLines held = new HeldLines(1, 2, false);
        for (long line = 1; line <= 4; line++) {
            held.written(0, line, List.of("a"), new long[2]);
        }
        assertEquals(
                List.of(3L, 4L),
                List.copyOf(new java.util.TreeSet<>(held.lines(0).keySet())));
        assertEquals(3, held.newestCommonLine(List.of(0), 3));
        held.discardAfter(0, 3);
        assertEquals(3, held.newestCommonLine(List.of(0), Long.MAX_VALUE));
        held.unusable(0, 3);
        assertEquals(0, held.newestCommonLine(List.of(0), Long.MAX_VALUE));
    }
}
