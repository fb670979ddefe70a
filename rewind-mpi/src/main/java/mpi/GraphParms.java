package mpi;

/**
 * A general graph topology as {@code MPI_GRAPH_GET} returns it: {@code getIndex(i)} is the number
 * of edges of nodes {@code 0..i} together, and the neighbours of node {@code i} are the edges from
 * {@code getIndex(i-1)} (0 for node 0) to {@code getIndex(i) - 1}.
 */
public final class GraphParms {
    private final int[] index;
    private final int[] edges;

    GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    /** Number of nodes of the graph. */
    public int getIndexCount() {
        return index.length;
    }

    /** Cumulative degree of nodes {@code 0..i}. */
    public int getIndex(int i) {
        return index[i];
    }

    /** Number of edges of the graph (each undirected edge counted at both its ends). */
    public int getEdgeCount() {
        return edges.length;
    }

    /** Edge {@code i}: a neighbour of the node whose index range holds {@code i}. */
    public int getEdge(int i) {
        return edges[i];
    }
}
