package mpi;

import io.rewind.engine.Collectives;
import io.rewind.engine.Communicator;
import io.rewind.engine.ReduceFunction;
import java.nio.Buffer;

/** An intra-communicator: adds splitting, creation from a group and the prefix reductions. */
public class Intracomm extends Comm {
    protected Intracomm() {}

    Intracomm(Communicator comm) {
        super(comm);
    }

    /** A communicator that is {@code MPI_COMM_NULL} ({@link #isNull()} is true), as Open MPI returns. */
    static Intracomm nullComm() {
        return new Intracomm(null);
    }

    private Intracomm derived(Communicator c) {
        Intracomm out = c == null ? nullComm() : new Intracomm(c);
        out.inheritFrom(this);
        return out;
    }

    @Override
    public Intracomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    @Override
    public Intracomm dup() throws MPIException {
        return guarded(() -> derived(comm().dup()));
    }

    @Override
    public Intracomm iDup() throws MPIException {
        Intracomm c = dup();
        c.completedRequest();
        return c;
    }

    @Override
    public Intracomm dupWithInfo(Info info) throws MPIException {
        return dup();
    }

    /**
     * Splits by colour, ranks ordered by key then old rank. {@code MPI.UNDEFINED} takes no part and
     * gets a null communicator ({@link #isNull()}).
     */
    public final Intracomm split(int colour, int key) throws MPIException {
        return guarded(() -> {
            if (colour < 0 && colour != MPI.UNDEFINED) {
                throw Failures.error(MPI.ERR_ARG, "invalid colour " + colour + " (>= 0 or MPI.UNDEFINED)");
            }
            return derived(comm().split(colour, key));
        });
    }

    /** {@code MPI.COMM_TYPE_SHARED}: every in-JVM rank shares memory, so all members form one communicator. */
    public final Intracomm splitType(int splitType, int key, Info info) throws MPIException {
        return guarded(() -> {
            if (splitType != MPI.COMM_TYPE_SHARED && splitType != MPI.UNDEFINED) {
                throw Failures.error(MPI.ERR_ARG, "unsupported split type " + splitType);
            }
            return derived(comm().split(splitType == MPI.UNDEFINED ? MPI.UNDEFINED : 0, key));
        });
    }

    /** Collective over this communicator; processes outside {@code group} get a null communicator. */
    public final Intracomm create(Group group) throws MPIException {
        return guarded(() -> {
            Communicator c = comm();
            int[] members = group.members();
            int[] mine = c.groupWorldRanks();
            for (int w : members) {
                boolean found = false;
                for (int m : mine) {
                    found |= m == w;
                }
                if (!found) {
                    throw Failures.error(MPI.ERR_GROUP, "the group is not a subset of " + this);
                }
            }
            return derived(c.create(members));
        });
    }

    /**
     * {@code MPI_Comm_create_group}: creates a communicator over {@code group}, a subset of this
     * communicator, collectively over the group's members only (the other members do not call it).
     * Calls with the same group and tag are matched in order; a caller outside the group gets a
     * communicator whose {@link #isNull()} is true, without taking part.
     */
    public final Intracomm createGroup(Group group, int tag) throws MPIException {
        return guarded(() -> {
            Communicator c = comm();
            if (tag < 0) {
                throw Failures.error(MPI.ERR_TAG, "invalid tag " + tag + " (tags are >= 0)");
            }
            int[] members = checkedSubset(c, group);
            boolean member = false;
            for (int w : members) {
                member |= w == c.engine().worldRank();
            }
            return member ? derived(c.createFromGroup(members, tag)) : derived(null);
        });
    }

    private int[] checkedSubset(Communicator c, Group group) throws MPIException {
        if (group == null) {
            throw Failures.error(MPI.ERR_GROUP, "null group");
        }
        int[] members = group.members();
        int[] mine = c.groupWorldRanks();
        for (int w : members) {
            boolean found = false;
            for (int m : mine) {
                found |= m == w;
            }
            if (!found) {
                throw Failures.error(MPI.ERR_GROUP, "the group is not a subset of " + this);
            }
        }
        return members;
    }

