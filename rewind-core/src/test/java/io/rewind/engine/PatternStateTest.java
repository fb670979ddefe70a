package io.rewind.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.transport.local.InJvmTransport;
import org.junit.jupiter.api.Test;

/**
 * The pattern bookkeeping of a rank: ids in declaration order, iteration ids counted per pattern,
 * misuse refused without changing anything, and the state a checkpoint saves and a restarted rank
 * restores (whether it declares its patterns before or after restoring).
 */
class PatternStateTest {

    @Test
    void idsFollowDeclarationOrderAndIterationsCountFromOne() {
        PatternState s = new PatternState();
        assertEquals(0, s.activePatternId());
        assertEquals(1, s.declare());
        assertEquals(2, s.declare());
        assertEquals(0, s.iteration(1));
        s.begin(2);
        assertEquals(2, s.activePatternId());
        assertEquals(1, s.iteration(2));
        assertEquals(PatternState.pack(2, 1), s.active());
        s.end(2);
        assertEquals(0, s.active());
        s.begin(2);
        s.end(2);
        s.begin(1);
        assertEquals(PatternState.pack(1, 1), s.active());
        s.end(1);
        assertEquals(2, s.iteration(2));
        assertEquals(1, s.iteration(1));
    }

    @Test
    void misuseIsRefusedAndChangesNothing() {
        PatternState s = new PatternState();
        assertThrows(IllegalArgumentException.class, () -> s.begin(1), "nothing declared yet");
        int a = s.declare();
        int b = s.declare();
        assertThrows(IllegalArgumentException.class, () -> s.begin(0), "0 is the default pattern, not a declared one");
        assertThrows(IllegalArgumentException.class, () -> s.begin(3));
        assertThrows(IllegalArgumentException.class, () -> s.end(-1));
        assertThrows(IllegalArgumentException.class, () -> s.iteration(7));
        IllegalStateException none = assertThrows(IllegalStateException.class, () -> s.end(a));
        assertTrue(none.getMessage().contains("no pattern is active"), none.getMessage());
        s.begin(a);
        int[] before = s.save();
        IllegalStateException nested = assertThrows(IllegalStateException.class, () -> s.begin(b));
        assertTrue(nested.getMessage().contains("do not nest"), nested.getMessage());
        assertThrows(IllegalStateException.class, () -> s.begin(a), "an active pattern cannot begin again");
        assertThrows(IllegalStateException.class, () -> s.end(b), "b is not the active pattern");
        assertArrayEquals(before, s.save());
        assertEquals(PatternState.pack(a, 1), s.active());
        assertEquals(0, s.iteration(b));
        s.end(a);
        assertEquals(0, s.active());
    }

    @Test
    void aRestoredRankContinuesTheIterationIdsWhetherItDeclaresBeforeOrAfterRestoring() {
        PatternState original = new PatternState();
        int p = original.declare();
        int q = original.declare();
        for (int i = 0; i < 5; i++) {
            original.begin(p);
            original.end(p);
        }
        original.begin(q);
        original.end(q);
        int[] saved = original.save();

        PatternState declaredFirst = new PatternState();
        assertEquals(p, declaredFirst.declare());
        assertEquals(q, declaredFirst.declare());
        declaredFirst.restore(saved);
        declaredFirst.begin(p);
        assertEquals(6, declaredFirst.iteration(p));
        declaredFirst.end(p);

        PatternState restoredFirst = new PatternState();
        restoredFirst.restore(saved);
        assertThrows(IllegalArgumentException.class, () -> restoredFirst.begin(p), "restoring declares nothing");
        assertEquals(p, restoredFirst.declare());
        assertEquals(q, restoredFirst.declare(), "declaring again keeps the restored counters");
        assertEquals(1, restoredFirst.iteration(q));
        restoredFirst.begin(p);
        assertEquals(PatternState.pack(p, 6), restoredFirst.active());
        assertEquals(3, restoredFirst.declare(), "a pattern the checkpoint did not know starts afresh");
        assertEquals(0, restoredFirst.iteration(3));
    }

    @Test
    void aCheckpointInsideAnIterationResumesInThatIteration() {
        PatternState original = new PatternState();
        int p = original.declare();
        original.begin(p);
        original.end(p);
        original.begin(p); // the checkpoint is taken here, in iteration 2
        int[] saved = original.save();

        // The program begins the iteration again on its way back to the checkpoint point: id 2 again.
        PatternState again = new PatternState();
        again.declare();
        again.restore(saved);
        assertEquals(PatternState.pack(p, 2), again.active());
        again.begin(p);
        assertEquals(PatternState.pack(p, 2), again.active());
        again.resumed();
        assertThrows(IllegalStateException.class, () -> again.begin(p), "past the resume point, no more nesting");
        again.end(p);
        again.begin(p);
        assertEquals(3, again.iteration(p));

        // The iteration had begun before the restore path: it is active at the resume point as it was.
        PatternState spanning = new PatternState();
        spanning.declare();
        spanning.restore(saved);
        spanning.resumed();
        assertEquals(PatternState.pack(p, 2), spanning.active());
        spanning.end(p);
        assertEquals(0, spanning.active());
    }

    @Test
    void theEngineTellsProtocolsWhetherAPatternIsActive() {
        RankEngine e = new RankEngine(0, 1, new InJvmTransport(1), EngineConfig.forRanks(1), () -> {});
        assertFalse(e.inPattern());
        int p = e.patterns().declare();
        e.patterns().begin(p);
        assertTrue(e.inPattern());
        assertEquals(p, e.activePatternId());
        assertEquals(1, e.activeIterationId());
        assertEquals(0, e.patternStamp(e.world().context() | 1), "collective contexts stay in the default pattern");
        e.patterns().end(p);
        assertFalse(e.inPattern());
        assertEquals(0, e.activeIterationId());
    }
}
