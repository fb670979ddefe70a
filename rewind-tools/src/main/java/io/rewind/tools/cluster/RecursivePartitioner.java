package io.rewind.tools.cluster;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * k-way partitioning by recursive multilevel bisection, then a greedy k-way boundary pass that
 * repairs what the bisections could not see (a vertex pulled apart from a part it was split
 * from one level up). Every part's vertex weight stays within {@code capacity} whenever the
 * bisections can achieve it.
 */
final class RecursivePartitioner {

    private final SplittableRandom random;
    private final MultilevelBisection bisection;

    RecursivePartitioner(long seed) {
        this.random = new SplittableRandom(seed);
        this.bisection = new MultilevelBisection(random);
    }

    /** Part (0..k-1) of each vertex. */
    int[] partition(WeightedGraph g, int k, long capacity) {
        int[] part = new int[g.n];
        int[] all = new int[g.n];
        for (int v = 0; v < g.n; v++) {
            all[v] = v;
        }
        int[] scratch = new int[g.n];
        Arrays.fill(scratch, -1);
        split(g, all, g, k, capacity, 0, part, scratch);
        KWayRefiner.refine(g, part, k, capacity, 8, random);
        return part;
    }

    /**
     * The hierarchy of successive bisections as a code per vertex: bit i (from the top) says which
     * side the vertex went at depth i. Used for the dendrogram strategy of MCML.
     */
    int[][] dendrogram(WeightedGraph g) {
        int[][] path = new int[g.n][];
        int[] all = new int[g.n];
        for (int v = 0; v < g.n; v++) {
            all[v] = v;
        }
        int[] scratch = new int[g.n];
        Arrays.fill(scratch, -1);
        int[] depthBits = new int[0];
        descend(g, all, g, depthBits, path, scratch);
        return path;
    }

    private void descend(
            WeightedGraph root, int[] vertices, WeightedGraph sub, int[] prefix, int[][] path, int[] scratch) {
        if (vertices.length == 1) {
            path[vertices[0]] = prefix;
            return;
        }
        long total = sub.totalVertexWeight;
        long half = (total + 1) / 2;
        int[] side = bisection.bestOf(sub, half, half, total / 2);
        int[][] parts = splitBySide(vertices, side);
        if (parts[0].length == 0 || parts[1].length == 0) {
            // Indivisible by weight: cut the vertex list in two so the tree still ends in leaves.
            int mid = vertices.length / 2;
            parts = new int[][] {
                Arrays.copyOfRange(vertices, 0, mid), Arrays.copyOfRange(vertices, mid, vertices.length)
            };
        }
        for (int s = 0; s < 2; s++) {
            int[] next = Arrays.copyOf(prefix, prefix.length + 1);
            next[prefix.length] = s;
            descend(root, parts[s], root.induced(parts[s], scratch), next, path, scratch);
        }
    }

    private void split(
            WeightedGraph root,
            int[] vertices,
            WeightedGraph sub,
            int k,
            long capacity,
            int firstPart,
            int[] part,
            int[] scratch) {
        if (k == 1 || vertices.length <= 1) {
            for (int v : vertices) {
                part[v] = firstPart;
            }
            return;
        }
        int k0 = k / 2;
        int k1 = k - k0;
        long total = sub.totalVertexWeight;
        // Each side must leave the other enough weight for one vertex per part, so no part ends empty.
        long minWeight = Integer.MAX_VALUE;
        for (int w : sub.vertexWeight) {
            minWeight = Math.min(minWeight, w);
        }
        long cap0 = Math.min(k0 * capacity, Math.max(total - k1 * minWeight, minWeight));
        long cap1 = Math.min(k1 * capacity, Math.max(total - k0 * minWeight, minWeight));
        long target0 = Math.max(total - cap1, Math.min(cap0, Math.round((double) total * k0 / k)));
        int[] side = bisection.bestOf(sub, cap0, cap1, target0);
        int[][] parts = splitBySide(vertices, side);
        split(root, parts[0], root.induced(parts[0], scratch), k0, capacity, firstPart, part, scratch);
        split(root, parts[1], root.induced(parts[1], scratch), k1, capacity, firstPart + k0, part, scratch);
    }

    private static int[][] splitBySide(int[] vertices, int[] side) {
        int zeros = 0;
        for (int s : side) {
            if (s == 0) {
                zeros++;
            }
        }
        int[][] parts = {new int[zeros], new int[vertices.length - zeros]};
        int a = 0;
        int b = 0;
        for (int i = 0; i < vertices.length; i++) {
            if (side[i] == 0) {
                parts[0][a++] = vertices[i];
            } else {
                parts[1][b++] = vertices[i];
            }
        }
        return parts;
    }
}
