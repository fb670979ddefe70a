package mpi;

import io.rewind.engine.Communicator;

/**
 * A communicator with a Cartesian grid attached. The grid is local information of this object,
 * computed from the arguments of {@link Intracomm#createCart} or {@link #sub}; the communicator
 * underneath is made by the engine's split, so a restarted rank that creates its grid again gets the
 * same communicator and the same grid. Ranks are never reordered: rank {@code r} of the grid is rank
 * {@code r} of the parent communicator.
 */
public final class CartComm extends Intracomm {
    private final CartTopology topo;

    CartComm(Communicator comm, CartTopology topo) {
        super(comm);
        this.topo = topo;
    }

    CartComm derived(Communicator c, CartTopology t, Comm parent) {
        CartComm out = new CartComm(c, t);
        out.inheritFrom(parent);
        return out;
    }

    @Override
    Neighbours neighbours() throws MPIException {
        return topo.neighbours(comm().rank());
    }

    @Override
    public CartComm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    @Override
    public CartComm dup() throws MPIException {
        return guarded(() -> derived(comm().dup(), topo, this));
    }

    @Override
    public CartComm iDup() throws MPIException {
        CartComm c = dup();
        c.completedRequest();
        return c;
    }

    @Override
    public CartComm dupWithInfo(Info info) throws MPIException {
        return dup();
    }

    /** Dimensions, periodicity and the calling process's coordinates ({@code MPI_CART_GET}). */
    public CartParms getTopo() throws MPIException {
        return guarded(() -> new CartParms(topo.dims(), topo.periods(), topo.coordsOf(comm().rank())));
    }

    /** The rank at {@code coords} ({@code MPI_CART_RANK}); periodic dimensions wrap around. */
    public int getRank(int[] coords) throws MPIException {
        return guarded(() -> {
            comm();
            return topo.rankOf(coords);
        });
    }

    /** The coordinates of {@code rank} ({@code MPI_CART_COORDS}). */
    public int[] getCoords(int rank) throws MPIException {
        return guarded(() -> {
            comm();
            return topo.coordsOf(rank);
        });
    }

    /**
     * Source and destination of a shift by {@code disp} along dimension {@code direction}
     * ({@code MPI_CART_SHIFT}); {@code MPI.PROC_NULL} past the edge of a non-periodic dimension.
     */
    public ShiftParms shift(int direction, int disp) throws MPIException {
        return guarded(() -> {
            int[] sd = topo.shift(comm().rank(), direction, disp);
            return new ShiftParms(sd[0], sd[1]);
        });
    }

    /**
     * Splits the grid into sub-grids of the dimensions where {@code remainDims} is true
     * ({@code MPI_CART_SUB}); collective. Keeping no dimension gives each process a grid of its own
     * with zero dimensions.
     */
    public CartComm sub(boolean[] remainDims) throws MPIException {
        return guarded(() -> {
            Communicator c = comm();
            CartTopology t = topo.sub(remainDims);
            int me = c.rank();
            int colour = topo.subIndex(me, remainDims, false);
            int key = topo.subIndex(me, remainDims, true);
            return derived(c.split(colour, key), t, this);
        });
    }

    /**
     * The rank the calling process would have in a grid of {@code dims} and {@code periods} over this
     * communicator ({@code MPI_CART_MAP}): its own rank, since Rewind does not reorder, or
     * {@code MPI.UNDEFINED} if the grid is smaller than its rank.
     */
    public int map(int[] dims, boolean[] periods) throws MPIException {
        return guarded(() -> Intracomm.cartMap(comm(), dims, periods));
    }

    /**
     * Fills the zero entries of {@code dims} with a balanced factorisation of {@code nnodes}
     * ({@code MPI_DIMS_CREATE}): filled entries in non-increasing order, as close to each other as
     * possible; positive entries are kept. {@code ERR_DIMS} if that is impossible.
     */
    public static void createDims(int nnodes, int[] dims) throws MPIException {
        MPI.check();
        CartTopology.createDims(nnodes, dims);
    }
}
