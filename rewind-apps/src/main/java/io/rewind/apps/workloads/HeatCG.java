package io.rewind.apps.workloads;

import io.rewind.api.Checkpointer;
import java.nio.DoubleBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * 2-D heat conduction with an implicit time step, shaped like TeaLeaf: each step solves
 * {@code (I + k L) u' = u} by conjugate gradient, L the 5-point Laplacian of an insulated plate
 * (a cell exchanges heat only with the neighbours it has). The plate starts at temperature 1 with
 * a hot rectangle at 10. Rows of the {@code nx x ny} grid are split in blocks over the ranks.
 *
 * <p>Communication per CG iteration: a halo exchange of one row with the ranks above and below
 * (iRecv, iSend, waitAll) for the matrix product, and two allReduce dot products; the step's
 * convergence test is on an allReduced value, so every rank takes the same number of iterations.
 *
 * <p>Checksum: the total heat (the matrix's columns sum to 1, so it is conserved up to the
 * solver's tolerance: a known value) and a position-weighted sum. Rounding depends on the rank
 * count, so different counts agree to a tolerance, the same count bit for bit.
 *
 * <p>Usage: {@code HeatCG [nx] [ny] [steps] [maxCgIterations]}. Rank 0 prints
 * {@code heat nx=.. ny=.. steps=.. total=<decimal> weighted=<decimal> cg=<iterations> bits=<hex of weighted>}.
 */
public final class HeatCG {
    /** Conductivity times the time step over the squared cell width. */
    static final double K = 0.2;

    static final double TOLERANCE = 1e-12;
    private static final int TAG_UP = 21;
    private static final int TAG_DOWN = 22;

    private HeatCG() {}

    /** The initial temperature of cell (row y, column x). */
    static double initial(int nx, int ny, int y, int x) {
        return (y >= ny / 4 && y < ny / 2 && x >= nx / 3 && x < nx / 2 + 1) ? 10.0 : 1.0;
    }

    /** The weight of cell (y, x) in the position-weighted checksum. */
    static double weight(int nx, int y, int x) {
        return ((long) y * nx + x) % 7 + 1;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int nx = Workloads.intArg(args, 0, 128);
        int ny = Workloads.intArg(args, 1, 128);
        int steps = Workloads.intArg(args, 2, 20);
        int maxCg = Workloads.intArg(args, 3, 200);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (ny < size) {
            throw new IllegalArgumentException("ny=" + ny + " rows cannot be split over " + size + " ranks");
        }
        int yLo = Workloads.blockStart(ny, size, rank);
        int rows = Workloads.blockStart(ny, size, rank + 1) - yLo;
        int cells = rows * nx;
        double[] u = new double[cells];
        long[] counters = new long[2]; // step, CG iterations so far
        Checkpointer cp = Checkpointer.get();
        cp.register("u", u);
        cp.register("counters", counters);
        if (!cp.restore()) {
            for (int i = 0; i < rows; i++) {
                for (int x = 0; x < nx; x++) {
                    u[i * nx + x] = initial(nx, ny, yLo + i, x);
                }
            }
        }
        int up = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        int down = rank < size - 1 ? rank + 1 : MPI.PROC_NULL;
        Halo halo = new Halo(nx, rows, up, down);
        // CG vectors; p has ghost rows 0 and rows+1.
        double[] x = new double[cells];
        double[] r = new double[cells];
        double[] p = new double[(rows + 2) * nx];
        double[] w = new double[cells];
        while (counters[0] < steps) {
            cp.point();
            // Solve (I + K L) x = u starting from x = u: r = u - A u.
            System.arraycopy(u, 0, x, 0, cells);
            System.arraycopy(u, 0, p, nx, cells);
            halo.exchange(p);
            apply(p, w, nx, rows, yLo, ny);
            for (int i = 0; i < cells; i++) {
                r[i] = u[i] - w[i];
            }
            double rho = dot(r, r);
            double stop = TOLERANCE * TOLERANCE * dot(u, u);
            System.arraycopy(r, 0, p, nx, cells);
            int it = 0;
            while (it < maxCg && rho > stop) {
                halo.exchange(p);
                apply(p, w, nx, rows, yLo, ny);
                double alpha = rho / dotShifted(p, w, nx);
                for (int i = 0; i < cells; i++) {
                    x[i] += alpha * p[i + nx];
                    r[i] -= alpha * w[i];
                }
                double rhoNew = dot(r, r);
                double beta = rhoNew / rho;
                for (int i = 0; i < cells; i++) {
                    p[i + nx] = r[i] + beta * p[i + nx];
                }
                rho = rhoNew;
                it++;
            }
            System.arraycopy(x, 0, u, 0, cells);
            counters[1] += it;
            counters[0]++;
        }
        double[] sums = {0, 0};
        for (int i = 0; i < rows; i++) {
            for (int xx = 0; xx < nx; xx++) {
                double v = u[i * nx + xx];
                sums[0] += v;
                sums[1] += v * weight(nx, yLo + i, xx);
            }
        }
        MPI.COMM_WORLD.allReduce(sums, 2, MPI.DOUBLE, MPI.SUM);
        if (rank == 0) {
            System.out.printf(
                    "heat nx=%d ny=%d steps=%d total=%.17g weighted=%.17g cg=%d bits=%016x%n",
                    nx, ny, steps, sums[0], sums[1], counters[1], Double.doubleToLongBits(sums[1]));
        }
        MPI.Finalize();
    }

    /** w = (I + K L) p on the local rows; p has ghost rows (global rows outside the plate are skipped). */
    static void apply(double[] p, double[] w, int nx, int rows, int yLo, int ny) {
        for (int i = 0; i < rows; i++) {
            int y = yLo + i;
            int at = (i + 1) * nx;
            for (int x = 0; x < nx; x++) {
                double c = p[at + x];
                double s = 0;
                int degree = 0;
                if (x > 0) {
                    s += p[at + x - 1];
                    degree++;
                }
                if (x < nx - 1) {
                    s += p[at + x + 1];
                    degree++;
                }
                if (y > 0) {
                    s += p[at + x - nx];
                    degree++;
                }
                if (y < ny - 1) {
                    s += p[at + x + nx];
                    degree++;
                }
                w[i * nx + x] = c + K * (degree * c - s);
            }
        }
    }

    private static double dot(double[] a, double[] b) throws MPIException {
        double[] s = {0};
        for (int i = 0; i < a.length; i++) {
            s[0] += a[i] * b[i];
        }
        MPI.COMM_WORLD.allReduce(s, 1, MPI.DOUBLE, MPI.SUM);
        return s[0];
    }

    private static double dotShifted(double[] ghosted, double[] b, int nx) throws MPIException {
        double[] s = {0};
        for (int i = 0; i < b.length; i++) {
            s[0] += ghosted[i + nx] * b[i];
        }
        MPI.COMM_WORLD.allReduce(s, 1, MPI.DOUBLE, MPI.SUM);
        return s[0];
    }

    /** The exchange of one ghost row with each neighbour. */
    private static final class Halo {
        private final int nx;
        private final int rows;
        private final int up;
        private final int down;
        private final DoubleBuffer sendUp;
        private final DoubleBuffer sendDown;
        private final DoubleBuffer recvUp;
        private final DoubleBuffer recvDown;

        Halo(int nx, int rows, int up, int down) {
            this.nx = nx;
            this.rows = rows;
            this.up = up;
            this.down = down;
            sendUp = MPI.newDoubleBuffer(nx);
            sendDown = MPI.newDoubleBuffer(nx);
            recvUp = MPI.newDoubleBuffer(nx);
            recvDown = MPI.newDoubleBuffer(nx);
        }

        void exchange(double[] p) throws MPIException {
            sendUp.clear();
            sendUp.put(p, nx, nx);
            sendDown.clear();
            sendDown.put(p, rows * nx, nx);
            Request[] reqs = {
                MPI.COMM_WORLD.iRecv(recvUp, nx, MPI.DOUBLE, up, TAG_DOWN),
                MPI.COMM_WORLD.iRecv(recvDown, nx, MPI.DOUBLE, down, TAG_UP),
                MPI.COMM_WORLD.iSend(sendUp, nx, MPI.DOUBLE, up, TAG_UP),
                MPI.COMM_WORLD.iSend(sendDown, nx, MPI.DOUBLE, down, TAG_DOWN),
            };
            Request.waitAll(reqs);
            if (up != MPI.PROC_NULL) {
                recvUp.clear();
                recvUp.get(p, 0, nx);
            }
            if (down != MPI.PROC_NULL) {
                recvDown.clear();
                recvDown.get(p, (rows + 1) * nx, nx);
            }
        }
    }
}
