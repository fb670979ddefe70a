package io.rewind.apps.workloads;

import io.rewind.api.Checkpointer;
import java.nio.DoubleBuffer;
import java.util.ArrayList;
import java.util.List;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Conjugate gradient on a random sparse symmetric positive definite matrix over a 2-D process
 * grid, shaped like NPB CG. The matrix is {@code shift * I} plus the Laplacian of a random graph
 * whose edges are drawn from the seed ({@link #forEachEdge}); every rank builds only its block.
 *
 * <p>Layout: ranks form a {@code rows x cols} grid ({@code rows} the largest divisor of the size
 * not above its square root). Rank (r, c) holds the block of rows R_r and columns C_c of the
 * matrix; the vectors are split by rows R_r and repeated on the {@code cols} ranks of grid row r.
 *
 * <p>Communication per iteration, about the same amount on every rank: (1) each rank gets the
 * parts of p in C_c from ranks of the grid rows that hold them, chosen so that on a square grid
 * this is NPB's exchange with the transpose partner (iSend/iRecv/waitAll); (2) inside each grid row, every rank sends its partial
 * product to the others and all add them in column order (iSend/iRecv/waitAll); (3) two dot
 * products, each an allReduce on the grid-column communicator.
 *
 * <p>Checksum: the sum of the solution of {@code A x = b} ({@link #rhs}) after a fixed number of
 * iterations, and the residual norm.
 * Rounding depends on the rank count (dot products add partial sums), so runs with different
 * rank counts agree to a tolerance, runs with the same count bit for bit.
 *
 * <p>Usage: {@code ConjugateGradient [n] [edgesPerRow] [iterations] [seed]}. Rank 0 prints
 * {@code cg n=.. iterations=.. xsum=<decimal> rnorm=<decimal> bits=<hex of xsum>}.
 */
public final class ConjugateGradient {
    static final double SHIFT = 0.5;
    private static final int TAG_GATHER = 11;
    private static final int TAG_ROW = 12;

    private ConjugateGradient() {}

    /** Receives the off-diagonal entries of the graph: edge (i, j) with weight w, i != j. */
    interface EdgeSink {
        void edge(int i, int j, double w);
    }

    /** The edges of the matrix's graph: {@code edgesPerRow} per row, each added symmetrically. */
    static void forEachEdge(int n, int edgesPerRow, long seed, EdgeSink sink) {
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < edgesPerRow; k++) {
                long h = Workloads.mix(seed, i, k);
                int j = (int) Long.remainderUnsigned(h, n);
                if (j == i) {
                    continue;
                }
                double w = 0.1 + ((h >>> 40) & 0xFFFF) / 65536.0;
                sink.edge(i, j, w);
            }
        }
    }

    /** Element i of the right-hand side b. */
    static double rhs(int i) {
        return 0.5 + (i * 7 % 11) / 10.0;
    }

    /** The largest divisor of {@code size} not above its square root: the grid's row count. */
    static int gridRows(int size) {
        int rows = 1;
        for (int d = 1; (long) d * d <= size; d++) {
            if (size % d == 0) {
                rows = d;
            }
        }
        return rows;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int n = Workloads.intArg(args, 0, 4000);
        int edgesPerRow = Workloads.intArg(args, 1, 6);
        int iterations = Workloads.intArg(args, 2, 30);
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 7;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int rows = gridRows(size);
        int cols = size / rows;
        if (n < size) {
            throw new IllegalArgumentException("n=" + n + " is smaller than the " + size + " ranks");
        }
        int r = rank / cols;
        int c = rank % cols;
        Intracomm rowComm = MPI.COMM_WORLD.split(r, c); // rank in it: c
        Intracomm colComm = MPI.COMM_WORLD.split(c, r); // rank in it: r
        int rLo = Workloads.blockStart(n, rows, r);
        int rHi = Workloads.blockStart(n, rows, r + 1);
        int cLo = Workloads.blockStart(n, cols, c);
        int cHi = Workloads.blockStart(n, cols, c + 1);
        int nr = rHi - rLo;
        int nc = cHi - cLo;
        SparseBlock a = SparseBlock.build(n, edgesPerRow, seed, rLo, rHi, cLo, cHi);

        double[] x = new double[nr];
        double[] res = new double[nr];
        double[] p = new double[nr];
        double[] scalars = new double[2]; // rho, iteration
        Checkpointer cp = Checkpointer.get();
        cp.register("x", x);
        cp.register("r", res);
        cp.register("p", p);
        cp.register("scalars", scalars);
        if (!cp.restore()) {
            for (int i = 0; i < nr; i++) { // x = 0, so r = p = b
                res[i] = rhs(rLo + i);
                p[i] = res[i];
            }
            scalars[0] = dot(res, res, colComm);
        }
        double[] pCol = new double[nc];
        double[] q = new double[nr];
        double[] partial = new double[nr];
        DoubleBuffer[] rowIn = new DoubleBuffer[cols];
        for (int k = 0; k < cols; k++) {
            rowIn[k] = MPI.newDoubleBuffer(nr);
        }
        DoubleBuffer rowOut = MPI.newDoubleBuffer(nr);
        // Pieces of p's row blocks that overlap C_c, one per grid row r2: [from, to) in global indices.
        int[] ovFrom = new int[rows];
        int[] ovTo = new int[rows];
        DoubleBuffer[] colIn = new DoubleBuffer[rows];
        for (int r2 = 0; r2 < rows; r2++) {
            ovFrom[r2] = Math.max(cLo, Workloads.blockStart(n, rows, r2));
            ovTo[r2] = Math.min(cHi, Workloads.blockStart(n, rows, r2 + 1));
            colIn[r2] = MPI.newDoubleBuffer(Math.max(0, ovTo[r2] - ovFrom[r2]));
        }

        while (scalars[1] < iterations) {
            cp.point();
            // (1) p restricted to C_c. The part in row block R_r2 is held by every rank of grid row r2;
            // rank (r2, s) with s = (r + c - r2) mod cols sends it, which on a square grid is the
            // transpose partner of NPB CG and spreads the sending evenly.
            List<Request> reqs = new ArrayList<>();
            for (int r2 = 0; r2 < rows; r2++) {
                int len = ovTo[r2] - ovFrom[r2];
                if (len <= 0) {
                    continue;
                }
                if (r2 == r) {
                    System.arraycopy(p, ovFrom[r2] - rLo, pCol, ovFrom[r2] - cLo, len);
                } else {
                    int from = r2 * cols + Math.floorMod(r + c - r2, cols);
                    reqs.add(MPI.COMM_WORLD.iRecv(colIn[r2], len, MPI.DOUBLE, from, TAG_GATHER));
                }
            }
            for (int r3 = 0; r3 < rows; r3++) {
                if (r3 == r) {
                    continue;
                }
                for (int c3 = 0; c3 < cols; c3++) {
                    if (Math.floorMod(r3 + c3 - r, cols) != c) {
                        continue;
                    }
                    int from = Math.max(Workloads.blockStart(n, cols, c3), rLo);
                    int to = Math.min(Workloads.blockStart(n, cols, c3 + 1), rHi);
                    if (to > from) {
                        DoubleBuffer b = MPI.newDoubleBuffer(to - from);
                        b.put(p, from - rLo, to - from);
                        reqs.add(MPI.COMM_WORLD.iSend(b, to - from, MPI.DOUBLE, r3 * cols + c3, TAG_GATHER));
                    }
                }
            }
            Request.waitAll(reqs.toArray(new Request[0]));
            for (int r2 = 0; r2 < rows; r2++) {
                int len = ovTo[r2] - ovFrom[r2];
                if (len > 0 && r2 != r) {
                    colIn[r2].clear();
                    colIn[r2].get(pCol, ovFrom[r2] - cLo, len);
                }
            }
            // (2) the block product, summed over the grid row in column order.
            a.multiply(pCol, partial);
            reqs.clear();
            rowOut.clear();
            rowOut.put(partial);
            for (int c2 = 0; c2 < cols; c2++) {
                if (c2 != c) {
                    reqs.add(rowComm.iRecv(rowIn[c2], nr, MPI.DOUBLE, c2, TAG_ROW));
                    reqs.add(rowComm.iSend(rowOut, nr, MPI.DOUBLE, c2, TAG_ROW));
                }
            }
            Request.waitAll(reqs.toArray(new Request[0]));
            java.util.Arrays.fill(q, 0);
            for (int c2 = 0; c2 < cols; c2++) {
                if (c2 == c) {
                    for (int i = 0; i < nr; i++) {
                        q[i] += partial[i];
                    }
                } else {
                    DoubleBuffer in = rowIn[c2];
                    for (int i = 0; i < nr; i++) {
                        q[i] += in.get(i);
                    }
                }
            }
            // (3) the CG update.
            double alpha = scalars[0] / dot(p, q, colComm);
            for (int i = 0; i < nr; i++) {
                x[i] += alpha * p[i];
                res[i] -= alpha * q[i];
            }
            double rhoNew = dot(res, res, colComm);
            double beta = rhoNew / scalars[0];
            for (int i = 0; i < nr; i++) {
                p[i] = res[i] + beta * p[i];
            }
            scalars[0] = rhoNew;
            scalars[1]++;
        }
        double[] ones = new double[nr];
        java.util.Arrays.fill(ones, 1.0);
        double xsum = dot(x, ones, colComm);
        if (rank == 0) {
            System.out.printf(
                    "cg n=%d iterations=%d xsum=%.17g rnorm=%.6e bits=%016x%n",
                    n, iterations, xsum, Math.sqrt(scalars[0]), Double.doubleToLongBits(xsum));
        }
        MPI.Finalize();
    }

    /** The dot product of two row-split vectors: partial sums added over the grid column. */
    static double dot(double[] a, double[] b, Intracomm colComm) throws MPIException {
        double[] s = {0};
        for (int i = 0; i < a.length; i++) {
            s[0] += a[i] * b[i];
        }
        colComm.allReduce(s, 1, MPI.DOUBLE, MPI.SUM);
        return s[0];
    }

    /** The rows [rLo, rHi) and columns [cLo, cHi) of the matrix, in compressed row form. */
    static final class SparseBlock {
        final int rLo;
        final int[] rowStart;
        final int[] col;
        final double[] val;

        private SparseBlock(int rLo, int[] rowStart, int[] col, double[] val) {
            this.rLo = rLo;
            this.rowStart = rowStart;
            this.col = col;
            this.val = val;
        }

        static SparseBlock build(int n, int edgesPerRow, long seed, int rLo, int rHi, int cLo, int cHi) {
            int nr = rHi - rLo;
            double[] diag = new double[nr];
            List<List<double[]>> rowsOf = new ArrayList<>();
            for (int i = 0; i < nr; i++) {
                rowsOf.add(new ArrayList<>());
            }
            forEachEdge(n, edgesPerRow, seed, (i, j, w) -> {
                for (int pass = 0; pass < 2; pass++) {
                    int row = pass == 0 ? i : j;
                    int other = pass == 0 ? j : i;
                    if (row >= rLo && row < rHi) {
                        diag[row - rLo] += w;
                        if (other >= cLo && other < cHi) {
                            rowsOf.get(row - rLo).add(new double[] {other - cLo, -w});
                        }
                    }
                }
            });
            int[] rowStart = new int[nr + 1];
            int nnz = 0;
            for (int i = 0; i < nr; i++) {
                int g = rLo + i;
                nnz += rowsOf.get(i).size() + (g >= cLo && g < cHi ? 1 : 0);
                rowStart[i + 1] = nnz;
            }
            int[] col = new int[nnz];
            double[] val = new double[nnz];
            int at = 0;
            for (int i = 0; i < nr; i++) {
                int g = rLo + i;
                if (g >= cLo && g < cHi) {
                    col[at] = g - cLo;
                    val[at++] = SHIFT + diag[i];
                }
                for (double[] e : rowsOf.get(i)) {
                    col[at] = (int) e[0];
                    val[at++] = e[1];
                }
            }
            return new SparseBlock(rLo, rowStart, col, val);
        }

        void multiply(double[] in, double[] out) {
            for (int i = 0; i < out.length; i++) {
                double s = 0;
                for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
                    s += val[k] * in[col[k]];
                }
                out[i] = s;
            }
        }
    }
}
