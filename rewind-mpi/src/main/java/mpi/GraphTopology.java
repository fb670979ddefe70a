package mpi;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A general graph topology ({@code MPI_GRAPH_CREATE}): node {@code i} is rank {@code i} and its
 * neighbours are {@code edges[index[i-1]..index[i]-1]}. Every process is given the whole graph, so
 * this is computed identically everywhere (and again by a restarted rank) from the arguments alone.
 */
final class GraphTopology {
    private final int[] index;
    private final int[] edges;
    private final boolean symmetric;

    private GraphTopology(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
        this.symmetric = symmetric(index, edges);
    }

    /**
     * Validates and copies the arguments of a graph creation: {@code index} non-decreasing from a
     * non-negative start, {@code edges} holding at least {@code index[nnodes-1]} entries, each a node
     * of the graph. Only the first {@code index[nnodes-1]} edges are kept.
     */
    static GraphTopology of(int[] index, int[] edges) throws MPIException {
        if (index == null || edges == null) {
            throw Failures.error(MPI.ERR_ARG, "index and edges must not be null");
        }
        int nnodes = index.length;
        int previous = 0;
        for (int i = 0; i < nnodes; i++) {
            if (index[i] < previous) {
                throw Failures.error(
                        MPI.ERR_ARG,
                        "index must be non-decreasing from 0, but index[" + i + "] is " + index[i]
                                + (i > 0 ? " after " + previous : ""));
            }
            previous = index[i];
        }
        int edgeCount = nnodes == 0 ? 0 : index[nnodes - 1];
        if (edges.length < edgeCount) {
            throw Failures.error(MPI.ERR_ARG, "index counts " + edgeCount + " edges but edges holds " + edges.length);
        }
        for (int i = 0; i < edgeCount; i++) {
            if (edges[i] < 0 || edges[i] >= nnodes) {
                throw Failures.error(
                        MPI.ERR_RANK, "edges[" + i + "] is " + edges[i] + ", not a node of a graph of " + nnodes);
            }
        }
        return new GraphTopology(index.clone(), Arrays.copyOf(edges, edgeCount));
    }

    /** Number of nodes, which are ranks {@code 0..size()-1} of the graph communicator. */
    int size() {
        return index.length;
    }

    GraphParms parms() {
        return new GraphParms(index.clone(), edges.clone());
    }

    /** The neighbours of {@code rank}, in the order its edges were given ({@code MPI_GRAPH_NEIGHBORS}). */
    int[] neighboursOf(int rank) throws MPIException {
        if (rank < 0 || rank >= index.length) {
            throw Failures.error(MPI.ERR_RANK, "rank " + rank + " is not a node of a graph of " + index.length);
        }
        int from = rank == 0 ? 0 : index[rank - 1];
        return Arrays.copyOfRange(edges, from, index[rank]);
    }

    /**
     * The neighbourhood of {@code rank}: its edges, both ways. The standard allows neighbourhood
     * collectives on a graph only if its adjacency is symmetric (as many edges a-b listed at a as
     * b-a at b); otherwise some message would never be received, so the call is refused instead.
     */
    Neighbours neighbours(int rank) throws MPIException {
        if (!symmetric) {
            throw Failures.error(
                    MPI.ERR_TOPOLOGY,
                    "neighbourhood collectives need a symmetric graph: some edge a-b is listed at a more or fewer"
                            + " times than b-a at b");
        }
        int[] adjacent = neighboursOf(rank);
        return Neighbours.inOrder(adjacent, adjacent);
    }

    private static boolean symmetric(int[] index, int[] edges) {
        // +1 for every edge a-b listed at a, -1 for every listing at b of the same pair: all zero iff symmetric.
        Map<Long, Integer> balance = new HashMap<>();
        int node = 0;
        for (int e = 0; e < edges.length; e++) {
            while (e >= index[node]) {
                node++;
            }
            int a = node;
            int b = edges[e];
            if (a != b) {
                long key = (long) Math.min(a, b) << 32 | Math.max(a, b);
                balance.merge(key, a < b ? 1 : -1, Integer::sum);
            }
        }
        return balance.values().stream().allMatch(v -> v == 0);
    }
}
