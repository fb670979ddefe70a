package io.rewind.apps.random;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongConsumer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Messages a random program sends at the top of one step and receives at the top of a later one, so
 * that they are in flight across the checkpoint lines in between: each step draws up to {@value
 * #MAX_PER_STEP} messages between random ranks, each with a delay of zero to {@code maxDelay} steps and
 * now and then a size over the eager limit, and now and then a wildcard gather, in which every rank but
 * a drawn root sends it a token that the root takes with {@code ANY_SOURCE} receives one step later.
 *
 * <p>What a step sends is drawn from the program's seed and the step alone, so every rank knows, without
 * state, which messages are due at its step, and a restarted rank knows it too. Every message is sent
 * with {@code bSend} through one attached buffer large enough for every message that can be
 * outstanding: a send never waits for its receive, which a later step's collective could otherwise
 * hold up for ever. A receive waits only for a message sent at the top of the same step or of an
 * earlier one, where sends come before receives; so late messages add no wait the steps themselves
 * could not satisfy, and a program without deadlock stays without. Tags lie above every tag the steps
 * use, one per message and per gather.
 */
final class LateMessages {
    /** The most messages a step sends (besides a gather's tokens). */
    static final int MAX_PER_STEP = 3;

    private static final int TAG_BASE = 100_000;
    private static final int TAGS_PER_STEP = MAX_PER_STEP + 1;
    private static final int SMALL_MAX_WORDS = 16;
    // Large messages are 128 to 192 KiB: over the eager limit, so they travel as rendezvous.
    private static final int LARGE_MIN_WORDS = 16 << 10;
    private static final int LARGE_MAX_WORDS = 24 << 10;

    /** One message: its place among its step's messages, its ends, its delay in steps and its length. */
    record Message(int index, int from, int to, int delay, int words) {}

    /** What one step sends: its messages, and the root of its gather (-1: none). */
    record Plan(List<Message> messages, int gatherRoot) {}

    private final long seed;
    private final int size;
    private final int rank;
    private final int maxDelay;
    private final int steps;
    private final LongConsumer fold;

    /**
     * @param fold where received words go, in the order they are received (the program's digest)
     */
    LateMessages(long seed, int size, int rank, int maxDelay, int steps, LongConsumer fold) {
        this.seed = seed;
        this.size = size;
        this.rank = rank;
        this.maxDelay = maxDelay;
        this.steps = steps;
        this.fold = fold;
    }

    /** The buffer to attach: room for every message a rank can have outstanding, and {@code extra} bytes. */
    int bufferBytes(int extra) {
        int perStep =
                LARGE_MAX_WORDS * 8 + MAX_PER_STEP * SMALL_MAX_WORDS * 8 + 3 * 8 + TAGS_PER_STEP * MPI.BSEND_OVERHEAD;
        return (maxDelay + 2) * perStep + extra;
    }

    /** A gather is taken one step after its tokens are sent, or in the same step when no delay is drawn. */
    private int gatherDelay() {
        return Math.min(1, maxDelay);
    }

    /** What step {@code step} sends; the same on every rank and in every incarnation. */
    Plan plan(long step) {
        Random r = new Random(seed * 0x9E3779B97F4A7C15L + step * 0xD1B54A32D192ED03L + 0x5DEECE66DL);
        int count = r.nextInt(MAX_PER_STEP + 1);
        List<Message> messages = new ArrayList<>(count);
        boolean largeDrawn = false;
        for (int i = 0; i < count; i++) {
            int from = r.nextInt(size);
            int to = size == 1 ? from : (from + 1 + r.nextInt(size - 1)) % size;
            int delay = r.nextInt(maxDelay + 1);
            boolean large = !largeDrawn && r.nextInt(6) == 0;
            largeDrawn |= large;
            int words = large
                    ? LARGE_MIN_WORDS + r.nextInt(LARGE_MAX_WORDS - LARGE_MIN_WORDS + 1)
                    : 2 + r.nextInt(SMALL_MAX_WORDS - 1);
            messages.add(new Message(i, from, to, delay, words));
        }
        int root = size > 1 && r.nextInt(3) == 0 ? r.nextInt(size) : -1;
        return new Plan(messages, root);
    }

    private static int tag(long step, int index) {
        return Math.toIntExact(TAG_BASE + step * TAGS_PER_STEP + index);
    }

    /** Sends what this rank sends at the top of {@code step}; the payloads are made from {@code digest}. */
    void send(long step, long digest) throws MPIException {
        Plan plan = plan(step);
        for (Message m : plan.messages()) {
            if (m.from() == rank) {
                long[] words = new long[m.words()];
                words[0] = step;
                words[1] = rank;
                for (int k = 2; k < words.length; k++) {
                    words[k] = digest * 31 + k * 0x9E3779B97F4A7C15L + m.index();
                }
                MPI.COMM_WORLD.bSend(words, words.length, MPI.LONG, m.to(), tag(step, m.index()));
            }
        }
        if (plan.gatherRoot() >= 0 && plan.gatherRoot() != rank) {
            long[] token = {step, rank, digest ^ (step * 0xC2B2AE3D27D4EB4FL)};
            MPI.COMM_WORLD.bSend(token, 3, MPI.LONG, plan.gatherRoot(), tag(step, MAX_PER_STEP));
        }
    }

    /**
     * Receives what is due at the top of {@code step} (after the loop: steps past the last), in a fixed
     * order, and folds it into the digest.
     */
    void receive(long step) throws MPIException {
        for (int d = 0; d <= maxDelay; d++) {
            long sent = step - d;
            if (sent < 0 || sent >= steps) {
                continue;
            }
            for (Message m : plan(sent).messages()) {
                if (m.to() == rank && m.delay() == d) {
                    long[] words = new long[m.words()];
                    MPI.COMM_WORLD.recv(words, words.length, MPI.LONG, m.from(), tag(sent, m.index()));
                    check(words[0] == sent && words[1] == m.from());
                    for (long w : words) {
                        fold.accept(w);
                    }
                }
            }
        }
        long gathered = step - gatherDelay();
        if (gathered >= 0 && gathered < steps && plan(gathered).gatherRoot() == rank) {
            gather(gathered);
        }
    }

    /** The tokens of {@code step}'s gather, in whatever order they come, folded as one sum. */
    private void gather(long step) throws MPIException {
        long[] token = new long[3];
        boolean[] seen = new boolean[size];
        long sum = 0;
        for (int k = 1; k < size; k++) {
            Status st = MPI.COMM_WORLD.recv(token, 3, MPI.LONG, MPI.ANY_SOURCE, tag(step, MAX_PER_STEP));
            int source = st.getSource();
            check(token[0] == step && token[1] == source && !seen[source]);
            seen[source] = true;
            long h = (source + 1) * 0x9E3779B97F4A7C15L ^ token[2] * 0xC2B2AE3D27D4EB4FL;
            sum += h ^ (h >>> 29);
        }
        fold.accept(sum);
    }

    /** Steps past the last whose tops still receive: the delays reach that far. */
    int drainSteps() {
        return maxDelay;
    }

    /** A message that is not the one expected changes the digest, so the run's output differs. */
    private void check(boolean expected) {
        if (!expected) {
            fold.accept(0xBADL);
        }
    }
}
