package io.rewind.apps.examples;

import mpi.CartComm;
import mpi.CartParms;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

/**
 * Heat diffusion on a periodic n x n grid (default 128 x 128, 200 steps) split over a 2-D Cartesian
 * process grid: {@code CartComm.createDims} chooses the grid, {@code createCart} builds it, and every
 * step exchanges one halo row or column with each of the four neighbours {@code shift} names, with
 * {@code sendRecv}, then sums the squared update in an allReduce. Prints the final residual and a
 * checksum whose bits are reproducible for a given n, step count and rank count.
 *
 * <p>Usage: {@code CartStencil [n] [steps]}
 */
public final class CartStencil {
    private static final int TAG_ROWS = 1;
    private static final int TAG_COLS = 2;

    private CartStencil() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 128;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int size = MPI.COMM_WORLD.getSize();
        int[] dims = new int[2];
        CartComm.createDims(size, dims);
        if (n < dims[0] || n < dims[1]) {
            throw new IllegalArgumentException(
                    "a grid of " + n + " x " + n + " cannot be split over " + dims[0] + " x " + dims[1] + " ranks");
        }
        CartComm grid = MPI.COMM_WORLD.createCart(dims, new boolean[] {true, true}, false);
        CartParms topo = grid.getTopo();
        int row = topo.getCoord(0);
        int col = topo.getCoord(1);
        int top = (int) ((long) n * row / dims[0]);
        int rows = (int) ((long) n * (row + 1) / dims[0]) - top;
        int left = (int) ((long) n * col / dims[1]);
        int cols = (int) ((long) n * (col + 1) / dims[1]) - left;
        int w = cols + 2; // local block with a ghost layer all round
        double[] u = new double[(rows + 2) * w];
        double[] next = new double[(rows + 2) * w];
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                int gi = top + i - 1;
                int gj = left + j - 1;
                u[i * w + j] = Math.sin(2 * Math.PI * gi / n) * Math.cos(2 * Math.PI * gj / n) + (gi == gj ? 1 : 0);
            }
        }
        ShiftParms vertical = grid.shift(0, 1);
        ShiftParms horizontal = grid.shift(1, 1);
        double[] rowOut = new double[cols];
        double[] rowIn = new double[cols];
        double[] colOut = new double[rows];
        double[] colIn = new double[rows];
        double[] residual = new double[1];
        for (int step = 0; step < steps; step++) {
            // last row down, first ghost row from above; then first row up, last ghost row from below
            System.arraycopy(u, rows * w + 1, rowOut, 0, cols);
            grid.sendRecv(
                    rowOut,
                    cols,
                    MPI.DOUBLE,
                    vertical.getRankDest(),
                    TAG_ROWS,
                    rowIn,
                    cols,
                    MPI.DOUBLE,
                    vertical.getRankSource(),
                    TAG_ROWS);
            System.arraycopy(rowIn, 0, u, 1, cols);
            System.arraycopy(u, w + 1, rowOut, 0, cols);
            grid.sendRecv(
                    rowOut,
                    cols,
                    MPI.DOUBLE,
                    vertical.getRankSource(),
                    TAG_ROWS,
                    rowIn,
                    cols,
                    MPI.DOUBLE,
                    vertical.getRankDest(),
                    TAG_ROWS);
            System.arraycopy(rowIn, 0, u, (rows + 1) * w + 1, cols);
            // last column right, first ghost column from the left; then the other way
            for (int i = 0; i < rows; i++) {
                colOut[i] = u[(i + 1) * w + cols];
            }
            grid.sendRecv(
                    colOut,
                    rows,
                    MPI.DOUBLE,
                    horizontal.getRankDest(),
                    TAG_COLS,
                    colIn,
                    rows,
                    MPI.DOUBLE,
                    horizontal.getRankSource(),
                    TAG_COLS);
            for (int i = 0; i < rows; i++) {
                u[(i + 1) * w] = colIn[i];
                colOut[i] = u[(i + 1) * w + 1];
            }
            grid.sendRecv(
                    colOut,
                    rows,
                    MPI.DOUBLE,
                    horizontal.getRankSource(),
                    TAG_COLS,
                    colIn,
                    rows,
                    MPI.DOUBLE,
                    horizontal.getRankDest(),
                    TAG_COLS);
            for (int i = 0; i < rows; i++) {
                u[(i + 1) * w + cols + 1] = colIn[i];
            }
            double local = 0;
            for (int i = 1; i <= rows; i++) {
                for (int j = 1; j <= cols; j++) {
                    int k = i * w + j;
                    double v = u[k] + 0.2 * (u[k - w] + u[k + w] + u[k - 1] + u[k + 1] - 4 * u[k]);
                    double d = v - u[k];
                    local += d * d;
                    next[k] = v;
                }
            }
            double[] swap = u;
            u = next;
            next = swap;
            residual[0] = local;
            grid.allReduce(residual, 1, MPI.DOUBLE, MPI.SUM);
        }
        double[] sum = {0};
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                sum[0] += u[i * w + j] * (1 + ((top + i + left + j) & 7));
            }
        }
        grid.allReduce(sum, 1, MPI.DOUBLE, MPI.SUM);
        if (grid.getRank() == 0) {
            System.out.printf(
                    "cart-stencil n=%d steps=%d grid=%dx%d residual=%.6e checksum=%.17g bits=%016x%n",
                    n, steps, dims[0], dims[1], Math.sqrt(residual[0]), sum[0], Double.doubleToLongBits(sum[0]));
        }
        grid.free();
        MPI.Finalize();
    }
}
