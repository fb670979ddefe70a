package io.rewind.tools.cluster;

import io.rewind.tools.profile.CommMatrix;

/**
 * The analysis `rewind analyze cluster` prints: the requested clustering against the naive
 * contiguous blocks with the same number of clusters.
 *
 * @param clustering the computed clustering
 * @param computed   its metrics
 * @param contiguous metrics of contiguous blocks with the same cluster count
 * @param balanced   whether the balanced (min-max log) variant was used
 */
public record ClusterComparison(
        Clustering clustering, ClusteringMetrics computed, ClusteringMetrics contiguous, boolean balanced) {

    public static ClusterComparison run(CommMatrix m, ClusterRequest request, double durationSeconds) {
        Clustering c = Clusterer.cluster(m, request);
        Clustering naive = Clusterer.contiguous(m.ranks(), request);
        return new ClusterComparison(
                c,
                ClusteringMetrics.of(m, c, durationSeconds),
                ClusteringMetrics.of(m, naive, durationSeconds),
                request.balanced());
    }
}