    /**
     * Creates a communicator with a Cartesian grid of {@code dims} (periodic where {@code periods} is
     * true) over the first {@code dims[0] * ... * dims[n-1]} processes of this communicator
     * ({@code MPI_CART_CREATE}); collective. Processes outside the grid get a communicator whose
     * {@link #isNull()} is true, as Open MPI gives them {@code MPI_COMM_NULL}. {@code reorder} is
     * ignored: grid rank {@code r} is rank {@code r} of this communicator.
     */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        return guarded(() -> {
            Communicator c = comm();
            CartTopology t = CartTopology.of(dims, periods);
            if (t.size() > c.size()) {
                throw Failures.error(
                        MPI.ERR_ARG, "the grid needs " + t.size() + " processes but " + this + " has " + c.size());
            }
            boolean inGrid = c.rank() < t.size();
            CartComm out = new CartComm(c.split(inGrid ? 0 : MPI.UNDEFINED, c.rank()), t);
            out.inheritFrom(this);
            return out;
        });
    }

    /** {@code MPI_CART_MAP} without reordering: the caller's rank, or UNDEFINED outside the grid. */
    static int cartMap(Communicator c, int[] dims, boolean[] periods) throws MPIException {
        CartTopology t = CartTopology.of(dims, periods);
        if (t.size() > c.size()) {
            throw Failures.error(
                    MPI.ERR_ARG, "the grid needs " + t.size() + " processes but the communicator has " + c.size());
        }
        return c.rank() < t.size() ? c.rank() : MPI.UNDEFINED;
    }

    // --- graph topologies ------------------------------------------------------------------------------

    /**
     * Creates a communicator with the graph of {@code index} and {@code edges} over the first
     * {@code index.length} processes of this communicator ({@code MPI_GRAPH_CREATE}); collective.
     * Processes outside the graph get a communicator whose {@link #isNull()} is true. {@code reorder}
     * is ignored: node {@code r} is rank {@code r} of this communicator.
     */
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) throws MPIException {
        return guarded(() -> {
            Communicator c = comm();
            GraphTopology t = graphOver(c, index, edges);
            boolean inGraph = c.rank() < t.size();
            return GraphComm.ofGraph(c.split(inGraph ? 0 : MPI.UNDEFINED, c.rank()), t, this);
        });
    }

    /** {@code MPI_GRAPH_MAP} without reordering: the caller's rank, or UNDEFINED outside the graph. */
    static int graphMap(Communicator c, int[] index, int[] edges) throws MPIException {
        GraphTopology t = graphOver(c, index, edges);
        return c.rank() < t.size() ? c.rank() : MPI.UNDEFINED;
    }

    private static GraphTopology graphOver(Communicator c, int[] index, int[] edges) throws MPIException {
        GraphTopology t = GraphTopology.of(index, edges);
        if (t.size() > c.size()) {
            throw Failures.error(
                    MPI.ERR_ARG,
                    "the graph has " + t.size() + " nodes but the communicator has " + c.size() + " processes");
        }
        return t;
    }

    /**
     * Creates a communicator with a distributed graph ({@code MPI_DIST_GRAPH_CREATE}); collective.
     * This process declares, for each {@code sources[i]}, {@code degrees[i]} weighted edges to the next
     * entries of {@code destinations}; any process may declare any edge. {@code info} and {@code
     * reorder} are ignored.
     */
    public final GraphComm createDistGraph(
            int[] sources, int[] degrees, int[] destinations, int[] weights, Info info, boolean reorder)
            throws MPIException {
        return guarded(() -> {
            if (weights == null) {
                throw Failures.error(MPI.ERR_ARG, "weights must not be null (the overload without weights has none)");
            }
            DistGraphTopology t = DistGraphTopology.declared(this, sources, degrees, destinations, weights);
            return GraphComm.ofDistGraph(comm().dup(), t, this);
        });
    }

    /** {@link #createDistGraph(int[], int[], int[], int[], Info, boolean)} without weights. */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info, boolean reorder)
            throws MPIException {
        return guarded(() -> {
            DistGraphTopology t = DistGraphTopology.declared(this, sources, degrees, destinations, null);
            return GraphComm.ofDistGraph(comm().dup(), t, this);
        });
    }

    /**
     * Creates a communicator with a distributed graph where each process gives its own in-edges (from
     * {@code sources}) and out-edges (to {@code destinations}), in the order the neighbourhood
     * collectives use them ({@code MPI_DIST_GRAPH_CREATE_ADJACENT}); collective. Every edge must be
     * given at both its ends, else ERR_TOPOLOGY on every process. {@code info} and {@code reorder} are
     * ignored.
     */
    public final GraphComm createDistGraphAdjacent(
            int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights, Info info, boolean reorder)
            throws MPIException {
        return guarded(() -> {
            if (sourceWeights == null || destWeights == null) {
                throw Failures.error(
                        MPI.ERR_ARG,
                        "sourceWeights and destWeights must not be null (the overload without weights has none)");
            }
            DistGraphTopology t =
                    DistGraphTopology.adjacent(this, sources, sourceWeights, destinations, destWeights, true);
            return GraphComm.ofDistGraph(comm().dup(), t, this);
        });
    }

    /** {@link #createDistGraphAdjacent(int[], int[], int[], int[], Info, boolean)} without weights. */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder)
            throws MPIException {
        return guarded(() -> {
            DistGraphTopology t = DistGraphTopology.adjacent(this, sources, null, destinations, null, false);
            return GraphComm.ofDistGraph(comm().dup(), t, this);
        });
    }

    // --- prefix reductions -----------------------------------------------------------------------------

    private Request scanImpl(
            boolean async, boolean exclusive, Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        Communicator c = comm();
        ReduceFunction f = op.forType(type.checkUsable());
        int ecount = type.engineCount(count);
        boolean inPlace = sendbuf == IN_PLACE;
        Region given = inPlace ? null : Region.of(sendbuf, count, type, Region.Use.READ, "send buffer");
        Region r = Region.of(
                recvbuf,
                count,
                type,
                inPlace || exclusive ? Region.Use.READ_WRITE : Region.Use.WRITE,
                "receive buffer");
        Region s = Region.apart(given, r);
        if (exclusive) {
            return collective(
                    async,
                    "iexscan",
                    tag -> Collectives.exScan(c, tag, seg(s), 0, r.segment, 0, ecount, type.engineType, f),
                    r);
        }
        return collective(
                async,
                "iscan",
                tag -> Collectives.scan(c, tag, seg(s), 0, r.segment, 0, ecount, type.engineType, f),
                r);
    }

    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        guarded(() -> scanImpl(false, false, sendbuf, recvbuf, count, type, op));
    }

    public final void scan(Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        guarded(() -> scanImpl(false, false, IN_PLACE, recvbuf, count, type, op));
    }

    public final Request iScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return guarded(() -> scanImpl(true, false, sendbuf, recvbuf, count, type, op));
    }

    public final Request iScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return guarded(() -> scanImpl(true, false, IN_PLACE, buf, count, type, op));
    }

    /** Exclusive prefix reduction; rank 0's receive buffer is left as it was. */
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        guarded(() -> scanImpl(false, true, sendbuf, recvbuf, count, type, op));
    }

    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        guarded(() -> scanImpl(false, true, IN_PLACE, buf, count, type, op));
    }

    public final Request iExScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return guarded(() -> scanImpl(true, true, sendbuf, recvbuf, count, type, op));
    }

    public final Request iExScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return guarded(() -> scanImpl(true, true, IN_PLACE, buf, count, type, op));
    }
}
