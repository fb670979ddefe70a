package io.rewind.tools.plan;

/**
 * One row of the trade-off table.
 *
 * @param clusters          number of clusters (1 = coordinated checkpointing, nothing logged;
 *                          equal to the rank count = plain message logging)
 * @param restartFraction   expected share of ranks restarting after one failure
 * @param maxRankLogBytes   largest predicted per-rank log over the run
 * @param totalLogBytes     predicted log of all ranks over the run
 * @param quotaFraction     share of node memory given to the log
 * @param quotaPerRankBytes log memory per rank
 * @param dumpedBytes       bytes that overflow the quota and go to logger nodes
 * @param loggers           logger nodes needed to hold them
 * @param feasible          loggers within the allowed share of nodes
 */
public record PlanOption(
        int clusters,
        double restartFraction,
        double maxRankLogBytes,
        double totalLogBytes,
        double quotaFraction,
        double quotaPerRankBytes,
        double dumpedBytes,
        int loggers,
        boolean feasible) {}
