package io.rewind.tools.mcml;

import io.rewind.tools.cluster.Clusterer;
import io.rewind.tools.profile.CommMatrix;

/**
 * A binary hierarchical clustering of ranks, stored as each rank's path from the root. The
 * depth of the lowest common ancestor of two ranks (their common path prefix) says how near
 * they are: deeper means a smaller cluster contains both.
 */
public final class Dendrogram {

    private final int[][] path;
    private final String kind;

    private Dendrogram(int[][] path, String kind) {
        this.path = path;
        this.kind = kind;
    }

    /**
     * Halves of consecutive rank ranges, as in the paper's example ([4-5] in [4-7] in [0-7]): the
     * tree the runtime's {@code --switch-off dendrogram} uses (built the same way there).
     */
    public static Dendrogram contiguous(int ranks) {
        int[][] path = new int[ranks][];
        fill(path, 0, ranks, new int[0]);
        return new Dendrogram(path, "contiguous");
    }

    private static void fill(int[][] path, int lo, int hi, int[] prefix) {
        if (hi - lo == 1) {
            path[lo] = prefix;
            return;
        }
        int mid = (lo + hi) >>> 1;
        int[] left = java.util.Arrays.copyOf(prefix, prefix.length + 1);
        int[] right = left.clone();
        right[prefix.length] = 1;
        fill(path, lo, mid, left);
        fill(path, mid, hi, right);
    }

    /** Recursive bisection of the communication graph, so heavy partners share small clusters. */
    public static Dendrogram fromCommunication(CommMatrix m, long seed) {
        return new Dendrogram(Clusterer.dendrogram(m, seed), "communication");
    }

    /** Each rank's path from the root, as the runtime's dendrogram file holds it. */
    public int[][] paths() {
        int[][] out = new int[path.length][];
        for (int r = 0; r < path.length; r++) {
            out[r] = path[r].clone();
        }
        return out;
    }

    /** How the tree was built: "contiguous" or "communication". */
    public String kind() {
        return kind;
    }

    public int ranks() {
        return path.length;
    }

    /** Depth of the smallest cluster holding both ranks; larger means nearer. */
    public int commonDepth(int a, int b) {
        int[] pa = path[a];
        int[] pb = path[b];
        int limit = Math.min(pa.length, pb.length);
        int d = 0;
        while (d < limit && pa[d] == pb[d]) {
            d++;
        }
        return d;
    }
}
