package io.rewind.apps.examples;

import mpi.MPI;
import mpi.MPIException;

/**
 * Integrates 4 / (1 + x^2) over [0, 1] with the midpoint rule (default 10,000,000 intervals),
 * intervals dealt round robin to ranks; the partial sums meet in a reduction at rank 0.
 */
public final class Pi {
    private Pi() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        long intervals = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        long[] n = {intervals};
        MPI.COMM_WORLD.bcast(n, 1, MPI.LONG, 0);
        double h = 1.0 / n[0];
        double sum = 0;
        for (long i = rank; i < n[0]; i += size) {
            double x = h * (i + 0.5);
            sum += 4.0 / (1.0 + x * x);
        }
        double[] partial = {sum * h};
        double[] pi = new double[1];
        MPI.COMM_WORLD.reduce(partial, pi, 1, MPI.DOUBLE, MPI.SUM, 0);
        if (rank == 0) {
            System.out.printf("pi ~ %.15f, error %.3e%n", pi[0], Math.abs(pi[0] - Math.PI));
        }
        MPI.Finalize();
    }
}
