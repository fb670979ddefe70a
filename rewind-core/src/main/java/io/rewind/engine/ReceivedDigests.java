package io.rewind.engine;

import java.util.Arrays;

/**
 * The digests ({@link MessageDigests}) of the messages one incoming channel admitted, by sequence
 * number, for the messages sent in the sender's last few recovery lines: what a restarted sender's
 * re-executed sends are checked against when this rank already holds them. A sender restarts from one
 * of its recent lines, so a digest of a message sent before the {@link #LINES} newest lines seen on
 * the channel is dropped; a restart from further back finds those sends unchecked, never wrongly
 * refused. Frames without a digest (unlogged channels) keep a 0, which checks nothing. Guarded by the
 * mailbox lock.
 */
final class ReceivedDigests {
    /** Lines of the sender whose messages' digests are kept. */
    static final int LINES = 4;

    private static final int INITIAL = 16;

    /** Sequence number of the digest at {@link #head}. */
    private long first;

    private int[] digests = new int[INITIAL];
    private int[] lines = new int[INITIAL];
    private int head;
    private int tail;
    private int newestLine;

    ReceivedDigests(long firstSequence) {
        this.first = firstSequence;
    }

    /** The next message in sequence order was admitted, sent at the sender's {@code line}, with {@code digest}. */
    void admitted(int digest, int line) {
        if (tail == digests.length) {
            makeRoom();
        }
        digests[tail] = digest;
        lines[tail] = line;
        tail++;
        if (line > newestLine) {
            newestLine = line;
            while (head < tail && lines[head] < newestLine - LINES) {
                head++;
                first++;
            }
        }
    }

    private void makeRoom() {
        int live = tail - head;
        if (live * 2 <= digests.length) {
            System.arraycopy(digests, head, digests, 0, live);
            System.arraycopy(lines, head, lines, 0, live);
        } else {
            digests = Arrays.copyOfRange(digests, head, head + live * 2);
            lines = Arrays.copyOfRange(lines, head, head + live * 2);
        }
        head = 0;
        tail = live;
    }

    /** The sequence number of the oldest digest kept. */
    long first() {
        return first;
    }

    /** The digests kept, oldest first. */
    int[] digests() {
        return Arrays.copyOfRange(digests, head, tail);
    }
}
