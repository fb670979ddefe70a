package io.rewind.ft.mcml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rewind.ft.ProtocolReports;
import io.rewind.ft.ProtocolServices;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class McmlProtocolTest {
    private static McmlProtocol started(int ranks) {
        McmlProtocol p = new McmlProtocol();
        p.start(new ProtocolServices(
                ranks,
                2,
                PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                        .quotaBytes(1024)
                        .build(),
                true,
                r -> null,
                new RecoveryLines(ranks, 2),
                ProtocolReports.NONE,
                io.rewind.ft.ProtocolOptions.NONE));
        return p;
    }

    private static long[] switchOff(McmlProtocol p, int from, int to, int toIncarnation) {
        return p.onReport(from, 0, new long[] {McmlProtocol.SWITCH_OFF, to, toIncarnation});
    }

    @Test
    void aChainReachesEveryRankWhoseChannelToARolledBackRankIsOff() {
        // The paper's figure 5: Y fails; Z's channel to Y is off, and X's channel to Z: set 3, chain 2.
        int w = 0;
        int x = 1;
        int y = 2;
        int z = 3;
        boolean[][] off = new boolean[4][4];
        off[z][y] = true;
        off[x][z] = true;
        off[y][w] = true; // from a rolled-back rank to a healthy one: W does not roll back for it
        io.rewind.ft.RollbackChains.Chain c = io.rewind.ft.RollbackChains.rollbackSet(Set.of(y), off);
        assertEquals(Set.of(x, y, z), c.ranks());
        assertEquals(Set.of(x, z), c.dragged());
        assertEquals(2, c.depth());
        io.rewind.ft.RollbackChains.Chain fromW = io.rewind.ft.RollbackChains.rollbackSet(Set.of(w), off);
        assertEquals(Set.of(w, x, y, z), fromW.ranks(), "Y's channel to W is off, and the chain goes on from Y");
        assertEquals(3, fromW.depth());
        assertEquals(
                Set.of(x),
                io.rewind.ft.RollbackChains.rollbackSet(Set.of(x), off).ranks());
    }

    @Test
    void aSwitchOffIsRefusedWhileItsDestinationIsBeingRecoveredFromTheLog() {
        McmlProtocol p = started(3);
        assertArrayEquals(new long[] {1}, switchOff(p, 0, 1, 0));
        p.onRollback(new RecoveryPlan(Set.of(2), 1, false, List.of()));
        assertArrayEquals(new long[] {0}, switchOff(p, 0, 2, 0), "rank 2 is restarting");
        assertArrayEquals(new long[0], p.onReport(2, 1, new long[] {McmlProtocol.STARTED}));
        assertArrayEquals(new long[] {0}, switchOff(p, 0, 2, 0), "rank 0 has not served incarnation 1 yet");
        assertArrayEquals(new long[] {1}, switchOff(p, 0, 2, 1));
        assertArrayEquals(new long[] {1, 2}, p.onReport(0, 1, new long[] {McmlProtocol.STARTED}), "stays off");
        assertArrayEquals(new long[] {1}, switchOff(p, 1, 1, 0), "to itself too (what it sends itself is redone)");
        assertEquals(3, p.switchOffs().size());
    }

    @Test
    void aPlanRefusesSwitchOffsTowardsItsRanksFromTheMomentItIsMade() {
        McmlProtocol p = started(3);
        p.plan(Set.of(2), view(3));
        assertArrayEquals(new long[] {0}, switchOff(p, 0, 2, 0), "before the runtime restarts rank 2");
    }

    private static io.rewind.ft.RecoveryView view(int ranks) {
        return new io.rewind.ft.RecoveryView() {
            @Override
            public int ranks() {
                return ranks;
            }

            @Override
            public long newestLine(int rank) {
                return 0;
            }

            @Override
            public long newestCommonLine(java.util.Collection<Integer> set, long atMost) {
                return 0;
            }

            @Override
            public boolean complete(java.util.Collection<Integer> group, long line) {
                return true; // nothing was sent before the beginning
            }
        };
    }

    @Test
    void aCrashRollsBackItsChainFromOneLine() {
        McmlProtocol p = started(3);
        switchOff(p, 1, 2, 0);
        RecoveryPlan plan = p.plan(Set.of(2), new io.rewind.ft.RecoveryView() {
            @Override
            public int ranks() {
                return 3;
            }

            @Override
            public long newestLine(int rank) {
                return 0;
            }

            @Override
            public long newestCommonLine(java.util.Collection<Integer> ranks, long atMost) {
                return 0;
            }

            @Override
            public boolean complete(java.util.Collection<Integer> group, long line) {
                return true; // nothing was sent before the beginning
            }
        });
        assertEquals(Set.of(1, 2), plan.rollback());
        assertEquals(1, plan.notes().size());
    }
}
