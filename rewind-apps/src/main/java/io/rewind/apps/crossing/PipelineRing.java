package io.rewind.apps.crossing;

import io.rewind.api.Checkpointer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * A ring received one iteration late, and a wildcard gather received one iteration late. In iteration
 * {@code i} every rank sends its right neighbour a message made from what it has received so far, and
 * takes the message its left neighbour sent in iteration {@code i - 1}; every rank but 0 also sends rank
 * 0 a token of iteration {@code i}, which rank 0 takes in iteration {@code i + 1} with {@code
 * ANY_SOURCE} receives. The last rank pauses before it sends, the others do not, and all of them wait
 * for it: every rank but the last waits at its receive having passed its next checkpoint point before
 * its left neighbour sent, so the ring's messages (but those the last rank takes, which wait in its
 * queue) and the last rank's tokens are in flight across the lines.
 *
 * <p>Tokens of one iteration carry a tag of their own (the iteration modulo {@value #TOKEN_TAGS}): a
 * rank can run as many iterations ahead of rank 0 as it is ranks away from it, and a wildcard
 * receive of iteration {@code i} must not take a token of a later one. The tokens of an iteration are
 * summed as order-independent terms, since MPI leaves their arrival order free; each is checked to be
 * of its iteration and from the rank it says, once per rank. The ring's messages are folded in order.
 *
 * <p>Usage: {@code PipelineRing [iterations] [words] [pauseMillis]}, two ranks or more. Prints {@code
 * pipeline ranks=.. iterations=.. words=.. ring=.. tokens=.. bad=..}.
 */
public final class PipelineRing {
    private static final int TAG_RING = 1;
    private static final int TOKEN_TAG_BASE = 1000;
    /**
     * More than the iterations a token can be ahead of the gather that takes it (at most the number of
     * ranks).
     */
    private static final int TOKEN_TAGS = 4096;

    // Indices into the registered state: the loop counter, what the rank has received so far (its
    // messages are made from it), the ring checksum, the token checksum (rank 0) and bad messages.
    private static final int STEP = 0;
    private static final int ACC = 1;
    private static final int RING = 2;
    private static final int TOKENS = 3;
    private static final int BAD = 4;

    private PipelineRing() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 48;
        int words = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        long pause = args.length > 2 ? Long.parseLong(args[2]) : 15;
        Comm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        if (size < 2 || size >= TOKEN_TAGS || words < 2 || words > 4096) {
            if (rank == 0) {
                // Ring messages stay under the eager limit: a blocking send around a ring of rendezvous
                // messages would wait for a receive that waits for it.
                System.err.println("PipelineRing runs on 2 to " + (TOKEN_TAGS - 1) + " ranks with 2 to 4096 words");
            }
            world.abort(2);
            return;
        }
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        long[] state = new long[5];
        Checkpointer cp = Checkpointer.get();
        cp.register("state", state);
        if (!cp.restore()) {
            state[ACC] = Fold.word(rank, 0);
        }
        long[] ring = new long[words];
        while (state[STEP] < iterations) {
            cp.point();
            long i = state[STEP];
            if (i >= 1) {
                takeRing(state, ring, left, i - 1);
                if (rank == 0) {
                    gatherTokens(state, size, i - 1);
                }
            }
            if (rank == size - 1) {
                Pause.millis(pause);
            }
            ring[0] = i;
            ring[1] = rank;
            for (int k = 2; k < words; k++) {
                ring[k] = Fold.word(state[ACC], k);
            }
            world.send(ring, words, MPI.LONG, right, TAG_RING);
            if (rank != 0) {
                long[] token = {i, rank, Fold.word(state[ACC], i)};
                world.send(token, 3, MPI.LONG, 0, tokenTag(i));
            }
            state[STEP]++;
        }
        if (iterations >= 1) {
            takeRing(state, ring, left, iterations - 1);
            if (rank == 0) {
                gatherTokens(state, size, iterations - 1);
            }
        }
        long[] mine = {state[RING], state[BAD]};
        long[] all = new long[2 * size];
        world.gather(mine, 2, MPI.LONG, all, 2, MPI.LONG, 0);
        if (rank == 0) {
            long ringSum = 0;
            long bad = 0;
            for (int r = 0; r < size; r++) {
                ringSum = Fold.in(ringSum, all[2 * r]);
                bad += all[2 * r + 1];
            }
            System.out.println("pipeline ranks=" + size + " iterations=" + iterations + " words=" + words + " ring="
                    + Long.toHexString(ringSum) + " tokens=" + Long.toHexString(state[TOKENS]) + " bad=" + bad);
        }
        MPI.Finalize();
    }

    private static int tokenTag(long iteration) {
        return TOKEN_TAG_BASE + (int) (iteration % TOKEN_TAGS);
    }

    /** Takes the left neighbour's message of iteration {@code expected} and folds it, in order. */
    private static void takeRing(long[] state, long[] ring, int left, long expected) throws MPIException {
        MPI.COMM_WORLD.recv(ring, ring.length, MPI.LONG, left, TAG_RING);
        if (ring[0] != expected || ring[1] != left) {
            state[BAD]++;
        }
        state[RING] = Fold.in(state[RING], ring, ring.length);
        state[ACC] = Fold.in(state[ACC], ring[ring.length - 1]);
    }

    /**
     * Takes the tokens of {@code iteration} from every other rank, in whatever order they come, and
     * folds their sum into the token checksum.
     */
    private static void gatherTokens(long[] state, int size, long iteration) throws MPIException {
        long[] token = new long[3];
        boolean[] seen = new boolean[size];
        long sum = 0;
        for (int k = 1; k < size; k++) {
            Status st = MPI.COMM_WORLD.recv(token, 3, MPI.LONG, MPI.ANY_SOURCE, tokenTag(iteration));
            int source = st.getSource();
            if (token[0] != iteration || token[1] != source || seen[source]) {
                state[BAD]++;
            }
            seen[source] = true;
            sum += Fold.term(source, token[2]);
        }
        state[TOKENS] = Fold.in(state[TOKENS], sum);
    }
}
