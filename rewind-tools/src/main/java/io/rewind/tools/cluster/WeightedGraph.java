package io.rewind.tools.cluster;

import io.rewind.tools.profile.CommMatrix;

/**
 * Undirected graph with vertex and edge weights in compressed adjacency form, the input of the
 * partitioner. A vertex is a rank or a group of ranks that must stay together (its weight is
 * the number of ranks); an edge weight is the bytes exchanged in both directions, because a
 * cut edge is logged whichever way its messages go.
 */
final class WeightedGraph {

    final int n;
    final int[] xadj;
    final int[] adj;
    final long[] edgeWeight;
    final int[] vertexWeight;
    final long totalVertexWeight;
    final int maxVertexWeight;

    WeightedGraph(int[] xadj, int[] adj, long[] edgeWeight, int[] vertexWeight) {
        this.n = vertexWeight.length;
        this.xadj = xadj;
        this.adj = adj;
        this.edgeWeight = edgeWeight;
        this.vertexWeight = vertexWeight;
        long total = 0;
        int max = 0;
        for (int w : vertexWeight) {
            total += w;
            max = Math.max(max, w);
        }
        this.totalVertexWeight = total;
        this.maxVertexWeight = max;
    }

    /**
     * The graph of groups: vertex g = ranks with {@code groups.clusterOf()[r] == g}, weight = their
     * number; edge (g, h) = all bytes between the two groups in both directions. Traffic inside a
     * group is dropped, since it can never be cut.
     */
    static WeightedGraph ofGroups(CommMatrix m, Clustering groups) {
        int[] of = groups.clusterOf();
        CommMatrix.Builder sym = new CommMatrix.Builder(groups.count());
        for (int s = 0; s < m.ranks(); s++) {
            for (int c = m.firstChannel(s); c < m.endChannel(s); c++) {
                int gs = of[s];
                int gd = of[m.destinationOf(c)];
                if (gs != gd) {
                    long b = m.bytesOf(c);
                    // Messages-only channels (0 bytes) still tie ranks together a little.
                    long w = b == 0 ? 1 : b;
                    sym.add(gs, gd, w, 0).add(gd, gs, w, 0);
                }
            }
        }
        CommMatrix s = sym.build();
        int[] xadj = new int[groups.count() + 1];
        int[] adj = new int[s.channelCount()];
        long[] ew = new long[s.channelCount()];
        for (int g = 0; g < groups.count(); g++) {
            xadj[g + 1] = s.endChannel(g);
            for (int c = s.firstChannel(g); c < s.endChannel(g); c++) {
                adj[c] = s.destinationOf(c);
                ew[c] = s.bytesOf(c);
            }
        }
        return new WeightedGraph(xadj, adj, ew, groups.sizes());
    }

    /** Sum of weights of edges whose ends lie in different parts. */
    long cut(int[] part) {
        long cut = 0;
        for (int v = 0; v < n; v++) {
            for (int e = xadj[v]; e < xadj[v + 1]; e++) {
                if (part[adj[e]] != part[v]) {
                    cut += edgeWeight[e];
                }
            }
        }
        return cut / 2;
    }

    /** The subgraph induced by {@code vertices}; vertex i of the result is {@code vertices[i]}. */
    WeightedGraph induced(int[] vertices, int[] scratchIndex) {
        for (int i = 0; i < vertices.length; i++) {
            scratchIndex[vertices[i]] = i;
        }
        int edges = 0;
        for (int v : vertices) {
            for (int e = xadj[v]; e < xadj[v + 1]; e++) {
                if (scratchIndex[adj[e]] >= 0) {
                    edges++;
                }
            }
        }
        int[] sx = new int[vertices.length + 1];
        int[] sa = new int[edges];
        long[] sw = new long[edges];
        int[] vw = new int[vertices.length];
        int k = 0;
        for (int i = 0; i < vertices.length; i++) {
            int v = vertices[i];
            vw[i] = vertexWeight[v];
            for (int e = xadj[v]; e < xadj[v + 1]; e++) {
                int u = scratchIndex[adj[e]];
                if (u >= 0) {
                    sa[k] = u;
                    sw[k] = edgeWeight[e];
                    k++;
                }
            }
            sx[i + 1] = k;
        }
        for (int v : vertices) {
            scratchIndex[v] = -1;
        }
        return new WeightedGraph(sx, sa, sw, vw);
    }
}
