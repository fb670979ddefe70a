package mpi;

/**
 * The edges into and out of the calling process in a distributed graph topology
 * ({@code MPI_DIST_GRAPH_NEIGHBORS}), in the order the neighbourhood collectives use them.
 */
public final class DistGraphNeighbors {
    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;
    private final boolean weighted;

    DistGraphNeighbors(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights, boolean weighted) {
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destWeights = destWeights;
        this.weighted = weighted;
    }

    /** Number of edges into the calling process. */
    public int getInDegree() {
        return sources.length;
    }

    /** Number of edges out of the calling process. */
    public int getOutDegree() {
        return destinations.length;
    }

    /** False if the graph was created without weights. */
    public boolean isWeighted() {
        return weighted;
    }

    /** The process at the other end of in-edge {@code i}. */
    public int getSource(int i) {
        return sources[i];
    }

    /** The weight of in-edge {@code i} (1 in a graph created without weights). */
    public int getSourceWeight(int i) {
        return sourceWeights[i];
    }

    /** The process at the other end of out-edge {@code i}. */
    public int getDestination(int i) {
        return destinations[i];
    }

    /** The weight of out-edge {@code i} (1 in a graph created without weights). */
    public int getDestinationWeight(int i) {
        return destWeights[i];
    }
}
