package io.rewind.apps.workloads;

import io.rewind.api.Checkpointer;
import java.nio.DoubleBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The 2-D Jacobi stencil of the examples, made fault tolerant: the grid and the sweep counter are
 * registered with the checkpointer and every sweep starts at a checkpoint point. Rows are split in
 * blocks; each sweep exchanges halo rows (iSend/iRecv/waitAll) and sums the squared update with an
 * allReduce.
 *
 * <p>Usage: {@code Stencil2D [n] [sweeps] [work]}; {@code work} repeats the relaxation of each sweep
 * to make a sweep longer without more communication. Rank 0 prints
 * {@code stencil n=.. sweeps=.. checksum=<decimal> bits=<hex>}.
 */
public final class Stencil2D {
    private static final int TAG_UP = 1;
    private static final int TAG_DOWN = 2;

    private Stencil2D() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 128;
        int sweeps = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int work = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (n < size) {
            throw new IllegalArgumentException("grid of " + n + " rows cannot be split over " + size + " ranks");
        }
        int lo = (int) ((long) n * rank / size);
        int hi = (int) ((long) n * (rank + 1) / size);
        int rows = hi - lo;
        double[] u = new double[(rows + 2) * n];
        double[] next = new double[(rows + 2) * n];
        int[] sweep = {0};
        double[] residual = new double[1];

        Checkpointer cp = Checkpointer.get();
        cp.register("u", u);
        cp.register("next", next);
        cp.register("sweep", sweep);
        cp.register("residual", residual);
        if (!cp.restore()) {
            if (rank == 0) {
                for (int j = 0; j < n; j++) {
                    u[j] = 1.0;
                    next[j] = 1.0;
                }
            }
        }
        int up = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        int down = rank < size - 1 ? rank + 1 : MPI.PROC_NULL;
        DoubleBuffer sendUp = MPI.newDoubleBuffer(n);
        DoubleBuffer sendDown = MPI.newDoubleBuffer(n);
        DoubleBuffer recvUp = MPI.newDoubleBuffer(n);
        DoubleBuffer recvDown = MPI.newDoubleBuffer(n);
        while (sweep[0] < sweeps) {
            cp.point();
            // After a sweep the newest values are in u; swapping references is done by copying so that
            // the registered arrays stay the ones in use.
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
            for (int w = 0; w < work; w++) {
                local = 0;
                for (int i = 1; i <= rows; i++) {
                    int row = i * n;
                    for (int j = 1; j < n - 1; j++) {
                        double v = 0.25 * (u[row - n + j] + u[row + n + j] + u[row + j - 1] + u[row + j + 1]);
                        double d = v - u[row + j];
                        local += d * d;
                        next[row + j] = v;
                    }
                }
            }
            System.arraycopy(next, n, u, n, rows * n);
            residual[0] = local;
            MPI.COMM_WORLD.allReduce(residual, 1, MPI.DOUBLE, MPI.SUM);
            sweep[0]++;
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
                    "stencil n=%d sweeps=%d residual=%.6e checksum=%.17g bits=%016x%n",
                    n, sweeps, Math.sqrt(residual[0]), sum[0], Double.doubleToLongBits(sum[0]));
        }
        MPI.Finalize();
    }
}
