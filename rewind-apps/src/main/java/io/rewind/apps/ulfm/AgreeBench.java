package io.rewind.apps.ulfm;

import io.rewind.api.Ulfm;
import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;

/**
 * Agreement against an all-reduce of one int, side by side: rounds of {@code calls} agreements and
 * {@code calls} all-reduces, interleaved, each round timed; rank 0 prints the median time per call of
 * each and their ratio with its spread (the ratios' lowest and highest over the rounds).
 *
 * <p>Arguments: rounds (default 15), calls per round (default 200).
 */
public final class AgreeBench {
    private AgreeBench() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        double[] agree = new double[rounds];
        double[] reduce = new double[rounds];
        int[] v = {1};
        for (int warm = 0; warm < calls; warm++) {
            Ulfm.agree(MPI.COMM_WORLD, 1);
            MPI.COMM_WORLD.allReduce(v, 1, MPI.INT, MPI.BAND);
        }
        for (int r = 0; r < rounds; r++) {
            boolean agreeFirst = r % 2 == 0;
            for (int half = 0; half < 2; half++) {
                boolean doAgree = (half == 0) == agreeFirst;
                MPI.COMM_WORLD.barrier();
                long t0 = System.nanoTime();
                for (int i = 0; i < calls; i++) {
                    if (doAgree) {
                        Ulfm.agree(MPI.COMM_WORLD, 1);
                    } else {
                        MPI.COMM_WORLD.allReduce(v, 1, MPI.INT, MPI.BAND);
                    }
                }
                double us = (System.nanoTime() - t0) / 1e3 / calls;
                (doAgree ? agree : reduce)[r] = us;
            }
        }
        if (MPI.COMM_WORLD.getRank() == 0) {
            double[] ratio = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                ratio[r] = agree[r] / reduce[r];
            }
            Arrays.sort(agree);
            Arrays.sort(reduce);
            Arrays.sort(ratio);
            System.out.printf(
                    java.util.Locale.ROOT,
                    "ranks %d: agree %.1f us, allReduce(1 int) %.1f us, ratio %.2f (%.2f-%.2f)%n",
                    MPI.COMM_WORLD.getSize(),
                    agree[rounds / 2],
                    reduce[rounds / 2],
                    ratio[rounds / 2],
                    ratio[0],
                    ratio[rounds - 1]);
        }
        MPI.Finalize();
    }
}
