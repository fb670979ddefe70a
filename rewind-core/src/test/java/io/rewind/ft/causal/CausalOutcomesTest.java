package io.rewind.ft.causal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rewind.ft.RecoveryLines;
import java.util.List;
import org.junit.jupiter.api.Test;

class CausalOutcomesTest {
    @Test
    void aLoopOfPollsTravelsAsOneGrowingRunAndIsRepeatedPollByPoll() {
        CausalOutcomes first = new CausalOutcomes(0, 0, 2, new RecoveryLines(2, 2));
        long[][] outcomes = {{}, {}, {}, {}, {}, {1}, {}, {}};
        for (int i = 0; i < 3; i++) {
            first.polled(i, outcomes[i]);
        }
        List<Determinant> sent = DeterminantStore.decode(first.piggybackFor(1));
        assertEquals(1, sent.size(), "three unsuccessful polls: one run");
        assertEquals(3, sent.get(0).events());
        for (int i = 3; i < outcomes.length; i++) {
            first.polled(i, outcomes[i]);
        }
        List<Determinant> next = DeterminantStore.decode(first.piggybackFor(1));
        assertEquals(3, next.size(), "the first run, grown to five, then {1}, then a new run: " + next);
        assertEquals(5, next.get(0).events());
        assertEquals(8, first.figures()[0], "one determinant made per poll");

        // Rank 1 held what rank 0 sent; rank 0's next incarnation is given it back.
        DeterminantStore atOne = new DeterminantStore(1, 2);
        atOne.received(DeterminantStore.encode(sent));
        atOne.received(DeterminantStore.encode(next));
        CausalOutcomes restarted = new CausalOutcomes(0, 1, 2, new RecoveryLines(2, 2));
        restarted.answered(1, atOne.of(0));
        for (int i = 0; i < outcomes.length; i++) {
            assertArrayEquals(outcomes[i], restarted.forcedPoll(i), "poll " + i);
        }
        assertNull(restarted.forcedPoll(outcomes.length), "past what was recorded it runs freely");
    }
}
