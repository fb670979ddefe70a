package mpi;

import java.util.Arrays;

/**
 * The arithmetic of a Cartesian grid: dimensions and periodicity, ranks numbered in row-major order
 * (the last dimension varies fastest), as the MPI standard numbers them. Immutable; it holds no
 * communicator, so it is recomputed from the same arguments whenever a program creates its grid
 * again (for example a restarted rank re-running its set-up).
 */
final class CartTopology {
    private final int[] dims;
    private final boolean[] periods;
    private final int size;

    private CartTopology(int[] dims, boolean[] periods, int size) {
        this.dims = dims;
        this.periods = periods;
        this.size = size;
    }

    /** Validates and copies the arguments of a grid creation. */
    static CartTopology of(int[] dims, boolean[] periods) throws MPIException {
        if (dims == null || periods == null) {
            throw Failures.error(MPI.ERR_ARG, "dims and periods must not be null");
        }
        if (dims.length != periods.length) {
            throw Failures.error(
                    MPI.ERR_ARG,
                    "dims has " + dims.length + " entries but periods has " + periods.length + ": one per dimension");
        }
        long product = 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] <= 0) {
                throw Failures.error(MPI.ERR_DIMS, "dimension " + i + " has " + dims[i] + " processes (must be > 0)");
            }
            product *= dims[i];
            if (product > Integer.MAX_VALUE) {
                throw Failures.error(MPI.ERR_DIMS, "the grid " + Arrays.toString(dims) + " has too many processes");
            }
        }
        return new CartTopology(dims.clone(), periods.clone(), (int) product);
    }

    int dimCount() {
        return dims.length;
    }

    /** Number of processes of the grid (1 for zero dimensions). */
    int size() {
        return size;
    }

    int[] dims() {
        return dims.clone();
    }

    boolean[] periods() {
        return periods.clone();
    }

    /** Coordinates of {@code rank} in the grid. */
    int[] coordsOf(int rank) throws MPIException {
        if (rank < 0 || rank >= size) {
            throw Failures.error(MPI.ERR_RANK, "rank " + rank + " is not in the grid of " + size + " processes");
        }
        int[] c = new int[dims.length];
        int rest = rank;
        for (int i = dims.length - 1; i >= 0; i--) {
            c[i] = rest % dims[i];
            rest /= dims[i];
        }
        return c;
    }

    /**
     * Rank at {@code coords}. A coordinate outside its dimension wraps around in a periodic dimension
     * and is {@code ERR_ARG} in a non-periodic one.
     */
    int rankOf(int[] coords) throws MPIException {
        if (coords == null || coords.length != dims.length) {
            throw Failures.error(
                    MPI.ERR_ARG,
                    "coords must have " + dims.length + " entries, not "
                            + (coords == null ? "null" : String.valueOf(coords.length)));
        }
        int rank = 0;
        for (int i = 0; i < dims.length; i++) {
            int c = coords[i];
            if (c < 0 || c >= dims[i]) {
                if (!periods[i]) {
                    throw Failures.error(
                            MPI.ERR_ARG,
                            "coordinate " + c + " is outside non-periodic dimension " + i + " of " + dims[i]);
                }
                c = Math.floorMod(c, dims[i]);
            }
            rank = rank * dims[i] + c;
        }
        return rank;
    }

    /**
     * Source and destination of a shift of {@code rank} by {@code disp} along {@code direction}:
     * {@code {source, dest}}, {@code MPI.PROC_NULL} past a non-periodic edge.
     */
    int[] shift(int rank, int direction, int disp) throws MPIException {
        if (direction < 0 || direction >= dims.length) {
            throw Failures.error(
                    MPI.ERR_DIMS, "direction " + direction + " is not a dimension of a " + dims.length + "-d grid");
        }
        int[] c = coordsOf(rank);
        return new int[] {neighbour(c, direction, -(long) disp), neighbour(c, direction, disp)};
    }

    private int neighbour(int[] coords, int direction, long disp) throws MPIException {
        long to = coords[direction] + disp;
        int n = dims[direction];
        if (to < 0 || to >= n) {
            if (!periods[direction]) {
                return MPI.PROC_NULL;
            }
            to = Math.floorMod(to, (long) n);
        }
        int[] c = coords.clone();
        c[direction] = (int) to;
        return rankOf(c);
    }

    /**
     * The neighbourhood of {@code rank} in the standard's order: along each dimension the -1 then the
     * +1 neighbour ({@code MPI.PROC_NULL} past a non-periodic edge), one list for receiving and
     * sending. The block sent to the +1 neighbour lands in that neighbour's block from its -1
     * neighbour, and vice versa. When one process is both neighbours along a dimension (periodic, of
     * 1 or 2 processes), it matches our two messages in the order it posted its receives, -1 block
     * first; so along each dimension the block for the +1 neighbour is sent first.
     */
    Neighbours neighbours(int rank) throws MPIException {
        int k = dims.length;
        int[] list = new int[2 * k];
        int[] sendOrder = new int[2 * k];
        for (int d = 0; d < k; d++) {
            int[] sd = shift(rank, d, 1);
            list[2 * d] = sd[0];
            list[2 * d + 1] = sd[1];
            sendOrder[2 * d] = 2 * d + 1;
            sendOrder[2 * d + 1] = 2 * d;
        }
        return new Neighbours(list, list.clone(), sendOrder);
    }

    /** Checks a {@code remainDims} argument of {@code sub}. */
    void checkRemain(boolean[] remainDims) throws MPIException {
        if (remainDims == null || remainDims.length != dims.length) {
            throw Failures.error(
                    MPI.ERR_ARG,
                    "remainDims must have " + dims.length + " entries, not "
                            + (remainDims == null ? "null" : String.valueOf(remainDims.length)));
        }
    }

    /** The grid of the kept dimensions. */
    CartTopology sub(boolean[] remainDims) throws MPIException {
        checkRemain(remainDims);
        int k = 0;
        for (boolean b : remainDims) {
            k += b ? 1 : 0;
        }
        int[] d = new int[k];
        boolean[] p = new boolean[k];
        int j = 0;
        for (int i = 0; i < dims.length; i++) {
            if (remainDims[i]) {
                d[j] = dims[i];
                p[j] = periods[i];
                j++;
            }
        }
        return of(d, p);
    }

    /**
     * Which sub-grid {@code rank} falls in ({@code part == false}: the row-major index of its dropped
     * coordinates) or its rank inside that sub-grid ({@code part == true}: the row-major index of its
     * kept coordinates).
     */
    int subIndex(int rank, boolean[] remainDims, boolean part) throws MPIException {
        int[] c = coordsOf(rank);
        int index = 0;
        for (int i = 0; i < dims.length; i++) {
            if (remainDims[i] == part) {
                index = index * dims[i] + c[i];
            }
        }
        return index;
    }

    /**
     * {@code MPI_DIMS_CREATE}: fills the zero entries of {@code dims} so that the product of all
     * entries is {@code nnodes}. The filled entries are as close to each other as possible (the
     * largest as small as it can be, then the next largest, and so on) and in non-increasing order;
     * positive entries are kept.
     */
    static void createDims(int nnodes, int[] dims) throws MPIException {
        if (dims == null) {
            throw Failures.error(MPI.ERR_ARG, "dims must not be null");
        }
        if (nnodes <= 0) {
            throw Failures.error(MPI.ERR_ARG, "nnodes must be > 0, not " + nnodes);
        }
        long fixed = 1;
        int free = 0;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw Failures.error(MPI.ERR_DIMS, "dims[" + i + "] is negative: " + dims[i]);
            }
            if (dims[i] == 0) {
                free++;
            } else {
                fixed *= dims[i];
                if (fixed > nnodes) {
                    break;
                }
            }
        }
        if (fixed > nnodes || nnodes % fixed != 0) {
            throw Failures.error(
                    MPI.ERR_DIMS,
                    "the fixed entries of " + Arrays.toString(dims) + " do not divide " + nnodes + " processes");
        }
        int rest = (int) (nnodes / fixed);
        if (free == 0) {
            if (rest != 1) {
                throw Failures.error(
                        MPI.ERR_DIMS, "the entries of " + Arrays.toString(dims) + " do not multiply to " + nnodes);
            }
            return;
        }
        int[] best = balanced(rest, free);
        int j = 0;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = best[j++];
            }
        }
    }

    /**
     * The factorisation of {@code n} into {@code k} factors, in non-increasing order, that is smallest
     * in lexicographic order: the largest factor as small as possible, then the second, and so on.
     */
    static int[] balanced(int n, int k) {
        int[] out = new int[k];
        fill(n, k, 0, n, out);
        return out;
    }

    /** Fills {@code out[at..]} with {@code k} factors of {@code n}, each at most {@code max}. */
    private static boolean fill(int n, int k, int at, int max, int[] out) {
        if (k == 1) {
            if (n > max) {
                return false;
            }
            out[at] = n;
            return true;
        }
        // The first factor is at least the k-th root of n; try candidates from the smallest.
        int lo = Math.max(1, (int) Math.floor(Math.pow(n, 1.0 / k) - 1e-9));
        for (int f = lo; f <= Math.min(n, max); f++) {
            if (n % f != 0 || pow(f, k) < n) {
                continue;
            }
            out[at] = f;
            if (fill(n / f, k - 1, at + 1, f, out)) {
                return true;
            }
        }
        return false;
    }

    private static long pow(int f, int k) {
        long r = 1;
        for (int i = 0; i < k && r < Integer.MAX_VALUE; i++) {
            r *= f;
        }
        return r;
    }
}
