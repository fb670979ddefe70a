package io.rewind.apps.workloads;

import io.rewind.api.Checkpointer;
import java.util.SplittableRandom;
import mpi.MPI;
import mpi.MPIException;

/**
 * Monte Carlo photon transport through a slab, shaped like SPhot. Every iteration simulates
 * {@code batches} batches of {@code photons} photons; batch j of iteration i has its own random
 * stream drawn from (seed, i, j) and runs on rank {@code j mod size}, so the physics does not depend
 * on the rank count. A photon enters the slab from the left, flies exponential distances, and at
 * each collision is absorbed or scattered in a random direction; the tallies count photons leaving
 * left, leaving right, and absorbed per depth bin.
 *
 * <p>Communication per iteration: every rank but the root sends its tallies to the root, which
 * receives them from {@code ANY_SOURCE} (the order does not matter: tallies are integer sums), then
 * everyone meets at a barrier.
 *
 * <p>Checksum: a hash of the root's accumulated tallies, the same at every rank count and equal to
 * running all batches in one thread ({@link #batch}).
 *
 * <p>Usage: {@code MonteCarlo [iterations] [batches] [photons] [seed]}. Rank 0 prints
 * {@code montecarlo iterations=.. photons=.. left=.. right=.. absorbed=.. checksum=<hex>}.
 */
public final class MonteCarlo {
    /** Tally slots: 0 left, 1 right, 2.. absorbed per depth bin. */
    static final int BINS = 16;

    static final int TALLIES = BINS + 2;
    private static final int TAG_TALLY = 51;
    /** Slab thickness in mean free paths, and the chance a collision absorbs. */
    private static final double THICKNESS = 4.0;

    private static final double ABSORB = 0.3;

    private MonteCarlo() {}

    /** Simulates one batch and adds its counts to {@code tally}. */
    static void batch(long seed, long iteration, long batch, int photons, long[] tally) {
        SplittableRandom rnd = new SplittableRandom(Workloads.mix(seed, iteration, batch));
        for (int p = 0; p < photons; p++) {
            double x = 0;
            double mu = 1; // direction cosine
            while (true) {
                x += mu * -Math.log(1.0 - rnd.nextDouble());
                if (x < 0) {
                    tally[0]++;
                    break;
                }
                if (x > THICKNESS) {
                    tally[1]++;
                    break;
                }
                if (rnd.nextDouble() < ABSORB) {
                    tally[2 + Math.min(BINS - 1, (int) (x / THICKNESS * BINS))]++;
                    break;
                }
                mu = 2 * rnd.nextDouble() - 1;
            }
        }
    }

    /** The checksum of accumulated tallies. */
    static long digest(long[] tally) {
        long h = 0;
        for (long t : tally) {
            h = Workloads.mix(h, t);
        }
        return h;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int iterations = Workloads.intArg(args, 0, 40);
        int batches = Workloads.intArg(args, 1, 16);
        int photons = Workloads.intArg(args, 2, 2000);
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 3;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        long[] total = new long[TALLIES]; // the root's accumulated tallies
        long[] iteration = {0};
        Checkpointer cp = Checkpointer.get();
        cp.register("total", total);
        cp.register("iteration", iteration);
        cp.restore();
        long[] mine = new long[TALLIES];
        long[] in = new long[TALLIES];
        while (iteration[0] < iterations) {
            cp.point();
            java.util.Arrays.fill(mine, 0);
            for (int j = rank; j < batches; j += size) {
                batch(seed, iteration[0], j, photons, mine);
            }
            if (rank == 0) {
                for (int t = 0; t < TALLIES; t++) {
                    total[t] += mine[t];
                }
                for (int r = 1; r < size; r++) {
                    MPI.COMM_WORLD.recv(in, TALLIES, MPI.LONG, MPI.ANY_SOURCE, TAG_TALLY);
                    for (int t = 0; t < TALLIES; t++) {
                        total[t] += in[t];
                    }
                }
            } else {
                MPI.COMM_WORLD.send(mine, TALLIES, MPI.LONG, 0, TAG_TALLY);
            }
            MPI.COMM_WORLD.barrier();
            iteration[0]++;
        }
        if (rank == 0) {
            long absorbed = 0;
            for (int t = 2; t < TALLIES; t++) {
                absorbed += total[t];
            }
            System.out.printf(
                    "montecarlo iterations=%d photons=%d left=%d right=%d absorbed=%d checksum=%016x%n",
                    iterations, (long) iterations * batches * photons, total[0], total[1], absorbed, digest(total));
        }
        MPI.Finalize();
    }
}
