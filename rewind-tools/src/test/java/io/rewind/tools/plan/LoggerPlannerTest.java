package io.rewind.tools.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.tools.profile.CommMatrix;
import io.rewind.tools.profile.SyntheticProfiles;
import org.junit.jupiter.api.Test;

class LoggerPlannerTest {

    private static final double GB = 1e9;

    /**
     * 4 cliques of 16 ranks (4 nodes of 4 each), clique pairs 1 GB each way per second, cliques
     * joined by light links. With 4 clusters nothing heavy is logged, so the planner picks the
     * best containment (4 clusters) with the smallest quota and no logger.
     */
    @Test
    void picksTheClusteringThatAvoidsLoggingHeavyTraffic() {
        CommMatrix m = SyntheticProfiles.cliques(4, 16, (long) GB, 1000, 0).p2p();
        PlanRequest request =
                new PlanRequest(4, 16 * GB, 600, 1, PlanRequest.DEFAULT_QUOTAS, new int[0], 0.10, 16 * GB, 1);
        LoggerPlan plan = LoggerPlanner.plan(m, request);
        assertEquals(16, plan.nodes());
        assertEquals(1, plan.maxLoggers());
        assertNotNull(plan.chosen());
        assertEquals(4, plan.chosen().clusters());
        assertEquals(0.05, plan.chosen().quotaFraction());
        assertEquals(0, plan.chosen().loggers());
        // Plain message logging logs 15 GB per rank per second: hopeless within the logger budget.
        assertTrue(plan.options().stream().filter(o -> o.clusters() == 64).noneMatch(PlanOption::feasible));
    }

    /**
     * Hand-computed dump: 2 ranks on 2 nodes each logging 10 GB over the run, quota 4 GB per rank: each
     * passes the 3 GB threshold and dumps at most 10 - 1 GB (it keeps at least a quarter of its quota).
     */
    @Test
    void dumpedBytesAndLoggersByHand() {
        CommMatrix m =
                new CommMatrix.Builder(2).add(0, 1, 10, 1).add(1, 0, 10, 1).build();
        PlanRequest request = new PlanRequest(1, 16 * GB, 1e9, 1, new double[] {0.25}, new int[] {2}, 1.0, 5 * GB, 1);
        PlanOption o = LoggerPlanner.plan(m, request).options().get(0);
        assertEquals(4 * GB, o.quotaPerRankBytes(), 1);
        assertEquals(18 * GB, o.dumpedBytes(), 1);
        assertEquals(4, o.loggers());
        assertEquals(false, o.feasible(), "4 loggers for 2 nodes exceeds 100 %");
    }
}
