package io.rewind.apps.ulfm;

import io.rewind.api.Checkpointer;
import io.rewind.api.Ulfm;
import java.util.TreeMap;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A ring computation that replaces the ranks it loses and rolls back from its own checkpoints. Each
 * rank holds one value; an iteration mixes in the value of the rank on its left. The state is
 * registered with the {@link Checkpointer}; a replacement starts from its rank's newest checkpoint, the
 * survivors from the copy they kept of the same iteration, and all go on from there, so the checksum
 * rank 0 prints equals the failure-free run's.
 *
 * <p>Arguments: iterations (default 300). Run with {@code --on-failure notify --checkpoint-every N}.
 */
public final class ReplacingSolver {
    private ReplacingSolver() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        Checkpointer cp = Checkpointer.get();
        long[] state = new long[2]; // {iteration, value}
        cp.register("state", state);
        Intracomm world = MPI.COMM_WORLD;
        // The copies of this rank's state at the iterations it checkpointed (the newest three).
        TreeMap<Long, Long> copies = new TreeMap<>();
        long pointed; // the newest iteration this incarnation passed a checkpoint point at
        if (cp.restore()) {
            copies.put(state[0], state[1]);
            pointed = state[0] - 1;
        } else {
            state[0] = 0;
            state[1] = initial(world.getRank());
            pointed = -1;
        }
        int replacements = 0;
        if (Ulfm.isReplacement()) {
            world = recover(world, state, copies);
        }
        while (state[0] < iterations) {
            if (state[0] > pointed) {
                pointed = state[0];
                if (cp.point()) {
                    copies.put(state[0], state[1]);
                    while (copies.size() > 3) {
                        copies.pollFirstEntry();
                    }
                }
            }
            int worked = 1;
            long next = 0;
            try {
                next = step(world, state[0], state[1]);
            } catch (MPIException e) {
                if (!ShrinkingSolver.isFailure(e)) {
                    throw e;
                }
                worked = 0;
            }
            if (Ulfm.agree(world, worked) == 1) {
                state[1] = next;
                state[0]++;
                continue;
            }
            Ulfm.revoke(world);
            world = recover(Ulfm.replace(world), state, copies);
            replacements++;
        }
        printChecksum(world, state[1], iterations, replacements);
        MPI.Finalize();
    }

    /**
     * Rolls every rank back ({@link #rollBack}); repeated, with a replacement each time, while ranks fail
     * during it. Returns the communicator it ended on.
     */
    private static Intracomm recover(Intracomm world, long[] state, TreeMap<Long, Long> copies) throws MPIException {
        while (true) {
            int worked = 1;
            try {
                rollBack(world, state, copies);
            } catch (MPIException e) {
                if (!ShrinkingSolver.isFailure(e)) {
                    throw e;
                }
                worked = 0;
            }
            if (Ulfm.agree(world, worked) == 1) {
                return world;
            }
            Ulfm.revoke(world);
            world = Ulfm.replace(world);
        }
    }

    /** Every rank goes back to the newest iteration all of them have a copy of. */
    private static void rollBack(Intracomm world, long[] state, TreeMap<Long, Long> copies) throws MPIException {
        long[] newest = {copies.isEmpty() ? 0 : copies.lastKey()};
        world.allReduce(newest, 1, MPI.LONG, MPI.MIN);
        Long value = copies.get(newest[0]);
        if (value == null) {
            if (newest[0] != 0) {
                throw new IllegalStateException("rank " + world.getRank() + " has no copy of iteration " + newest[0]);
            }
            value = initial(world.getRank());
        }
        state[0] = newest[0];
        state[1] = value;
    }

    /** Rank 0 prints the sum of every rank's value: the checksum the failure-free run must match. */
    static void printChecksum(Intracomm world, long value, int iterations, int replacements) throws MPIException {
        long[] sum = {value};
        world.allReduce(sum, 1, MPI.LONG, MPI.SUM);
        if (world.getRank() == 0) {
            System.out.println("checksum " + Long.toHexString(sum[0]) + " after " + iterations + " iterations, "
                    + replacements + " replacements");
        }
    }

    /** A rank's value before the first iteration. */
    static long initial(int rank) {
        return rank * 0x9E3779B97F4A7C15L + 1;
    }

    /** One iteration: this rank's value mixed with its left neighbour's. */
    private static long step(Intracomm world, long iteration, long value) throws MPIException {
        return stepWithLeft(world, iteration, value)[0];
    }

    /** One iteration: {this rank's next value, the left neighbour's value it mixed in}. */
    static long[] stepWithLeft(Intracomm world, long iteration, long value) throws MPIException {
        int rank = world.getRank();
        int size = world.getSize();
        long[] out = {value};
        long[] in = new long[1];
        world.sendRecv(out, 1, MPI.LONG, (rank + 1) % size, 7, in, 1, MPI.LONG, (rank - 1 + size) % size, 7);
        long x = value * 31 + in[0] + iteration;
        x ^= x >>> 29;
        return new long[] {x * 0xBF58476D1CE4E5B9L, in[0]};
    }
}
