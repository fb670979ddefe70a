package io.rewind.ft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Cluster layouts: what each spec gives, that specs read back, and that bad ones are refused clearly. */
class ClusterLayoutTest {
    @Test
    void blocksAreContiguousAndDifferInSizeByAtMostOne() {
        assertArrayEquals(
                new int[] {0, 0, 1, 1, 2, 2, 3, 3}, ClusterLayout.blocks(4).assign(8, null));
        assertArrayEquals(new int[] {0, 0, 1, 1, 2}, ClusterLayout.blocks(3).assign(5, null));
        assertArrayEquals(new int[] {0, 0, 0}, ClusterLayout.blocks(1).assign(3, null));
    }

    @Test
    void theDefaultAndEachFitAnyNumberOfRanks() {
        assertArrayEquals(new int[] {0}, ClusterLayout.DEFAULT.assign(1, null));
        assertArrayEquals(new int[] {0, 0, 1, 1}, ClusterLayout.DEFAULT.assign(4, null));
        assertArrayEquals(new int[] {0, 1, 2}, ClusterLayout.EACH_RANK.assign(3, null));
    }

    @Test
    void oneClusterPerNodeNumbersClustersByTheirLowestRank() {
        assertArrayEquals(new int[] {0, 0, 1, 1, 0}, ClusterLayout.perNode().assign(5, new int[] {3, 3, 1, 1, 3}));
        assertArrayEquals(new int[] {0, 0, 0}, ClusterLayout.perNode().assign(3, null)); // threads: one node
    }

    @Test
    void everySpecReadsBackAsTheSameLayout() {
        for (ClusterLayout l : new ClusterLayout[] {
            ClusterLayout.DEFAULT,
            ClusterLayout.EACH_RANK,
            ClusterLayout.blocks(3),
            ClusterLayout.perNode(),
            ClusterLayout.explicit(new int[] {1, 0, 1, 2})
        }) {
            assertEquals(l, ClusterLayout.parse(l.spec()), l.spec());
        }
    }

    @Test
    void badLayoutsAreRefusedWithTheReason() {
        assertMessage("at least 1", () -> ClusterLayout.blocks(0));
        assertMessage("cannot make 4 clusters of 2 ranks", () -> ClusterLayout.blocks(4)
                .assign(2, null));
        assertMessage("no rank is in cluster 1", () -> ClusterLayout.explicit(new int[] {0, 2}));
        assertMessage("negative", () -> ClusterLayout.explicit(new int[] {0, -1}));
        assertMessage("for 3 ranks, the job has 4", () -> ClusterLayout.explicit(new int[] {0, 1, 0})
                .assign(4, null));
        assertMessage("bad cluster layout 'two'", () -> ClusterLayout.parse("two"));
        assertMessage("bad cluster layout 'ranks:0,x'", () -> ClusterLayout.parse("ranks:0,x"));
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable e) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
        assertTrue(x.getMessage().contains(part), x.getMessage());
    }
}
