package mpi;

import io.rewind.engine.Communicator;

/**
 * A communicator with a general graph ({@link Intracomm#createGraph}) or a distributed graph
 * ({@link Intracomm#createDistGraph}, {@link Intracomm#createDistGraphAdjacent}) attached. The graph
 * is local information of this object on top of a communicator the engine makes by split or dup, so
 * a restarted rank that creates its graph again gets the same communicator and the same graph. Ranks
 * are never reordered: rank {@code r} of the graph is rank {@code r} of the parent communicator.
 */
public final class GraphComm extends Intracomm {
    /** Exactly one of the two is set. */
    private final GraphTopology graph;

    private final DistGraphTopology distGraph;

    private GraphComm(Communicator comm, GraphTopology graph, DistGraphTopology distGraph) {
        super(comm);
        this.graph = graph;
        this.distGraph = distGraph;
    }

    static GraphComm ofGraph(Communicator comm, GraphTopology graph, Comm parent) {
        GraphComm out = new GraphComm(comm, graph, null);
        out.inheritFrom(parent);
        return out;
    }

    static GraphComm ofDistGraph(Communicator comm, DistGraphTopology distGraph, Comm parent) {
        GraphComm out = new GraphComm(comm, null, distGraph);
        out.inheritFrom(parent);
        return out;
    }

    /** {@code MPI.GRAPH} or {@code MPI.DIST_GRAPH}. */
    int topologyKind() {
        return graph != null ? MPI.GRAPH : MPI.DIST_GRAPH;
    }

    @Override
    Neighbours neighbours() throws MPIException {
        int me = comm().rank();
        return graph != null ? graph.neighbours(me) : distGraph.neighbours();
    }

    @Override
    public GraphComm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    @Override
    public GraphComm dup() throws MPIException {
        return guarded(() -> {
            GraphComm out = new GraphComm(comm().dup(), graph, distGraph);
            out.inheritFrom(this);
            return out;
        });
    }

    @Override
    public GraphComm iDup() throws MPIException {
        GraphComm c = dup();
        c.completedRequest();
        return c;
    }

    @Override
    public GraphComm dupWithInfo(Info info) throws MPIException {
        return dup();
    }

    /** The whole graph ({@code MPI_GRAPHDIMS_GET}, {@code MPI_GRAPH_GET}); ERR_TOPOLOGY on a distributed graph. */
    public GraphParms getDims() throws MPIException {
        return guarded(() -> general("getDims").parms());
    }

    /** The neighbours of {@code rank} ({@code MPI_GRAPH_NEIGHBORS}); ERR_TOPOLOGY on a distributed graph. */
    public int[] getNeighbors(int rank) throws MPIException {
        return guarded(() -> general("getNeighbors").neighboursOf(rank));
    }

    /**
     * The calling process's in- and out-edges ({@code MPI_DIST_GRAPH_NEIGHBORS}); ERR_TOPOLOGY on a
     * general graph.
     */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        return guarded(() -> {
            comm();
            if (distGraph == null) {
                throw Failures.error(
                        MPI.ERR_TOPOLOGY,
                        "getDistGraphNeighbors needs a distributed graph, " + this + " has a general graph");
            }
            return distGraph.neighbors();
        });
    }

    /**
     * The rank the calling process would have in a graph of {@code index} and {@code edges} over this
     * communicator ({@code MPI_GRAPH_MAP}): its own rank, since Rewind does not reorder, or {@code
     * MPI.UNDEFINED} if the graph has fewer nodes than its rank.
     */
    public int map(int[] index, int[] edges) throws MPIException {
        return guarded(() -> Intracomm.graphMap(comm(), index, edges));
    }

    private GraphTopology general(String what) throws MPIException {
        comm();
        if (graph == null) {
            throw Failures.error(
                    MPI.ERR_TOPOLOGY, what + " needs a general graph, " + this + " has a distributed graph");
        }
        return graph;
    }
}
