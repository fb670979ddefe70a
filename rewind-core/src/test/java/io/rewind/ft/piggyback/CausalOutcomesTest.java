package io.rewind.ft.piggyback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rewind.engine.FaultTolerance.ForcedMatch;
import io.rewind.engine.Frame;
import io.rewind.ft.RecoveryLines;
import java.lang.foreign.MemorySegment;
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

    /**
     * Rank 0 restarts and repeats outcomes that rank 1 held; rank 1 then rolls back with rank 0's next
     * failure. Rank 2 depends on the repeated outcomes through rank 0's frames, so it must hold them:
     * else rank 0's next incarnation runs those events freely, a survivor depends on what it did
     * before, and a later forced outcome waits for a message that never comes (a hang seen under mcml).
     */
    @Test
    void aRestartedRankPassesTheOutcomesItRepeatsOnToWhomeverItSendsTo() {
        int ranks = 3;
        Frame fromOne = frame(1, 0, 1);
        CausalOutcomes first = new CausalOutcomes(0, 0, ranks, new RecoveryLines(ranks, 2));
        first.wildcardMatched(0, fromOne);
        DeterminantStore atOne = new DeterminantStore(1, ranks);
        atOne.received(first.piggybackFor(1));

        CausalOutcomes second = new CausalOutcomes(0, 1, ranks, new RecoveryLines(ranks, 2));
        second.answered(1, atOne.of(0));
        assertEquals(1, second.forcedWildcard(0).source());
        second.wildcardMatched(1, frame(2, 0, 1)); // past the repeated outcome: a new one
        DeterminantStore atTwo = new DeterminantStore(2, ranks);
        atTwo.received(second.piggybackFor(2));

        CausalOutcomes third = new CausalOutcomes(0, 2, ranks, new RecoveryLines(ranks, 2));
        third.answered(2, atTwo.of(0)); // rank 1 rolled back too: only rank 2 answers
        ForcedMatch repeated = third.forcedWildcard(0);
        assertNotNull(repeated, "the outcome incarnation 1 repeated is lost with rank 1");
        assertEquals(1, repeated.source());
        assertEquals(1, repeated.sequence());
        assertEquals(2, third.forcedWildcard(1).source(), "the outcome incarnation 1 made");
    }

    /**
     * What {@code RandomSpmd 421 50} under mcml pointed to (rank 1 killed, then rank 0): rank 0 made forty
     * failed polls and sent them to rank 1, whose incarnation then died; a frame it sent next reached rank
     * 1's new incarnation before rank 0 handled its rollback request, carrying only the polls since
     * (a run from poll 40). Rank 0 then crashed. Its next incarnation, answered by rank 1 with that
     * tail alone, must not give poll 40's outcome to whatever call is its 40th poll: its first polls run
     * freely (their count depends on timing), so every later one does too.
     */
    @Test
    void outcomesPastAGapAreNotRepeated() {
        CausalOutcomes first = new CausalOutcomes(0, 0, 2, new RecoveryLines(2, 2));
        for (int i = 0; i < 40; i++) {
            first.polled(i, new long[0]);
        }
        first.piggybackFor(1); // to rank 1's incarnation that died
        for (int i = 40; i < 45; i++) {
            first.polled(i, new long[] {1});
        }
        DeterminantStore atOne = new DeterminantStore(1, 2);
        atOne.received(first.piggybackFor(1)); // its new incarnation, before the rollback request was handled

        CausalOutcomes restarted = new CausalOutcomes(0, 1, 2, new RecoveryLines(2, 2));
        restarted.answered(1, atOne.of(0));
        for (int i = 0; i < 45; i++) {
            assertNull(restarted.forcedPoll(i), "poll " + i + " runs freely");
        }
    }

    /**
     * The same gap, closed where it opens: the answer to rank 1's rollback request brings its new
     * incarnation every determinant rank 0 holds, so that a later restart of rank 0 finds all its
     * outcomes at rank 1 and repeats them from the first.
     */
    @Test
    void theAnswerToARollbackRequestBringsEveryDeterminantTheRestartedRankLacks() {
        CausalOutcomes first = new CausalOutcomes(0, 0, 2, new RecoveryLines(2, 2));
        for (int i = 0; i < 40; i++) {
            first.polled(i, new long[0]);
        }
        first.piggybackFor(1); // to rank 1's incarnation that died
        first.polled(40, new long[] {1});
        CausalOutcomes oneRestarted = new CausalOutcomes(1, 1, 2, new RecoveryLines(2, 2));
        oneRestarted.onPiggyback(frameCarrying(first.piggybackFor(1))); // only poll 40
        first.peerRestarted(1);
        oneRestarted.answered(0, first.outcomesOf(1));

        CausalOutcomes restarted = new CausalOutcomes(0, 1, 2, new RecoveryLines(2, 2));
        restarted.answered(1, oneRestarted.outcomesOf(0));
        for (int i = 0; i < 40; i++) {
            assertArrayEquals(new long[0], restarted.forcedPoll(i), "poll " + i);
        }
        assertArrayEquals(new long[] {1}, restarted.forcedPoll(40));
        assertNull(restarted.forcedPoll(41), "past what was recorded it runs freely");
    }

    private static Frame frameCarrying(long[] piggyback) {
        Frame f = frame(0, 1, 1);
        f.setPiggyback(piggyback);
        return f;
    }

    private static Frame frame(int source, int destination, long sequence) {
        return new Frame(
                0, source, source, destination, 3, sequence, 0, MemorySegment.ofArray(new byte[0]), 0, 0, null);
    }
}
