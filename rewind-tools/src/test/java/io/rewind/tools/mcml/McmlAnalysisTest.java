package io.rewind.tools.mcml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.tools.profile.CommMatrix;
import java.util.List;
import org.junit.jupiter.api.Test;

class McmlAnalysisTest {

    /**
     * Hand-computed case. Rank 0 sends 0->1: 60, 0->2: 30, 0->3: 10 (total 100, the largest log).
     * Rank 1 sends 1->0: 40. Rank 3 sends 3->1: 50.
     * theta = 50 %: budget 50. Rank 0 (100 > 50) switches off 0->1 (heaviest), left 40 <= 50.
     * Ranks 1 and 3 stay within budget. Off channels: 0->1 only.
     * Failure of 1 forces 0 (0->1 unlogged): set {1,0} = 2, chain 1. Other failures: set 1.
     * Average set = (1 + 2 + 1 + 1) / 4 = 1.25 ranks; average chain = 0.25.
     */
    @Test
    void heaviestLinkFirstOnAHandComputedCase() {
        CommMatrix m = new CommMatrix.Builder(4)
                .add(0, 1, 60, 1)
                .add(0, 2, 30, 1)
                .add(0, 3, 10, 1)
                .add(1, 0, 40, 1)
                .add(3, 1, 50, 1)
                .build();
        McmlAnalysis a = McmlAnalysis.run(m, new double[] {50}, List.of(new SwitchOffStrategy.HeaviestLinkFirst()));
        McmlAnalysis.Row row = a.rows().get(0);
        assertEquals(100, a.fullLogMaxBytes());
        assertEquals(50, row.thresholdBytes());
        assertEquals(1, row.channelsOff());
        assertEquals(50, row.maxLogBytes(), "rank 0 keeps 40, rank 3 keeps its 50");
        assertEquals(1.25 / 4 * 100, row.rollback().avgSetPercent(), 1e-12);
    }

    @Test
    void rollbackSetAndChainOnAHandComputedCase() {
        CommMatrix m = new CommMatrix.Builder(4)
                .add(0, 1, 60, 1)
                .add(0, 2, 30, 1)
                .add(0, 3, 10, 1)
                .add(1, 0, 40, 1)
                .add(3, 1, 50, 1)
                .build();
        ChannelSwitchOff s = ChannelSwitchOff.apply(m, 50, new SwitchOffStrategy.HeaviestLinkFirst());
        assertTrue(s.off()[m.firstChannel(0)], "0->1 off");
        assertFalse(s.off()[m.firstChannel(0) + 1], "0->2 still logged");
        RollbackAnalysis r = RollbackAnalysis.of(m, s.off());
        assertEquals(1.25, r.avgSetSize(), 1e-12);
        assertEquals(0.25, r.avgChainLength(), 1e-12);
        assertEquals(2, r.maxSetSize());
        assertEquals(31.25, r.avgSetPercent(), 1e-12);
    }

    /** The paper's figure 5 shape: W -> Z -> Y unlogged, X logged. Failure of Y: set 3, chain 2. */
    @Test
    void chainOfForcedRollbacks() {
        int w = 0;
        int x = 1;
        int y = 2;
        int z = 3;
        CommMatrix m = new CommMatrix.Builder(4)
                .add(z, y, 10, 1)
                .add(w, z, 10, 1)
                .add(x, y, 10, 1)
                .build();
        boolean[] off = new boolean[m.channelCount()];
        off[m.firstChannel(z)] = true; // z -> y
        off[m.firstChannel(w)] = true; // w -> z
        RollbackAnalysis r = RollbackAnalysis.of(m, off);
        // failures: w -> {w}; x -> {x}; y -> {y, z, w} chain 2; z -> {z, w} chain 1
        assertEquals((1 + 1 + 3 + 2) / 4.0, r.avgSetSize(), 1e-12);
        assertEquals((0 + 0 + 2 + 1) / 4.0, r.avgChainLength(), 1e-12);
        assertEquals(3, r.maxSetSize());
    }

    @Test
    void dendrogramStrategySwitchesOffNearChannelsFirst() {
        // Rank 5 of 8 sends 100 to 0 (far) and 30 to 4 (its pair) and 20 to 6 (same half).
        CommMatrix m = new CommMatrix.Builder(8)
                .add(5, 0, 100, 1)
                .add(5, 4, 30, 1)
                .add(5, 6, 20, 1)
                .build();
        SwitchOffStrategy nearest = new SwitchOffStrategy.DendrogramNearestFirst(Dendrogram.contiguous(8));
        ChannelSwitchOff s = ChannelSwitchOff.apply(m, 110, nearest);
        // Over budget by 40: [4-5] first (30, still 120 > 110), then [4-7] (20, 100 <= 110).
        assertEquals(2, s.channelsSwitchedOff());
        assertEquals(100, s.loggedPerRank()[5]);
        ChannelSwitchOff h = ChannelSwitchOff.apply(m, 110, new SwitchOffStrategy.HeaviestLinkFirst());
        assertEquals(1, h.channelsSwitchedOff());
        assertEquals(50, h.loggedPerRank()[5]);
    }

    @Test
    void contiguousDendrogramMatchesThePapersExample() {
        Dendrogram d = Dendrogram.contiguous(8);
        assertEquals(2, d.commonDepth(5, 4));
        assertEquals(1, d.commonDepth(5, 7));
        assertEquals(0, d.commonDepth(5, 0));
    }

    /**
     * 8 cliques of 8 ranks in a ring: each rank sends 100 to each clique mate (700) and 300 to
     * its mirror in the next clique. Heaviest-first drops the cross-clique links first, chaining
     * rollbacks around the ring; nearest-first drops links inside the clique and keeps every
     * rollback inside it.
     */
    @Test
    void clusteredCodesFavourTheDendrogramAndHigherThresholdsNeverHurt() {
        CommMatrix.Builder b = new CommMatrix.Builder(64);
        for (int r = 0; r < 64; r++) {
            int base = r / 8 * 8;
            for (int mate = base; mate < base + 8; mate++) {
                if (mate != r) {
                    b.add(r, mate, 100, 1);
                }
            }
            b.add(r, (r + 8) % 64, 300, 1);
        }
        CommMatrix m = b.build();
        double[] thetas = {30, 50, 70, 90};
        McmlAnalysis heaviest = McmlAnalysis.run(m, thetas, List.of(new SwitchOffStrategy.HeaviestLinkFirst()));
        McmlAnalysis dendro = McmlAnalysis.run(
                m, thetas, List.of(new SwitchOffStrategy.DendrogramNearestFirst(Dendrogram.fromCommunication(m, 3))));
        assertTrue(heaviest.rows().get(1).rollback().avgSetSize() > 8, "rollbacks cross cliques");
        for (int i = 0; i < thetas.length; i++) {
            McmlAnalysis.Row h = heaviest.rows().get(i);
            McmlAnalysis.Row d = dendro.rows().get(i);
            assertTrue(d.rollback().maxSetSize() <= 8, "nearest-first stays inside a clique at theta " + thetas[i]);
            assertTrue(d.maxLogBytes() <= d.thresholdBytes());
            assertTrue(h.maxLogBytes() <= h.thresholdBytes());
            if (i > 0) {
                assertTrue(h.rollback().avgSetSize()
                        <= heaviest.rows().get(i - 1).rollback().avgSetSize());
                assertTrue(d.rollback().avgSetSize()
                        <= dendro.rows().get(i - 1).rollback().avgSetSize());
            }
        }
        assertTrue(dendro.rows().get(1).rollback().avgChainLength()
                < heaviest.rows().get(1).rollback().avgChainLength());
    }
}
