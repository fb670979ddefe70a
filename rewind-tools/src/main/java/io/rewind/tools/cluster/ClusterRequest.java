package io.rewind.tools.cluster;

/**
 * What clustering to compute.
 *
 * @param clusters       number of clusters wanted, or 0 when {@code maxClusterSize} decides
 * @param maxClusterSize largest cluster allowed in ranks, or 0 when {@code clusters} decides
 * @param keepTogether   groups of ranks that must not be split (the ranks of one node), or
 *                       null for none
 * @param balanced       after minimising the logged volume, lower the largest per-rank log
 * @param seed           seed of the partitioner's random choices (results are reproducible)
 */
public record ClusterRequest(int clusters, int maxClusterSize, Clustering keepTogether, boolean balanced, long seed) {

    public ClusterRequest {
        if ((clusters > 0) == (maxClusterSize > 0)) {
            throw new IllegalArgumentException("give exactly one of a cluster count or a maximum cluster size");
        }
    }

    public static ClusterRequest intoClusters(int k) {
        return new ClusterRequest(k, 0, null, false, 1);
    }

    public static ClusterRequest withMaxSize(int size) {
        return new ClusterRequest(0, size, null, false, 1);
    }

    public ClusterRequest keeping(Clustering groups) {
        return new ClusterRequest(clusters, maxClusterSize, groups, balanced, seed);
    }

    public ClusterRequest balanced(boolean on) {
        return new ClusterRequest(clusters, maxClusterSize, keepTogether, on, seed);
    }

    public ClusterRequest seeded(long s) {
        return new ClusterRequest(clusters, maxClusterSize, keepTogether, balanced, s);
    }
}
