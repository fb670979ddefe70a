package io.rewind.tools.cluster;

import io.rewind.tools.profile.CommMatrix;
import java.util.Arrays;

/**
 * Computes clusterings for hierarchical logging: min-cut (least logged volume), balanced (then
 * least largest per-rank log) and the naive contiguous baseline, all respecting groups that
 * must stay together.
 *
 * <p>Capacity: with k clusters each may hold ceil(N/k) ranks; when groups make that
 * impossible (say four nodes of 4 ranks into 3 clusters) the limit is raised to the smallest
 * value at which first-fit-decreasing packs the groups into k clusters. With a maximum size s,
 * k is the smallest count at which the groups pack into clusters of s ranks.
 */
public final class Clusterer {

    private Clusterer() {}

    /** Clusters the ranks of {@code m} as requested. */
    public static Clustering cluster(CommMatrix m, ClusterRequest request) {
        Plan plan = plan(m.ranks(), request);
        WeightedGraph g = WeightedGraph.ofGroups(m, plan.groups);
        int[] partOfGroup = plan.k == 1
                ? new int[plan.groups.count()]
                : new RecursivePartitioner(request.seed()).partition(g, plan.k, plan.capacity);
        if (request.balanced() && plan.k > 1) {
            new MaxLogBalancer(m, plan.groups, partOfGroup, plan.k, plan.capacity, request.seed())
                    .balance(20 * plan.groups.count() + 100);
        }
        return expand(plan.groups, partOfGroup);
    }

    /** The naive baseline with the same number of clusters: groups in rank order, cut into contiguous blocks. */
    public static Clustering contiguous(int ranks, ClusterRequest request) {
        Plan plan = plan(ranks, request);
        int[] partOfGroup = new int[plan.groups.count()];
        int[] sizes = plan.groups.sizes();
        long before = 0;
        for (int g = 0; g < sizes.length; g++) {
            partOfGroup[g] = (int) Math.min(plan.k - 1, before * plan.k / ranks);
            before += sizes[g];
        }
        return expand(plan.groups, partOfGroup);
    }

    /**
     * A hierarchical clustering (dendrogram) of the ranks by recursive balanced bisection of the
     * communication graph: element r is rank r's path from the root, one 0/1 step per level.
     * Two ranks whose paths share a longer prefix sit in a smaller common cluster.
     */
    public static int[][] dendrogram(CommMatrix m, long seed) {
        WeightedGraph g = WeightedGraph.ofGroups(m, Clustering.singletons(m.ranks()));
        return new RecursivePartitioner(seed).dendrogram(g);
    }

    /** Number of clusters the request resolves to for {@code ranks} ranks. */
    public static int clusterCount(int ranks, ClusterRequest request) {
        return plan(ranks, request).k;
    }

    private record Plan(Clustering groups, int k, long capacity) {}

    private static Plan plan(int ranks, ClusterRequest request) {
        Clustering groups = request.keepTogether() == null ? Clustering.singletons(ranks) : request.keepTogether();
        if (groups.ranks() != ranks) {
            throw new IllegalArgumentException("groups cover " + groups.ranks() + " ranks, the profile has " + ranks);
        }
        int[] weights = groups.sizes();
        int largest = Arrays.stream(weights).max().orElse(1);
        if (request.clusters() > 0) {
            int k = request.clusters();
            if (k > ranks) {
                throw new IllegalArgumentException("cannot make " + k + " clusters of " + ranks + " ranks");
            }
            if (k > groups.count()) {
                throw new IllegalArgumentException(
                        "cannot make " + k + " clusters from " + groups.count() + " groups that must stay together");
            }
            long capacity = Math.max(largest, (ranks + k - 1) / k);
            while (!firstFitDecreasing(weights, k, capacity)) {
                capacity++;
            }
            return new Plan(groups, k, capacity);
        }
        int size = request.maxClusterSize();
        if (largest > size) {
            throw new IllegalArgumentException("a group that must stay together has " + largest
                    + " ranks, more than the maximum cluster size " + size);
        }
        int k = (ranks + size - 1) / size;
        while (!firstFitDecreasing(weights, k, size)) {
            k++;
        }
        return new Plan(groups, k, size);
    }

    static boolean firstFitDecreasing(int[] weights, int bins, long capacity) {
        int[] sorted = weights.clone();
        Arrays.sort(sorted);
        long[] load = new long[bins];
        for (int i = sorted.length - 1; i >= 0; i--) {
            int w = sorted[i];
            boolean placed = false;
            for (int b = 0; b < bins; b++) {
                if (load[b] + w <= capacity) {
                    load[b] += w;
                    placed = true;
                    break;
                }
            }
            if (!placed) {
                return false;
            }
        }
        return true;
    }

    private static Clustering expand(Clustering groups, int[] partOfGroup) {
        int[] of = new int[groups.ranks()];
        for (int r = 0; r < of.length; r++) {
            of[r] = partOfGroup[groups.clusterOf()[r]];
        }
        return Clustering.ofLabels(of);
    }
}
