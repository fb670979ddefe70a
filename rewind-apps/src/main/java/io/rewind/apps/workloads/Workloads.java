package io.rewind.apps.workloads;

import mpi.MPI;
import mpi.MPIException;

/** Small helpers the workloads share: block partitions, rank-count-independent sums, hashing. */
final class Workloads {
    private Workloads() {}

    /** First index of block {@code b} when {@code n} items are split into {@code parts} contiguous blocks. */
    static int blockStart(int n, int parts, int b) {
        return (int) ((long) n * b / parts);
    }

    /** The block that holds item {@code i}. */
    static int blockOf(int n, int parts, int i) {
        int b = (int) (((long) i * parts + parts - 1) / n);
        while (blockStart(n, parts, b) > i) {
            b--;
        }
        while (blockStart(n, parts, b + 1) <= i) {
            b++;
        }
        return b;
    }

    /**
     * The sum of {@code n} values held in global order by the ranks of {@code COMM_WORLD}, rank 0
     * first; each rank passes its own consecutive part. Rank 0 gathers the values and adds them one by
     * one in global order, so the result does not depend on how they were split; other ranks get NaN.
     */
    static double orderedSum(double[] mine, int n) throws MPIException {
        int size = MPI.COMM_WORLD.getSize();
        int rank = MPI.COMM_WORLD.getRank();
        int[] counts = new int[size];
        int[] count = {mine.length};
        MPI.COMM_WORLD.gather(count, 1, MPI.INT, counts, 1, MPI.INT, 0);
        int[] displs = new int[size];
        for (int r = 1; r < size; r++) {
            displs[r] = displs[r - 1] + counts[r - 1];
        }
        double[] all = new double[rank == 0 ? n : 0];
        MPI.COMM_WORLD.gatherv(mine, mine.length, MPI.DOUBLE, all, counts, displs, MPI.DOUBLE, 0);
        if (rank != 0) {
            return Double.NaN;
        }
        double s = 0;
        for (double v : all) {
            s += v;
        }
        return s;
    }

    /** A 64-bit mix (SplitMix64 finaliser) for deterministic pseudo-random choices. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static long mix(long a, long b) {
        return mix(a * 0x9E3779B97F4A7C15L + mix(b + 0x632BE59BD9B4E019L));
    }

    static long mix(long a, long b, long c) {
        return mix(mix(a, b), c);
    }

    static int intArg(String[] args, int i, int fallback) {
        return args.length > i ? Integer.parseInt(args[i]) : fallback;
    }
}
