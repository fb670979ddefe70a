package io.rewind.apps.crossing;

import io.rewind.api.Checkpointer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Several channels crossing checkpoint lines at once. Ranks form a chain: in iteration {@code i}, rank
 * {@code r} sends its right neighbour a message it takes in the same iteration (lag 0), and sends its
 * left neighbour, on tags of their own, a message taken in iteration {@code i + 1}, one taken in
 * {@code i + 2}, one of varying length taken in {@code i + 1} through {@code iProbe} (or {@code probe}
 * when nothing has come yet) and a receive sized from the probe, and a synchronous send taken in {@code
 * i + 1}. The last rank also sends rank 0 a large message ({@value #DEFAULT_LARGE_BYTES} bytes by
 * default, over the eager limit) with a standard send, taken in {@code i + 1}.
 *
 * <p>Rank {@code r} pauses {@code pause * (r + 1) / size} milliseconds per iteration, after its lag-0
 * exchange and before its other sends, so each rank sends to its left neighbour after that neighbour
 * has passed its next checkpoint point: the messages of every lagged channel are in flight across the
 * lines, those of the lag-2 channel across two.
 *
 * <p>Free of deadlock by construction: the sends that wait for their receive (the large one and the
 * synchronous ones) all go from a higher rank to a lower one, the large one before the synchronous one,
 * and each rank receives a neighbour's messages in the order that neighbour sent them, at the top of
 * the iteration after they were sent, before it sends anything that waits. Every receive names its
 * source, so the program is channel-deterministic.
 *
 * <p>Usage: {@code CrossingMix [iterations] [largeBytes] [pauseMillis]}, two ranks or more. Prints
 * {@code crossingmix ranks=.. iterations=.. large=.. digest=.. bad=..}; the digest folds, per rank and
 * in order, every word the rank received, and {@code bad} counts messages that were not the one
 * expected.
 */
public final class CrossingMix {
    static final int DEFAULT_LARGE_BYTES = 160 << 10;

    private static final int TAG_NOW = 1;
    private static final int TAG_NEXT = 2;
    private static final int TAG_AFTER_NEXT = 3;
    private static final int TAG_PROBED = 4;
    private static final int TAG_LARGE = 5;
    private static final int TAG_SYNC = 6;

    // Indices into the registered state: the loop counter, what the rank has received so far (its
    // messages are made from it), the digest of everything received, and bad messages.
    private static final int STEP = 0;
    private static final int ACC = 1;
    private static final int DIGEST = 2;
    private static final int BAD = 3;

    private final Comm world = MPI.COMM_WORLD;
    private final int rank;
    private final int size;
    private final int iterations;
    private final long[] state = new long[4];
    private final long[] large;

    private CrossingMix(int iterations, int largeWords) throws MPIException {
        this.rank = world.getRank();
        this.size = world.getSize();
        this.iterations = iterations;
        this.large = new long[largeWords];
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        int largeBytes = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_LARGE_BYTES;
        long pause = args.length > 2 ? Long.parseLong(args[2]) : 16;
        if (MPI.COMM_WORLD.getSize() < 2 || largeBytes < 16) {
            if (MPI.COMM_WORLD.getRank() == 0) {
                System.err.println("CrossingMix runs on 2 ranks or more, with a large message of 16 bytes or more");
            }
            MPI.COMM_WORLD.abort(2);
            return;
        }
        CrossingMix mix = new CrossingMix(iterations, (largeBytes + 7) / 8);
        mix.run(pause);
        MPI.Finalize();
    }

    private void run(long pause) throws MPIException {
        Checkpointer cp = Checkpointer.get();
        cp.register("state", state);
        if (!cp.restore()) {
            state[ACC] = Fold.word(rank, 0);
        }
        while (state[STEP] < iterations) {
            cp.point();
            long i = state[STEP];
            takeLate(i);
            if (rank < size - 1) {
                world.send(message(i, 4, 1), 4, MPI.LONG, rank + 1, TAG_NOW);
            }
            if (rank > 0) {
                take(rank - 1, TAG_NOW, 4, i);
            }
            Pause.millis(pause * (rank + 1) / size);
            if (rank > 0) {
                world.send(message(i, 3, 2), 3, MPI.LONG, rank - 1, TAG_NEXT);
                world.send(message(i, 5, 3), 5, MPI.LONG, rank - 1, TAG_AFTER_NEXT);
                int n = probedLength(i);
                world.send(message(i, n, 4), n, MPI.LONG, rank - 1, TAG_PROBED);
            }
            if (rank == size - 1) {
                fillLarge(i);
                world.send(large, large.length, MPI.LONG, 0, TAG_LARGE);
            }
            if (rank > 0) {
                world.sSend(message(i, 2, 5), 2, MPI.LONG, rank - 1, TAG_SYNC);
            }
            state[STEP]++;
        }
        takeLate(iterations);
        takeLate(iterations + 1);
        long[] mine = {state[DIGEST], state[BAD]};
        long[] all = new long[2 * size];
        world.gather(mine, 2, MPI.LONG, all, 2, MPI.LONG, 0);
        if (rank == 0) {
            long digest = 0;
            long bad = 0;
            for (int r = 0; r < size; r++) {
                digest = Fold.in(digest, all[2 * r]);
                bad += all[2 * r + 1];
            }
            System.out.println("crossingmix ranks=" + size + " iterations=" + iterations + " large=" + large.length * 8
                    + " digest=" + Long.toHexString(digest) + " bad=" + bad);
        }
    }

    /**
     * The receives at the top of iteration {@code j} of messages sent in earlier iterations, in the order
     * their senders sent them; after the loop, of the messages still due.
     */
    private void takeLate(long j) throws MPIException {
        boolean previous = j - 1 >= 0 && j - 1 < iterations;
        boolean beforeThat = j - 2 >= 0 && j - 2 < iterations;
        int right = rank + 1;
        if (right < size) {
            if (previous) {
                take(right, TAG_NEXT, 3, j - 1);
            }
            if (beforeThat) {
                take(right, TAG_AFTER_NEXT, 5, j - 2);
            }
            if (previous) {
                Status found = world.iProbe(right, TAG_PROBED);
                if (found == null) {
                    found = world.probe(right, TAG_PROBED);
                }
                int n = found.getCount(MPI.LONG);
                if (n != probedLength(j - 1)) {
                    state[BAD]++;
                }
                take(right, TAG_PROBED, n, j - 1);
            }
        }
        if (rank == 0 && previous) {
            world.recv(large, large.length, MPI.LONG, size - 1, TAG_LARGE);
            check(large, size - 1, j - 1);
        }
        if (right < size && previous) {
            take(right, TAG_SYNC, 2, j - 1);
        }
    }

    /** Receives a message of {@code words} words of iteration {@code expected} and folds it in. */
    private void take(int source, int tag, int words, long expected) throws MPIException {
        long[] m = new long[words];
        world.recv(m, words, MPI.LONG, source, tag);
        check(m, source, expected);
    }

    private void check(long[] m, int source, long expected) {
        if (m[0] != expected || m[1] != source) {
            state[BAD]++;
        }
        state[DIGEST] = Fold.in(state[DIGEST], m, m.length);
        state[ACC] = Fold.in(state[ACC], m[m.length - 1]);
    }

    /** A message of iteration {@code i}: its number, the sender, then words made from the sender's state. */
    private long[] message(long i, int words, int channel) {
        long[] m = new long[words];
        m[0] = i;
        m[1] = rank;
        for (int k = 2; k < words; k++) {
            m[k] = Fold.word(state[ACC] + channel, k);
        }
        return m;
    }

    private void fillLarge(long i) {
        large[0] = i;
        large[1] = rank;
        long seed = state[ACC] + i;
        for (int k = 2; k < large.length; k++) {
            large[k] = Fold.word(seed, k);
        }
    }

    /** The probed channel's messages differ in length, so the receiver must size its buffer from the probe. */
    private static int probedLength(long i) {
        return 2 + (int) (i % 5);
    }
}
