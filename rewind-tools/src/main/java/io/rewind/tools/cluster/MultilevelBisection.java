package io.rewind.tools.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Multilevel two-way partitioning in the style of METIS: shrink the graph by repeatedly
 * merging each vertex with its heaviest unmatched neighbour (heavy-edge matching, so heavy
 * edges disappear inside coarse vertices and can no longer be cut), bisect the small graph by
 * greedy graph growing from several random seeds, then undo the merges one level at a time,
 * refining the projected partition with {@link FmRefiner} at every level.
 */
final class MultilevelBisection {

    /** Graphs at most this large are bisected directly. */
    private static final int COARSEST_VERTICES = 96;

    private static final int INITIAL_TRIALS = 8;
    private static final int FM_PASSES = 8;

    private final SplittableRandom random;

    MultilevelBisection(SplittableRandom random) {
        this.random = random;
    }

    /**
     * Runs {@link #bisect} several times (each with its own random matchings and seeds) and keeps
     * the best: uniform graphs such as grids have many equal-gain plateaus where one run can
     * settle on a jagged boundary. Fewer runs on large graphs keep 16,384 ranks within seconds.
     */
    int[] bestOf(WeightedGraph g, long cap0, long cap1, long target0) {
        int runs = g.n <= 2_000 ? 4 : 2;
        int[] best = null;
        long bestViolation = Long.MAX_VALUE;
        long bestCut = Long.MAX_VALUE;
        for (int run = 0; run < runs; run++) {
            int[] side = bisect(g, cap0, cap1, target0);
            long w0 = 0;
            for (int v = 0; v < g.n; v++) {
                if (side[v] == 0) {
                    w0 += g.vertexWeight[v];
                }
            }
            long violation = Math.max(0, w0 - cap0) + Math.max(0, g.totalVertexWeight - w0 - cap1);
            long cut = g.cut(side);
            if (violation < bestViolation || (violation == bestViolation && cut < bestCut)) {
                best = side;
                bestViolation = violation;
                bestCut = cut;
            }
        }
        return best;
    }

    /**
     * Splits {@code g} into sides 0 and 1 with weights at most {@code cap0} and {@code cap1},
     * aiming side 0 at {@code target0}, minimising the cut weight.
     */
    int[] bisect(WeightedGraph g, long cap0, long cap1, long target0) {
        List<WeightedGraph> graphs = new ArrayList<>();
        List<int[]> coarseOf = new ArrayList<>();
        graphs.add(g);
        int maxMerged = (int) Math.max(g.maxVertexWeight, Math.min(cap0, cap1) / 6);
        WeightedGraph current = g;
        while (current.n > COARSEST_VERTICES) {
            int[] map = new int[current.n];
            WeightedGraph coarse = coarsen(current, maxMerged, map);
            if (coarse.n > 0.95 * current.n) {
                break;
            }
            graphs.add(coarse);
            coarseOf.add(map);
            current = coarse;
        }
        int[] side = initialBisection(current, cap0, cap1, target0);
        for (int level = graphs.size() - 2; level >= 0; level--) {
            WeightedGraph fine = graphs.get(level);
            int[] map = coarseOf.get(level);
            int[] fineSide = new int[fine.n];
            for (int v = 0; v < fine.n; v++) {
                fineSide[v] = side[map[v]];
            }
            side = fineSide;
            FmRefiner.refine(fine, side, cap0, cap1, FM_PASSES);
        }
        return side;
    }

