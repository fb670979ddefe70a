package io.rewind.apps.examples;

import java.nio.DoubleBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Jacobi relaxation of Laplace's equation on an n x n grid (default 256 x 256, 200 sweeps), with the
 * top edge held at 1 and the other edges at 0. Rows are split into contiguous blocks, one per rank;
 * every sweep exchanges one halo row with each neighbour (iSend/iRecv/waitAll on direct buffers) and
 * sums the squared update in an allReduce. Prints the final residual and a checksum of the grid whose
 * bits are reproducible for a given n, sweep count and rank count.
 *
 * <p>Usage: {@code Jacobi2D [n] [sweeps]}
 */
public final class Jacobi2D {
    private static final int TAG_UP = 1;
    private static final int TAG_DOWN = 2;

    private Jacobi2D() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int sweeps = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (n < size) {
            throw new IllegalArgumentException("grid of " + n + " rows cannot be split over " + size + " ranks");
        }
        int lo = (int) ((long) n * rank / size);
        int hi = (int) ((long) n * (rank + 1) / size);
        int rows = hi - lo;
        // Local block with one ghost row above (index 0) and below (index rows + 1).
        double[] u = new double[(rows + 2) * n];
        double[] next = new double[(rows + 2) * n];
        if (rank == 0) {
            for (int j = 0; j < n; j++) {
                u[j] = 1.0; // the hot top edge lives in rank 0's upper ghost row
                next[j] = 1.0;
            }
        }
        int up = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        int down = rank < size - 1 ? rank + 1 : MPI.PROC_NULL;
        DoubleBuffer sendUp = MPI.newDoubleBuffer(n);
        DoubleBuffer sendDown = MPI.newDoubleBuffer(n);
        DoubleBuffer recvUp = MPI.newDoubleBuffer(n);
        DoubleBuffer recvDown = MPI.newDoubleBuffer(n);
        double[] residual = new double[1];
        for (int sweep = 0; sweep < sweeps; sweep++) {
            sendUp.clear();
            sendUp.put(u, n, n);
            sendDown.clear();
            sendDown.put(u, rows * n, n);
            Request[] reqs = {
                MPI.COMM_WORLD.iRecv(recvUp, n, MPI.DOUBLE, up, TAG_DOWN),
                MPI.COMM_WORLD.iRecv(recvDown, n, MPI.DOUBLE, down, TAG_UP),
                MPI.COMM_WORLD.iSend(sendUp, n, MPI.DOUBLE, up, TAG_UP),
                MPI.COMM_WORLD.iSend(sendDown, n, MPI.DOUBLE, down, TAG_DOWN),
            };
            Request.waitAll(reqs);
            if (up != MPI.PROC_NULL) {
                recvUp.clear();
                recvUp.get(u, 0, n);
            }
            if (down != MPI.PROC_NULL) {
                recvDown.clear();
                recvDown.get(u, (rows + 1) * n, n);
            }
            double local = 0;
            for (int i = 1; i <= rows; i++) {
                int row = i * n;
                for (int j = 1; j < n - 1; j++) {
                    double v = 0.25 * (u[row - n + j] + u[row + n + j] + u[row + j - 1] + u[row + j + 1]);
                    double d = v - u[row + j];
                    local += d * d;
                    next[row + j] = v;
                }
            }
            double[] swap = u;
            u = next;
            next = swap;
            residual[0] = local;
            MPI.COMM_WORLD.allReduce(residual, 1, MPI.DOUBLE, MPI.SUM);
        }
        double[] sum = {0};
        for (int i = 1; i <= rows; i++) {
            for (int j = 0; j < n; j++) {
                sum[0] += u[i * n + j];
            }
        }
        MPI.COMM_WORLD.allReduce(sum, 1, MPI.DOUBLE, MPI.SUM);
        if (rank == 0) {
            System.out.printf(
                    "jacobi n=%d sweeps=%d residual=%.6e checksum=%.17g bits=%016x%n",
                    n, sweeps, Math.sqrt(residual[0]), sum[0], Double.doubleToLongBits(sum[0]));
        }
        MPI.Finalize();
    }
}
