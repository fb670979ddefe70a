package io.rewind.apps.workloads;

import io.rewind.api.Checkpointer;
import java.nio.DoubleBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * A 3-D Poisson solve by Jacobi sweeps, shaped like the Himeno benchmark: a cube of {@code n^3}
 * points with zero boundary and a constant source, split into slabs of whole z-planes.
 *
 * <p>Communication per sweep: each rank exchanges its first and last plane with the ranks above
 * and below (iRecv, iSend, waitAll; {@code n^2} doubles each way), then sums the squared update
 * with an allReduce (the residual).
 *
 * <p>Checksum: the sum of the grid taken plane by plane in global plane order (rank 0 gathers the
 * per-plane sums), so it is the same bits at every rank count and equals a sequential solve.
 *
 * <p>Usage: {@code Stencil3D [n] [sweeps]}. Rank 0 prints
 * {@code stencil3d n=.. sweeps=.. residual=.. checksum=<decimal> bits=<hex>}.
 */
public final class Stencil3D {
    private static final int TAG_UP = 1;
    private static final int TAG_DOWN = 2;
    /** The source term h^2 f of every interior point. */
    static final double SOURCE = 1.0e-3;

    private Stencil3D() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 32;
        int sweeps = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (n < size || n < 3) {
            throw new IllegalArgumentException("a cube of " + n + " planes cannot be split over " + size + " ranks");
        }
        int lo = Workloads.blockStart(n, size, rank);
        int planes = Workloads.blockStart(n, size, rank + 1) - lo;
        int plane = n * n;
        // Local planes 1..planes, ghosts 0 and planes+1.
        double[] p = new double[(planes + 2) * plane];
        double[] next = new double[(planes + 2) * plane];
        int[] sweep = {0};
        double[] residual = new double[1];
        Checkpointer cp = Checkpointer.get();
        cp.register("p", p);
        cp.register("sweep", sweep);
        cp.register("residual", residual);
        cp.restore(); // the initial grid is all zero
        int up = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        int down = rank < size - 1 ? rank + 1 : MPI.PROC_NULL;
        DoubleBuffer sendUp = MPI.newDoubleBuffer(plane);
        DoubleBuffer sendDown = MPI.newDoubleBuffer(plane);
        DoubleBuffer recvUp = MPI.newDoubleBuffer(plane);
        DoubleBuffer recvDown = MPI.newDoubleBuffer(plane);
        while (sweep[0] < sweeps) {
            cp.point();
            sendUp.clear();
            sendUp.put(p, plane, plane);
            sendDown.clear();
            sendDown.put(p, planes * plane, plane);
            Request[] reqs = {
                MPI.COMM_WORLD.iRecv(recvUp, plane, MPI.DOUBLE, up, TAG_DOWN),
                MPI.COMM_WORLD.iRecv(recvDown, plane, MPI.DOUBLE, down, TAG_UP),
                MPI.COMM_WORLD.iSend(sendUp, plane, MPI.DOUBLE, up, TAG_UP),
                MPI.COMM_WORLD.iSend(sendDown, plane, MPI.DOUBLE, down, TAG_DOWN),
            };
            Request.waitAll(reqs);
            if (up != MPI.PROC_NULL) {
                recvUp.clear();
                recvUp.get(p, 0, plane);
            }
            if (down != MPI.PROC_NULL) {
                recvDown.clear();
                recvDown.get(p, (planes + 1) * plane, plane);
            }
            double local = 0;
            for (int k = 1; k <= planes; k++) {
                int z = lo + k - 1;
                if (z == 0 || z == n - 1) {
                    continue; // boundary planes stay zero
                }
                local += relaxPlane(p, next, k * plane, n);
            }
            System.arraycopy(next, plane, p, plane, planes * plane);
            residual[0] = local;
            MPI.COMM_WORLD.allReduce(residual, 1, MPI.DOUBLE, MPI.SUM);
            sweep[0]++;
        }
        double[] planeSums = new double[planes];
        for (int k = 0; k < planes; k++) {
            planeSums[k] = sum(p, (k + 1) * plane, plane);
        }
        double total = Workloads.orderedSum(planeSums, n);
        if (rank == 0) {
            System.out.printf(
                    "stencil3d n=%d sweeps=%d residual=%.6e checksum=%.17g bits=%016x%n",
                    n, sweeps, Math.sqrt(residual[0]), total, Double.doubleToLongBits(total));
        }
        MPI.Finalize();
    }

    /**
     * One Jacobi update of the interior of the plane starting at {@code at} (its neighbours are the
     * planes at {@code at - n*n} and {@code at + n*n}); returns the sum of squared updates.
     */
    static double relaxPlane(double[] p, double[] next, int at, int n) {
        int plane = n * n;
        double local = 0;
        for (int y = 1; y < n - 1; y++) {
            int row = at + y * n;
            for (int x = 1; x < n - 1; x++) {
                int i = row + x;
                double v = (p[i - 1] + p[i + 1] + p[i - n] + p[i + n] + p[i - plane] + p[i + plane] + SOURCE) / 6.0;
                double d = v - p[i];
                local += d * d;
                next[i] = v;
            }
        }
        return local;
    }

    static double sum(double[] a, int from, int count) {
        double s = 0;
        for (int i = from; i < from + count; i++) {
            s += a[i];
        }
        return s;
    }
}
