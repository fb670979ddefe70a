package io.rewind.tools.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An assignment of every rank to one cluster, clusters numbered 0..count-1 with no gaps.
 *
 * @param clusterOf cluster of each rank, indexed by rank
 * @param count     number of clusters
 */
public record Clustering(int[] clusterOf, int count) {

    public Clustering {
        for (int r = 0; r < clusterOf.length; r++) {
            if (clusterOf[r] < 0 || clusterOf[r] >= count) {
                throw new IllegalArgumentException(
                        "rank " + r + " has cluster " + clusterOf[r] + " outside [0," + count + ")");
            }
        }
    }

    /** Renumbers arbitrary non-negative labels to 0..count-1 in order of first appearance. */
    public static Clustering ofLabels(int[] labels) {
        int[] map = new int[Arrays.stream(labels).max().orElse(0) + 1];
        Arrays.fill(map, -1);
        int next = 0;
        int[] out = new int[labels.length];
        for (int r = 0; r < labels.length; r++) {
            if (map[labels[r]] < 0) {
                map[labels[r]] = next++;
            }
            out[r] = map[labels[r]];
        }
        return new Clustering(out, next);
    }

    /** The naive baseline: k blocks of consecutive ranks whose sizes differ by at most one. */
    public static Clustering contiguous(int ranks, int k) {
        int[] of = new int[ranks];
        for (int r = 0; r < ranks; r++) {
            of[r] = (int) ((long) r * k / ranks);
        }
        return new Clustering(of, k);
    }

    /** Consecutive blocks of {@code size} ranks (the last may be smaller): ranks of one node. */
    public static Clustering blocksOf(int ranks, int size) {
        int[] of = new int[ranks];
        for (int r = 0; r < ranks; r++) {
            of[r] = r / size;
        }
        return new Clustering(of, (ranks + size - 1) / size);
    }

    /** Every rank alone: plain message logging, everything logged. */
    public static Clustering singletons(int ranks) {
        int[] of = new int[ranks];
        for (int r = 0; r < ranks; r++) {
            of[r] = r;
        }
        return new Clustering(of, ranks);
    }

    public int ranks() {
        return clusterOf.length;
    }

    public int[] sizes() {
        int[] sizes = new int[count];
        for (int c : clusterOf) {
            sizes[c]++;
        }
        return sizes;
    }

    public int maxSize() {
        return Arrays.stream(sizes()).max().orElse(0);
    }

    /** Ranks of each cluster, in increasing order. */
    public List<int[]> members() {
        int[] sizes = sizes();
        int[][] lists = new int[count][];
        for (int c = 0; c < count; c++) {
            lists[c] = new int[sizes[c]];
        }
        int[] fill = new int[count];
        for (int r = 0; r < clusterOf.length; r++) {
            int c = clusterOf[r];
            lists[c][fill[c]++] = r;
        }
        return new ArrayList<>(Arrays.asList(lists));
    }

    /** True when every group of {@code groups} lies inside one cluster of this clustering. */
    public boolean keepsTogether(Clustering groups) {
        int[] seen = new int[groups.count];
        Arrays.fill(seen, -1);
        for (int r = 0; r < clusterOf.length; r++) {
            int g = groups.clusterOf[r];
            if (seen[g] < 0) {
                seen[g] = clusterOf[r];
            } else if (seen[g] != clusterOf[r]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Clustering c && c.count == count && Arrays.equals(c.clusterOf, clusterOf);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(clusterOf) + count;
    }

    @Override
    public String toString() {
        return "Clustering[" + count + " clusters over " + clusterOf.length + " ranks]";
    }
}