    /** Heavy-edge matching; fills {@code coarseOf} and returns the contracted graph. */
    WeightedGraph coarsen(WeightedGraph g, int maxMerged, int[] coarseOf) {
        int n = g.n;
        int[] match = new int[n];
        java.util.Arrays.fill(match, -1);
        for (int v : permutation(n)) {
            if (match[v] >= 0) {
                continue;
            }
            int best = -1;
            long bestWeight = -1;
            for (int e = g.xadj[v]; e < g.xadj[v + 1]; e++) {
                int u = g.adj[e];
                if (match[u] < 0
                        && u != v
                        && g.edgeWeight[e] > bestWeight
                        && g.vertexWeight[u] + g.vertexWeight[v] <= maxMerged) {
                    best = u;
                    bestWeight = g.edgeWeight[e];
                }
            }
            if (best < 0) {
                match[v] = v;
            } else {
                match[v] = best;
                match[best] = v;
            }
        }
        java.util.Arrays.fill(coarseOf, -1);
        int cn = 0;
        int[] first = new int[n];
        int[] second = new int[n];
        for (int v = 0; v < n; v++) {
            if (coarseOf[v] < 0) {
                coarseOf[v] = cn;
                coarseOf[match[v]] = cn;
                first[cn] = v;
                second[cn] = match[v];
                cn++;
            }
        }
        int[] xadj = new int[cn + 1];
        int[] adj = new int[g.adj.length];
        long[] ew = new long[g.adj.length];
        int[] vw = new int[cn];
        int[] slot = new int[cn];
        java.util.Arrays.fill(slot, -1);
        int k = 0;
        for (int c = 0; c < cn; c++) {
            int start = k;
            int a = first[c];
            int b = second[c];
            vw[c] = g.vertexWeight[a] + (a == b ? 0 : g.vertexWeight[b]);
            for (int member = 0; member < (a == b ? 1 : 2); member++) {
                int v = member == 0 ? a : b;
                for (int e = g.xadj[v]; e < g.xadj[v + 1]; e++) {
                    int cu = coarseOf[g.adj[e]];
                    if (cu == c) {
                        continue;
                    }
                    if (slot[cu] < 0) {
                        slot[cu] = k;
                        adj[k] = cu;
                        ew[k] = g.edgeWeight[e];
                        k++;
                    } else {
                        ew[slot[cu]] += g.edgeWeight[e];
                    }
                }
            }
            for (int i = start; i < k; i++) {
                slot[adj[i]] = -1;
            }
            xadj[c + 1] = k;
        }
        return new WeightedGraph(xadj, java.util.Arrays.copyOf(adj, k), java.util.Arrays.copyOf(ew, k), vw);
    }

    /** Greedy graph growing from several seeds, each refined by FM; the best result wins. */
    private int[] initialBisection(WeightedGraph g, long cap0, long cap1, long target0) {
        int[] best = null;
        long bestViolation = Long.MAX_VALUE;
        long bestCut = Long.MAX_VALUE;
        for (int trial = 0; trial < INITIAL_TRIALS; trial++) {
            int[] side = grow(g, cap0, target0);
            long cut = FmRefiner.refine(g, side, cap0, cap1, FM_PASSES);
            long w0 = 0;
            for (int v = 0; v < g.n; v++) {
                if (side[v] == 0) {
                    w0 += g.vertexWeight[v];
                }
            }
            long violation = Math.max(0, w0 - cap0) + Math.max(0, g.totalVertexWeight - w0 - cap1);
            if (violation < bestViolation || (violation == bestViolation && cut < bestCut)) {
                best = side;
                bestViolation = violation;
                bestCut = cut;
            }
        }
        return best;
    }

    private int[] grow(WeightedGraph g, long cap0, long target0) {
        int n = g.n;
        int[] side = new int[n];
        java.util.Arrays.fill(side, 1);
        long[] degree = new long[n];
        for (int v = 0; v < n; v++) {
            for (int e = g.xadj[v]; e < g.xadj[v + 1]; e++) {
                degree[v] += g.edgeWeight[e];
            }
        }
        long[] toSide0 = new long[n];
        boolean[] skipped = new boolean[n];
        IndexedMaxHeap frontier = new IndexedMaxHeap(n);
        int[] order = permutation(n);
        int nextSeed = 0;
        long w0 = 0;
        while (w0 < target0) {
            if (frontier.isEmpty()) {
                while (nextSeed < n && (side[order[nextSeed]] == 0 || skipped[order[nextSeed]])) {
                    nextSeed++;
                }
                if (nextSeed >= n) {
                    break;
                }
                frontier.insert(order[nextSeed], 0);
            }
            int v = frontier.top();
            frontier.remove(v);
            if (w0 + g.vertexWeight[v] > cap0) {
                skipped[v] = true;
                continue;
            }
            side[v] = 0;
            w0 += g.vertexWeight[v];
            for (int e = g.xadj[v]; e < g.xadj[v + 1]; e++) {
                int u = g.adj[e];
                if (side[u] == 1 && !skipped[u]) {
                    toSide0[u] += g.edgeWeight[e];
                    long key = 2 * toSide0[u] - degree[u];
                    if (frontier.contains(u)) {
                        frontier.update(u, key);
                    } else {
                        frontier.insert(u, key);
                    }
                }
            }
        }
        return side;
    }

    private int[] permutation(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
