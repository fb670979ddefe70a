package io.rewind.tools.plan;

/**
 * Inputs of the logger-node planner. Sizes in bytes, times in seconds.
 *
 * @param ranksPerNode       ranks sharing a node (kept in one cluster: a node crash kills them all)
 * @param nodeMemoryBytes    memory of one node
 * @param runSeconds         how long logs accumulate: the checkpoint period, after which logs are freed
 * @param profileSeconds     length of the profiled run the byte counts come from
 * @param quotaFractions     candidate shares of node memory given to the log (e.g. 0.05 .. 0.25)
 * @param clusterCounts      candidate cluster counts; empty means 1, 2, 4, ... up to one per node
 * @param maxLoggerFraction  loggers allowed, as a share of the compute nodes (0.10 in the paper)
 * @param loggerMemoryBytes  log capacity of one logger node
 * @param seed               partitioner seed
 */
public record PlanRequest(
        int ranksPerNode,
        double nodeMemoryBytes,
        double runSeconds,
        double profileSeconds,
        double[] quotaFractions,
        int[] clusterCounts,
        double maxLoggerFraction,
        double loggerMemoryBytes,
        long seed) {

    public static final double[] DEFAULT_QUOTAS = {0.05, 0.10, 0.15, 0.20, 0.25};

    public PlanRequest {
        if (ranksPerNode < 1) {
            throw new IllegalArgumentException("ranksPerNode must be >= 1");
        }
        if (!(nodeMemoryBytes > 0 && runSeconds > 0 && profileSeconds > 0 && loggerMemoryBytes > 0)) {
            throw new IllegalArgumentException(
                    "node memory, run length, profile length and logger memory must be positive");
        }
        if (!(maxLoggerFraction >= 0 && maxLoggerFraction <= 1)) {
            throw new IllegalArgumentException("maxLoggerFraction must be in [0, 1]");
        }
        for (double q : quotaFractions) {
            if (!(q > 0 && q <= 1)) {
                throw new IllegalArgumentException("memory quota fractions must be in (0, 1]: " + q);
            }
        }
    }
}
