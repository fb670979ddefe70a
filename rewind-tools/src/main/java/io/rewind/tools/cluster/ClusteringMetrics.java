package io.rewind.tools.cluster;

import io.rewind.tools.profile.CommMatrix;

/**
 * What a clustering costs and saves under hierarchical logging.
 *
 * @param clusters          number of clusters
 * @param maxClusterSize    ranks in the largest cluster
 * @param coverage          intra-cluster bytes over all bytes (the MCML paper's coverage)
 * @param loggedFraction    inter-cluster (logged) bytes over all bytes, {@code 1 - coverage}
 * @param loggedBytes       inter-cluster bytes
 * @param restartFraction   expected fraction of ranks that restart after one rank fails,
 *                          failures equally likely on every rank: sum of |C|^2 over N^2
 * @param maxLogBytes       largest per-rank log (bytes a rank sends out of its cluster)
 * @param avgLogBytes       mean per-rank log
 * @param maxLogBytesPerSec largest per-rank log growth rate, NaN without profile timing
 * @param avgLogBytesPerSec mean per-rank log growth rate, NaN without profile timing
 */
public record ClusteringMetrics(
        int clusters,
        int maxClusterSize,
        double coverage,
        double loggedFraction,
        long loggedBytes,
        double restartFraction,
        long maxLogBytes,
        double avgLogBytes,
        double maxLogBytesPerSec,
        double avgLogBytesPerSec) {

    public static ClusteringMetrics of(CommMatrix m, Clustering c, double durationSeconds) {
        long[] log = perRankLog(m, c);
        long total = m.totalBytes();
        long logged = 0;
        long max = 0;
        for (long v : log) {
            logged += v;
            max = Math.max(max, v);
        }
        int n = m.ranks();
        double restart = 0;
        for (int size : c.sizes()) {
            restart += (double) size * size;
        }
        restart /= (double) n * n;
        double avg = (double) logged / n;
        boolean timed = durationSeconds > 0 && !Double.isNaN(durationSeconds);
        double coverage = total == 0 ? 1.0 : 1.0 - (double) logged / total;
        return new ClusteringMetrics(
                c.count(),
                c.maxSize(),
                coverage,
                1.0 - coverage,
                logged,
                restart,
                max,
                avg,
                timed ? max / durationSeconds : Double.NaN,
                timed ? avg / durationSeconds : Double.NaN);
    }

    /** Bytes each rank would log: what it sends to ranks of other clusters (sender-based logging). */
    public static long[] perRankLog(CommMatrix m, Clustering c) {
        int[] of = c.clusterOf();
        long[] log = new long[m.ranks()];
        for (int s = 0; s < m.ranks(); s++) {
            long sum = 0;
            for (int ch = m.firstChannel(s); ch < m.endChannel(s); ch++) {
                if (of[m.destinationOf(ch)] != of[s]) {
                    sum += m.bytesOf(ch);
                }
            }
            log[s] = sum;
        }
        return log;
    }
}
