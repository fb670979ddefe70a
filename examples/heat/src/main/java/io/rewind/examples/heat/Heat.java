package io.rewind.examples.heat;

import io.rewind.api.Checkpointer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Heat diffusion along a rod split among the ranks: every step each rank swaps its edge cells with
 * its neighbours and relaxes its cells. The grid and the step counter are the rank's state: they are
 * registered with the checkpointer, restored after a crash, and a checkpoint point is passed once per
 * step. At the end rank 0 prints a checksum of the whole rod's bits, so a run in which a rank was
 * killed and recovered can be compared with a failure-free run, bit for bit.
 *
 * <pre>
 * rewind run -n 4 -cp target/heat.jar io.rewind.examples.heat.Heat [CELLS_PER_RANK [STEPS]]
 * </pre>
 */
public final class Heat {
    private static final int TAG_LEFT = 1;
    private static final int TAG_RIGHT = 2;

    private Heat() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int cells = args.length > 0 ? positive(args[0], "CELLS_PER_RANK") : 4096;
        int steps = args.length > 1 ? positive(args[1], "STEPS") : 2000;
        Comm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();

        // cells plus one ghost cell at each end, which holds the neighbour's edge cell
        double[] grid = new double[cells + 2];
        double[] next = new double[cells + 2];
        int[] step = {0};
        Checkpointer cp = Checkpointer.get();
        cp.register("grid", grid);
        cp.register("step", step);
        if (!cp.restore()) {
            initialise(grid, rank, cells);
        }

        double[] edge = new double[1];
        double[] ghost = new double[1];
        while (step[0] < steps) {
            cp.point();
            // to the left neighbour my first cell, from the right one its first cell (and the mirror)
            if (rank > 0) {
                edge[0] = grid[1];
                world.sendRecv(edge, 1, MPI.DOUBLE, rank - 1, TAG_LEFT, ghost, 1, MPI.DOUBLE, rank - 1, TAG_RIGHT);
                grid[0] = ghost[0];
            }
            if (rank < size - 1) {
                edge[0] = grid[cells];
                world.sendRecv(edge, 1, MPI.DOUBLE, rank + 1, TAG_RIGHT, ghost, 1, MPI.DOUBLE, rank + 1, TAG_LEFT);
                grid[cells + 1] = ghost[0];
            }
            relax(grid, next, cells, rank == 0, rank == size - 1);
            System.arraycopy(next, 1, grid, 1, cells);
            step[0]++;
        }

        // A sum of integers does not depend on the order the ranks' parts are added in.
        long[] mine = {bits(grid, cells)};
        long[] all = new long[1];
        world.allReduce(mine, all, 1, MPI.LONG, MPI.SUM);
        if (rank == 0) {
            System.out.printf(
                    "heat: %d ranks, %d cells, %d steps, checkpoint points %d%n", size, cells * size, steps, cp.points());
            System.out.printf("checksum %016x%n", all[0]);
        }
        MPI.Finalize();
    }

    /** A hot spot in the middle of the rod, cold everywhere else. */
    private static void initialise(double[] grid, int rank, int cells) {
        for (int i = 1; i <= cells; i++) {
            long global = (long) rank * cells + i;
            grid[i] = Math.exp(-((global % 997) - 498) * ((global % 997) - 498) / 5000.0) * 100.0;
        }
    }

    /** One explicit step; the rod's two ends are held at zero. */
    private static void relax(double[] grid, double[] next, int cells, boolean first, boolean last) {
        if (first) {
            grid[0] = 0.0;
        }
        if (last) {
            grid[cells + 1] = 0.0;
        }
        for (int i = 1; i <= cells; i++) {
            next[i] = grid[i] + 0.25 * (grid[i - 1] - 2.0 * grid[i] + grid[i + 1]);
        }
    }

    /** The cells' bits, mixed: any change to any bit of any cell changes the checksum. */
    private static long bits(double[] grid, int cells) {
        long h = 0;
        for (int i = 1; i <= cells; i++) {
            long x = Double.doubleToRawLongBits(grid[i]) * 0x9E3779B97F4A7C15L + i;
            h += x ^ (x >>> 29);
        }
        return h;
    }

    private static int positive(String arg, String name) {
        try {
            int n = Integer.parseInt(arg);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        System.err.println("heat: " + name + " must be a positive integer, not '" + arg + "'");
        System.exit(2);
        return 0;
    }
}
