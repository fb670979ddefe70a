package io.rewind.tools.plan;

import io.rewind.tools.cluster.ClusterRequest;
import io.rewind.tools.cluster.Clusterer;
import io.rewind.tools.cluster.Clustering;
import io.rewind.tools.cluster.ClusteringMetrics;
import io.rewind.tools.profile.CommMatrix;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * The configuration procedure of "Addressing the last roadblock for message logging in HPC"
 * (section 4.6), automated:
 *
 * <ol>
 *   <li>the profile gives the communication pattern, assumed steady over the run;</li>
 *   <li>for each candidate number of clusters (nodes kept whole) the partitioner gives the
 *       clustering with the least logged volume and so each rank's log rate;</li>
 *   <li>for each memory quota, what a rank dumps to logger nodes during the run sets how many
 *       loggers are needed: a run dumps as soon as a log passes three quarters of its quota, and a
 *       dump may take up to half of it, so a rank that logs more than the threshold keeps at least
 *       a quarter of its quota and dumps at most the rest of what it logs (an upper bound: the
 *       loggers must hold the worst case, or the last dumps find them full);</li>
 *   <li>options needing more loggers than allowed are infeasible; among the rest the planner
 *       picks the smallest restart fraction (best failure containment), then the smallest
 *       quota, then the fewest loggers.</li>
 * </ol>
 */
public final class LoggerPlanner {

    private LoggerPlanner() {}

    /** Share of its quota at which a rank starts dumping (the runtime's {@code LoggerConfig}). */
    static final double DUMP_THRESHOLD = 0.75;

    /** The least share of its quota a dumping rank keeps: the threshold less the largest dump (half). */
    static final double KEPT_AFTER_DUMPS = 0.25;

    public static LoggerPlan plan(CommMatrix m, PlanRequest request) {
        int n = m.ranks();
        int nodes = (n + request.ranksPerNode() - 1) / request.ranksPerNode();
        int maxLoggers = (int) Math.floor(request.maxLoggerFraction() * nodes + 1e-9);
        Clustering nodeGroups = Clustering.blocksOf(n, request.ranksPerNode());
        TreeSet<Integer> counts = new TreeSet<>();
        if (request.clusterCounts().length == 0) {
            for (int k = 1; k <= nodes; k *= 2) {
                counts.add(k);
            }
            counts.add(nodes);
            counts.add(n);
        } else {
            for (int k : request.clusterCounts()) {
                if (k < 1 || k > n) {
                    throw new IllegalArgumentException("cluster count " + k + " outside [1, " + n + "]");
                }
                counts.add(k);
            }
        }
        double scale = request.runSeconds() / request.profileSeconds();
        List<PlanOption> options = new ArrayList<>();
        // The clustering of each option, by index: a cluster count alone does not say which ranks
        // go together, and a run given the plan's choice must use exactly the measured partition.
        List<Clustering> measuredWith = new ArrayList<>();
        for (int k : counts) {
            Clustering clustering;
            if (k == n) {
                clustering = Clustering.singletons(n);
            } else if (k == 1) {
                clustering = Clustering.contiguous(n, 1);
            } else if (k <= nodes) {
                clustering = Clusterer.cluster(
                        m, ClusterRequest.intoClusters(k).keeping(nodeGroups).seeded(request.seed()));
            } else {
                clustering = Clusterer.cluster(m, ClusterRequest.intoClusters(k).seeded(request.seed()));
            }
            ClusteringMetrics metrics = ClusteringMetrics.of(m, clustering, Double.NaN);
            long[] perRank = ClusteringMetrics.perRankLog(m, clustering);
            for (double quota : request.quotaFractions()) {
                double quotaPerRank = quota * request.nodeMemoryBytes() / request.ranksPerNode();
                double dumped = 0;
                double total = 0;
                double max = 0;
                for (long logged : perRank) {
                    double predicted = logged * scale;
                    total += predicted;
                    max = Math.max(max, predicted);
                    if (predicted > DUMP_THRESHOLD * quotaPerRank) {
                        dumped += predicted - KEPT_AFTER_DUMPS * quotaPerRank;
                    }
                }
                int loggers = (int) Math.ceil(dumped / request.loggerMemoryBytes() - 1e-12);
                options.add(new PlanOption(
                        clustering.count(),
                        metrics.restartFraction(),
                        max,
                        total,
                        quota,
                        quotaPerRank,
                        dumped,
                        loggers,
                        loggers <= maxLoggers));
                measuredWith.add(clustering);
            }
        }
        Comparator<PlanOption> preference = Comparator.comparingDouble(PlanOption::restartFraction)
                .thenComparingDouble(PlanOption::quotaFraction)
                .thenComparingInt(PlanOption::loggers);
        int best = -1;
        for (int i = 0; i < options.size(); i++) {
            PlanOption o = options.get(i);
            if (o.feasible() && (best < 0 || preference.compare(o, options.get(best)) < 0)) {
                best = i;
            }
        }
        return best < 0
                ? new LoggerPlan(nodes, maxLoggers, options, null, null)
                : new LoggerPlan(nodes, maxLoggers, options, options.get(best), measuredWith.get(best));
    }
}
