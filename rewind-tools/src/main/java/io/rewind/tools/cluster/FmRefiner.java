package io.rewind.tools.cluster;

/**
 * Fiduccia-Mattheyses refinement of a two-way partition under per-side weight limits.
 *
 * <p>Each pass moves the best-gain boundary vertex (gain = cut reduction) from one side to the
 * other, locks it, and keeps going through negative gains, so the pass can climb out of local
 * minima; at the end it rolls back to the best state seen. States are ranked first by how far
 * they exceed the weight limits, then by cut, so a pass also repairs imbalance. During a pass a
 * side may exceed its limit by one vertex weight: with exact limits (equal halves) no single
 * move would otherwise be legal, and the classic remedy is this temporary slack.
 */
final class FmRefiner {

    private FmRefiner() {}

    /** Refines {@code side} (0 or 1 per vertex) in place; returns the resulting cut. */
    static long refine(WeightedGraph g, int[] side, long cap0, long cap1, int maxPasses) {
        int n = g.n;
        long[] caps = {cap0, cap1};
        long[] internal = new long[n];
        long[] external = new long[n];
        boolean[] locked = new boolean[n];
        int[] moved = new int[n];
        IndexedMaxHeap[] heaps = {new IndexedMaxHeap(n), new IndexedMaxHeap(n)};
        int noImprovementLimit = Math.max(60, Math.min(500, n / 10));
        long slack = g.maxVertexWeight;
        long cut = 0;
        for (int pass = 0; pass < maxPasses; pass++) {
            long[] weight = new long[2];
            cut = 0;
            for (int v = 0; v < n; v++) {
                weight[side[v]] += g.vertexWeight[v];
                long in = 0;
                long ex = 0;
                for (int e = g.xadj[v]; e < g.xadj[v + 1]; e++) {
                    if (side[g.adj[e]] == side[v]) {
                        in += g.edgeWeight[e];
                    } else {
                        ex += g.edgeWeight[e];
                    }
                }
                internal[v] = in;
                external[v] = ex;
                cut += ex;
                locked[v] = false;
            }
            cut /= 2;
            heaps[0].clear();
            heaps[1].clear();
            boolean[] overweight = {weight[0] > caps[0], weight[1] > caps[1]};
            for (int v = 0; v < n; v++) {
                if (external[v] > 0 || overweight[side[v]]) {
                    heaps[side[v]].insert(v, external[v] - internal[v]);
                }
            }
            long bestViolation = violation(weight, caps);
            long bestCut = cut;
            int bestMoves = 0;
            int moves = 0;
            int sinceBest = 0;
            while (true) {
                int from = chooseSide(g, heaps, weight, caps, slack);
                if (from < 0) {
                    break;
                }
                int v = heaps[from].top();
                heaps[from].remove(v);
                locked[v] = true;
                int to = 1 - from;
                side[v] = to;
                weight[from] -= g.vertexWeight[v];
                weight[to] += g.vertexWeight[v];
                cut -= external[v] - internal[v];
                long swap = internal[v];
                internal[v] = external[v];
                external[v] = swap;
                for (int e = g.xadj[v]; e < g.xadj[v + 1]; e++) {
                    int u = g.adj[e];
                    long w = g.edgeWeight[e];
                    if (side[u] == to) {
                        internal[u] += w;
                        external[u] -= w;
                    } else {
                        internal[u] -= w;
                        external[u] += w;
                    }
                    if (!locked[u]) {
                        IndexedMaxHeap h = heaps[side[u]];
                        if (h.contains(u)) {
                            h.update(u, external[u] - internal[u]);
                        } else if (external[u] > 0) {
                            h.insert(u, external[u] - internal[u]);
                        }
                    }
                }
                moved[moves++] = v;
                long viol = violation(weight, caps);
                if (viol < bestViolation || (viol == bestViolation && cut < bestCut)) {
                    bestViolation = viol;
                    bestCut = cut;
                    bestMoves = moves;
                    sinceBest = 0;
                } else if (++sinceBest > noImprovementLimit) {
                    break;
                }
            }
            for (int i = moves - 1; i >= bestMoves; i--) {
                side[moved[i]] ^= 1;
            }
            cut = bestCut;
            if (bestMoves == 0) {
                break;
            }
        }
        return cut;
    }

    private static int chooseSide(WeightedGraph g, IndexedMaxHeap[] heaps, long[] weight, long[] caps, long slack) {
        for (int s = 0; s < 2; s++) {
            if (weight[s] > caps[s] && !heaps[s].isEmpty()) {
                return s;
            }
        }
        int best = -1;
        long bestGain = Long.MIN_VALUE;
        for (int s = 0; s < 2; s++) {
            if (heaps[s].isEmpty()) {
                continue;
            }
            int v = heaps[s].top();
            if (weight[1 - s] + g.vertexWeight[v] > caps[1 - s] + slack) {
                continue;
            }
            // Prefer the move that also keeps the heavier side giving, to stay near balance.
            long gain = heaps[s].topKey();
            if (gain > bestGain || (gain == bestGain && weight[s] > weight[1 - s])) {
                best = s;
                bestGain = gain;
            }
        }
        return best;
    }

    private static long violation(long[] weight, long[] caps) {
        return Math.max(0, weight[0] - caps[0]) + Math.max(0, weight[1] - caps[1]);
    }
}
