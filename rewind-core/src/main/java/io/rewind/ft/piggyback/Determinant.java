package io.rewind.ft.piggyback;

import java.util.Arrays;

/**
 * The outcome of one non-deterministic event of one rank incarnation: which message a wildcard
 * receive matched, or what a completion function or probe returned. Events are numbered per kind by
 * the engine ({@code index}); a restarted incarnation that is given the determinant repeats the
 * outcome.
 *
 * <p>On the wire (piggybacked words, answers to a restarted rank, checkpoints) a determinant is
 * {@link #HEADER_WORDS} longs, {@code origin << 32 | incarnation}, {@code kind << 32 | values},
 * {@code index}, then its values.
 *
 * @param origin      the world rank whose event it is
 * @param incarnation the incarnation that made it: a newer one's determinant of the same event wins
 * @param kind        {@link #WILDCARD}, {@link #POLL} or {@link #RUN}
 * @param index       the event's number among the rank's events of that kind (for a run: its first)
 * @param values      for a wildcard receive: source, tag, sequence; for a poll: the outcome; for a run:
 *                    how many consecutive polls, then the outcome each of them had
 */
record Determinant(int origin, int incarnation, int kind, long index, long[] values) {
    static final int WILDCARD = 1;
    static final int POLL = 2;
    /**
     * Consecutive polls with one outcome (a loop of unsuccessful tests or probes): one determinant,
     * grown as the loop goes on, instead of one per poll.
     */
    static final int RUN = 3;

    static final int HEADER_WORDS = 3;
    /** The longest outcome a determinant may carry (a testSome over this many requests). */
    static final int MAX_VALUES = 1 << 20;

    Determinant {
        if (origin < 0 || incarnation < 0 || index < 0 || (kind != WILDCARD && kind != POLL && kind != RUN)) {
            throw new IllegalArgumentException(
                    "determinant of rank " + origin + "." + incarnation + ", kind " + kind + ", event " + index);
        }
        if (kind == WILDCARD && values.length != 3) {
            throw new IllegalArgumentException("a wildcard determinant has 3 values, not " + values.length);
        }
        if (kind == RUN && (values.length < 1 || values[0] < 1)) {
            throw new IllegalArgumentException("a run of polls counts at least one poll");
        }
    }

    /** For a run: how many polls it covers (1 for any other determinant). */
    long events() {
        return kind == RUN ? values[0] : 1;
    }

    /** The event it describes, whatever the incarnation that made it. */
    Event event() {
        return new Event(origin, kind, index);
    }

    int words() {
        return HEADER_WORDS + values.length;
    }

    void writeTo(long[] out, int at) {
        out[at] = ((long) origin << 32) | (incarnation & 0xffffffffL);
        out[at + 1] = ((long) kind << 32) | values.length;
        out[at + 2] = index;
        System.arraycopy(values, 0, out, at + HEADER_WORDS, values.length);
    }

    /**
     * The determinant at {@code at} in {@code words}.
     *
     * @throws IllegalArgumentException if the words there are not a determinant
     */
    static Determinant readFrom(long[] words, int at) {
        if (at + HEADER_WORDS > words.length) {
            throw new IllegalArgumentException("a determinant cut short at word " + at + " of " + words.length);
        }
        int origin = (int) (words[at] >>> 32);
        int incarnation = (int) words[at];
        int kind = (int) (words[at + 1] >>> 32);
        long n = words[at + 1] & 0xffffffffL;
        if (n > MAX_VALUES || at + HEADER_WORDS + n > words.length) {
            throw new IllegalArgumentException(
                    "a determinant of " + n + " values at word " + at + " of " + words.length);
        }
        long[] values = Arrays.copyOfRange(words, at + HEADER_WORDS, at + HEADER_WORDS + (int) n);
        return new Determinant(origin, incarnation, kind, words[at + 2], values);
    }

    /** One event of one rank (any incarnation). */
    record Event(int origin, int kind, long index) {}

    @Override
    public boolean equals(Object o) {
        return o instanceof Determinant d
                && d.origin == origin
                && d.incarnation == incarnation
                && d.kind == kind
                && d.index == index
                && Arrays.equals(d.values, values);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(index) * 31 + origin;
    }

    @Override
    public String toString() {
        return (kind == WILDCARD ? "wildcard" : kind == POLL ? "poll" : "polls") + " " + index + " of rank " + origin
                + "." + incarnation + " " + Arrays.toString(values);
    }
}
