package io.rewind.tools.cluster;

import java.util.SplittableRandom;

/**
 * Greedy k-way boundary refinement: move a vertex to the neighbouring part it is most connected
 * to when that lowers the cut and the part has room. Cheap (one sweep over the edges per pass)
 * and a good finish after recursive bisection.
 */
final class KWayRefiner {

    private KWayRefiner() {}

    static void refine(WeightedGraph g, int[] part, int k, long capacity, int maxPasses, SplittableRandom random) {
        long[] partWeight = new long[k];
        int[] partSize = new int[k];
        for (int v = 0; v < g.n; v++) {
            partWeight[part[v]] += g.vertexWeight[v];
            partSize[part[v]]++;
        }
        long[] connection = new long[k];
        int[] touched = new int[k];
        int[] order = new int[g.n];
        for (int i = 0; i < g.n; i++) {
            order[i] = i;
        }
        for (int pass = 0; pass < maxPasses; pass++) {
            for (int i = g.n - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            int moves = 0;
            for (int v : order) {
                int home = part[v];
                int count = 0;
                boolean boundary = false;
                for (int e = g.xadj[v]; e < g.xadj[v + 1]; e++) {
                    int p = part[g.adj[e]];
                    if (p != home) {
                        boundary = true;
                    }
                    if (connection[p] == 0) {
                        touched[count++] = p;
                    }
                    connection[p] += g.edgeWeight[e] == 0 ? 0 : g.edgeWeight[e];
                    if (connection[p] == 0) {
                        // Zero-weight edges: keep the bookkeeping consistent.
                        count--;
                    }
                }
                // Never empty a part: the caller asked for k clusters.
                if (boundary && partSize[home] > 1) {
                    int best = home;
                    long bestGain = 0;
                    for (int i = 0; i < count; i++) {
                        int p = touched[i];
                        long gain = connection[p] - connection[home];
                        if (p != home && gain > bestGain && partWeight[p] + g.vertexWeight[v] <= capacity) {
                            best = p;
                            bestGain = gain;
                        }
                    }
                    if (best != home) {
                        part[v] = best;
                        partWeight[home] -= g.vertexWeight[v];
                        partWeight[best] += g.vertexWeight[v];
                        partSize[home]--;
                        partSize[best]++;
                        moves++;
                    }
                }
                for (int i = 0; i < count; i++) {
                    connection[touched[i]] = 0;
                }
                connection[home] = 0;
            }
            if (moves == 0) {
                break;
            }
        }
    }
}
