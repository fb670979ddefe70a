package io.rewind.apps.workloads;

import io.rewind.api.Checkpointer;
import mpi.MPI;
import mpi.MPIException;

/**
 * A workload dominated by collectives: each step runs a broadcast and a reduction from a rotating
 * root, an allReduce, an allGather, an allToAll, a scan and a barrier, and feeds every result back
 * into the rank's state, so any wrong or missing result shows in the final checksum.
 *
 * <p>Usage: {@code CollectiveMix [steps] [width]}. Prints {@code collectives steps=.. checksum=..}.
 */
public final class CollectiveMix {
    private CollectiveMix() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        int width = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        double[] x = new double[width];
        long[] step = {0};
        long[] digest = {0};
        Checkpointer cp = Checkpointer.get();
        cp.register("x", x);
        cp.register("step", step);
        cp.register("digest", digest);
        if (!cp.restore()) {
            for (int i = 0; i < width; i++) {
                x[i] = rank + i * 0.001;
            }
        }
        while (step[0] < steps) {
            cp.point();
            int root = (int) (step[0] % size);
            double[] b = x.clone();
            MPI.COMM_WORLD.bcast(b, width, MPI.DOUBLE, root);
            double[] sum = new double[width];
            MPI.COMM_WORLD.allReduce(x, sum, width, MPI.DOUBLE, MPI.SUM);
            double[] red = new double[width];
            MPI.COMM_WORLD.reduce(x, red, width, MPI.DOUBLE, MPI.MAX, root);
            long[] mine = {digest[0] ^ rank};
            long[] all = new long[size];
            MPI.COMM_WORLD.allGather(mine, 1, MPI.LONG, all, 1, MPI.LONG);
            int[] out = new int[size];
            int[] in = new int[size];
            for (int i = 0; i < size; i++) {
                out[i] = (int) (step[0] * 1000 + rank * 10 + i);
            }
            MPI.COMM_WORLD.allToAll(out, 1, MPI.INT, in, 1, MPI.INT);
            double[] prefix = new double[1];
            MPI.COMM_WORLD.scan(new double[] {x[0]}, prefix, 1, MPI.DOUBLE, MPI.SUM);
            MPI.COMM_WORLD.barrier();
            for (int i = 0; i < width; i++) {
                x[i] = 0.5 * x[i] + 0.25 * b[i] + 0.25 * sum[i] / size + 1e-3 * prefix[0];
                if (rank == root) {
                    x[i] += 1e-6 * red[i];
                }
            }
            long d = digest[0];
            for (long v : all) {
                d = d * 31 + v;
            }
            for (int v : in) {
                d = d * 17 + v;
            }
            digest[0] = d;
            step[0]++;
        }
        double[] total = {0};
        for (double v : x) {
            total[0] += v;
        }
        MPI.COMM_WORLD.allReduce(total, 1, MPI.DOUBLE, MPI.SUM);
        long[] dig = {digest[0]};
        MPI.COMM_WORLD.allReduce(dig, 1, MPI.LONG, MPI.BXOR);
        if (rank == 0) {
            System.out.printf(
                    "collectives steps=%d checksum=%016x digest=%016x%n",
                    steps, Double.doubleToLongBits(total[0]), dig[0]);
        }
        MPI.Finalize();
    }
}
