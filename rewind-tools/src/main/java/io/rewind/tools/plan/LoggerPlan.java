package io.rewind.tools.plan;

import io.rewind.tools.cluster.Clustering;
import java.util.List;

/**
 * The planner's answer.
 *
 * @param nodes        compute nodes
 * @param maxLoggers   loggers allowed
 * @param options      every (clustering, quota) pair, clusters ascending then quota ascending
 * @param chosen       the recommended option, or null when none is feasible
 * @param chosenClustering the clustering the chosen option was measured with (what a run must be
 *                     given to log what the plan predicts), or null when none is feasible
 */
public record LoggerPlan(
        int nodes, int maxLoggers, List<PlanOption> options, PlanOption chosen, Clustering chosenClustering) {}
