package io.rewind.apps.ulfm;

import io.rewind.api.Ulfm;
import java.util.TreeMap;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * {@link ReplacingSolver}'s ring computation with buddy checkpoints in memory instead of files: each
 * rank keeps its own value and its left neighbour's (which the iteration brings it anyway) at every
 * {@code every}-th iteration. A replacement gets its value back from its right neighbour, its buddy, and
 * its buddy copy from its left neighbour; the survivors check the copy they are sent against their own.
 * Failures during the recovery are recovered the same way. Two neighbours lost in one failure lose
 * their copies: the job ends with that message.
 *
 * <p>Arguments: iterations (default 300), iterations between copies (default 10). The checksum equals
 * {@link ReplacingSolver}'s for the same iterations. Run with {@code --on-failure notify}.
 */
public final class BuddySolver {
    private static final long NONE = Long.MIN_VALUE;

    private BuddySolver() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int every = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        Intracomm world = MPI.COMM_WORLD;
        long[] state = {0, ReplacingSolver.initial(world.getRank())}; // {iteration, value}
        TreeMap<Long, Long> own = new TreeMap<>(); // this rank's value, by iteration
        TreeMap<Long, Long> buddy = new TreeMap<>(); // the left neighbour's value, by iteration
        boolean recovering = Ulfm.isReplacement();
        if (!recovering) {
            own.put(0L, state[1]);
        }
        int replacements = 0;
        while (true) {
            if (recovering) {
                world = recover(world, state, own, buddy);
                recovering = false;
            }
            if (state[0] >= iterations) {
                break;
            }
            int worked = 1;
            long[] next = null;
            try {
                next = ReplacingSolver.stepWithLeft(world, state[0], state[1]);
            } catch (MPIException e) {
                if (!ShrinkingSolver.isFailure(e)) {
                    throw e;
                }
                worked = 0;
            }
            if (Ulfm.agree(world, worked) == 1) {
                if (state[0] % every == 0) {
                    buddy.put(state[0], next[1]); // left's value at this iteration, which every rank now has
                    trim(own, buddy);
                }
                state[1] = next[0];
                state[0]++;
                if (state[0] % every == 0) {
                    own.put(state[0], state[1]);
                }
                continue;
            }
            Ulfm.revoke(world);
            world = Ulfm.replace(world);
            replacements++;
            recovering = true;
        }
        ReplacingSolver.printChecksum(world, state[1], iterations, replacements);
        MPI.Finalize();
    }

    /**
     * Brings every rank back to the newest iteration whose copies all survivors hold; repeated, with a
     * replacement each time, while ranks fail during it. Returns the communicator it ended on.
     */
    private static Intracomm recover(Intracomm world, long[] state, TreeMap<Long, Long> own, TreeMap<Long, Long> buddy)
            throws MPIException {
        while (true) {
            long[] restored = null;
            int worked = 1;
            try {
                restored = exchange(world, own, buddy);
            } catch (MPIException e) {
                if (!ShrinkingSolver.isFailure(e)) {
                    throw e;
                }
                worked = 0;
            }
            if (Ulfm.agree(world, worked) == 1) {
                // {iteration, own value, left's value}: kept only once every rank has its copies back.
                state[0] = restored[0];
                state[1] = restored[1];
                own.tailMap(restored[0], false).clear();
                buddy.tailMap(restored[0], true).clear();
                own.put(restored[0], restored[1]);
                if (restored[2] != NONE) {
                    buddy.put(restored[0], restored[2]);
                }
                return world;
            }
            Ulfm.revoke(world);
            world = Ulfm.replace(world);
        }
    }

    /** One attempt at the recovery's messages: {iteration, this rank's value there, left's value there}. */
    private static long[] exchange(Intracomm world, TreeMap<Long, Long> own, TreeMap<Long, Long> buddy)
            throws MPIException {
        int rank = world.getRank();
        int size = world.getSize();
        int left = (rank - 1 + size) % size;
        int right = (rank + 1) % size;
        // The newest iteration this rank holds both copies of; a replacement holds none and does not hold
        // the others back. Iteration 0 needs no copy: every value there is the initial one.
        long held = 0;
        for (long k : own.descendingKeySet()) {
            if (buddy.containsKey(k)) {
                held = k;
                break;
            }
        }
        long[] newest = {own.isEmpty() ? Long.MAX_VALUE : held};
        world.allReduce(newest, 1, MPI.LONG, MPI.MIN);
        long t = newest[0] == Long.MAX_VALUE ? 0 : newest[0];
        if (t == 0) {
            return new long[] {0, ReplacingSolver.initial(rank), ReplacingSolver.initial(left)};
        }
        // This rank's copy of left's value goes back to left; right's copy of this rank's comes back.
        long[] fromRight = new long[1];
        world.sendRecv(
                new long[] {buddy.getOrDefault(t, NONE)}, 1, MPI.LONG, left, 31, fromRight, 1, MPI.LONG, right, 31);
        long mine = own.getOrDefault(t, NONE);
        if (mine == NONE) {
            mine = fromRight[0];
            if (mine == NONE) {
                throw new IllegalStateException("rank " + rank + " and its buddy " + right
                        + " failed together: the copies of iteration " + t + " are lost");
            }
        } else if (fromRight[0] != NONE && fromRight[0] != mine) {
            throw new IllegalStateException(
                    "rank " + rank + ": the buddy copy of iteration " + t + " differs from its own");
        }
        // Then each rank's value, restored, to its right neighbour: the buddy copy it keeps from now on.
        long[] fromLeft = new long[1];
        world.sendRecv(new long[] {mine}, 1, MPI.LONG, right, 32, fromLeft, 1, MPI.LONG, left, 32);
        return new long[] {t, mine, fromLeft[0]};
    }

    /** Keeps the two newest copies of each kind. */
    private static void trim(TreeMap<Long, Long> own, TreeMap<Long, Long> buddy) {
        while (own.size() > 2) {
            own.pollFirstEntry();
        }
        while (buddy.size() > 2) {
            buddy.pollFirstEntry();
        }
    }
}
