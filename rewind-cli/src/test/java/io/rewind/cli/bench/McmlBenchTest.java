package io.rewind.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The figures {@code rewind bench mcml} derives from a run's switched-off channels. */
class McmlBenchTest {

    @Test
    void nothingOffRollsBackOnlyTheFailedRank() {
        McmlBench.Rollbacks r = McmlBench.rollbacks(new boolean[4][4]);
        assertEquals(25.0, r.setPercent(), 1e-9);
        assertEquals(0.0, r.depthPercent(), 1e-9);
    }

    @Test
    void aChainDragsInEveryRankBehindIt() {
        // 3 -> 2 -> 1 -> 0 unlogged: a failure of rank k drags in k+1..3.
        boolean[][] off = new boolean[4][4];
        off[1][0] = true;
        off[2][1] = true;
        off[3][2] = true;
        McmlBench.Rollbacks r = McmlBench.rollbacks(off);
        assertEquals((4 + 3 + 2 + 1) / 4.0, r.setRanks(), 1e-9);
        assertEquals((3 + 2 + 1 + 0) / 4.0, r.depth(), 1e-9);
        assertEquals(62.5, r.setPercent(), 1e-9);
        // The longest chain first, then a rank that rolls back alone.
        assertEquals(List.of(0, 3), McmlBench.killTargets(off, 2));
        assertEquals(List.of(0), McmlBench.killTargets(off, 1));
    }
}
