package io.rewind.ft.sender;

import io.rewind.ft.log.LogEntry;
import io.rewind.ft.log.StoredPayload;
import io.rewind.ft.logger.DumpedPayload;
import java.util.Arrays;

/**
 * The logged frames of one outgoing channel (a communicator's context pair and a destination), in
 * sequence order: what replay re-sends and what truncation trims. Parallel primitive arrays used as
 * a queue (appended at the tail, consumed from the head), so that a logged send allocates nothing
 * here; the payload and its envelope live in the {@link LogEntry}, which a collective's shared
 * result lends to every frame that carries it, or, once dumped, at logger nodes ({@link
 * DumpedPayload}). Frames normally arrive in sequence order; a frame
 * overtaken by a concurrent sender is inserted in place. Guarded by the protocol's lock.
 */
final class SentFrames {
    private static final int INITIAL = 16;

    final long key;
    private long[] sequences = new long[INITIAL];
    private int[] contexts = new int[INITIAL];
    private int[] sources = new int[INITIAL];
    private int[] tags = new int[INITIAL];
    /** Pattern id (high half) and iteration id (low half) each frame was sent in: replay keeps them. */
    private long[] patterns = new long[INITIAL];
    /**
     * The newest recovery line the rank had written when it sent each frame: a replayed frame carries
     * the line it was first sent with, so that its receiver judges it against its own lines as it would
     * have the original.
     */
    private int[] lines = new int[INITIAL];
    /** The digest each frame was first sent with ({@link io.rewind.engine.MessageDigests}; 0: none): replay carries it. */
    private int[] digests = new int[INITIAL];
    /**
     * When each frame was indexed, counted across all channels of the rank: replay to a peer takes
     * the frames of its channels in this order, which is the order they were sent in.
     */
    private long[] orders = new long[INITIAL];

    private StoredPayload[] entries = new StoredPayload[INITIAL];
    /** Live frames are at [head, tail). */
    private int head;

    private int tail;
    /** Highest sequence number the log was truncated up to on this channel (0: never). */
    private long truncatedUpTo;

    SentFrames(long key) {
        this.key = key;
    }

    int size() {
        return tail - head;
    }

    int context(int i) {
        return contexts[i];
    }

    int source(int i) {
        return sources[i];
    }

    int tag(int i) {
        return tags[i];
    }

    /** The frame's pattern id in the high half, its iteration id in the low half. */
    long pattern(int i) {
        return patterns[i];
    }

    long sequence(int i) {
        return sequences[i];
    }

    /** The newest recovery line the rank had written when it sent frame {@code i} (0: none). */
    int line(int i) {
        return lines[i];
    }

    /** The digest frame {@code i} was first sent with (0: none). */
    int digest(int i) {
        return digests[i];
    }

    /** Frame {@code i}'s place in the order the rank's logged frames were indexed, all channels together. */
    long order(int i) {
        return orders[i];
    }

    /** Where frame {@code i}'s payload is: a log entry in memory, or a dumped payload. */
    StoredPayload payload(int i) {
        return entries[i];
    }

    /** Frame {@code i}'s payload went to logger nodes: it no longer counts in memory. */
    void dumped(int i, DumpedPayload p) {
        bytes -= entries[i].lengthBytes();
        entries[i] = p;
    }

    int head() {
        return head;
    }

    int tail() {
        return tail;
    }

    /** @param order the frame's place among every frame the rank indexed, on any channel (see {@link #order}) */
    void add(
            int context,
            int source,
            int tag,
            long sequence,
            long pattern,
            int line,
            int digest,
            StoredPayload entry,
            long order) {
        if (tail == sequences.length) {
            makeRoom();
        }
        int at = tail;
        if (tail > head && sequences[tail - 1] > sequence) {
            at = firstAbove(sequence);
            int n = tail - at;
            System.arraycopy(sequences, at, sequences, at + 1, n);
            System.arraycopy(contexts, at, contexts, at + 1, n);
            System.arraycopy(sources, at, sources, at + 1, n);
            System.arraycopy(tags, at, tags, at + 1, n);
            System.arraycopy(patterns, at, patterns, at + 1, n);
            System.arraycopy(lines, at, lines, at + 1, n);
            System.arraycopy(digests, at, digests, at + 1, n);
            System.arraycopy(orders, at, orders, at + 1, n);
            System.arraycopy(entries, at, entries, at + 1, n);
        }
        sequences[at] = sequence;
        contexts[at] = context;
        sources[at] = source;
        tags[at] = tag;
        patterns[at] = pattern;
        lines[at] = line;
        digests[at] = digest;
        orders[at] = order;
        entries[at] = entry;
        tail++;
        if (!(entry instanceof DumpedPayload)) {
            bytes += entry.lengthBytes();
        }
    }

    /**
     * Payload bytes of the live frames held in memory (a shared result counts once per frame that carries
     * it; dumped frames do not count).
     */
    long bytes() {
        return bytes;
    }

    private long bytes;

    /** Index of the first live frame numbered above {@code sequence} ({@link #tail()} if none). */
    int firstAbove(long sequence) {
        int lo = head;
        int hi = tail;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sequences[mid] <= sequence) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    long truncatedUpTo() {
        return truncatedUpTo;
    }

    /** The log of this channel was truncated up to {@code sequence}. */
    void truncatedTo(long sequence) {
        truncatedUpTo = Math.max(truncatedUpTo, sequence);
    }

    /** Drops the frames numbered up to {@code sequence}; returns how many. */
    int dropUpTo(long sequence) {
        int end = firstAbove(sequence);
        int dropped = end - head;
        for (int i = head; i < end; i++) {
            forget(entries[i]);
        }
        Arrays.fill(entries, head, end, null);
        head = end;
        if (head == tail) {
            head = 0;
            tail = 0;
        }
        return dropped;
    }

    private void forget(StoredPayload p) {
        if (p instanceof DumpedPayload d) {
            d.unreference();
        } else {
            bytes -= p.lengthBytes();
        }
    }

    void clear() {
        for (int i = head; i < tail; i++) {
            forget(entries[i]);
        }
        bytes = 0;
        Arrays.fill(entries, head, tail, null);
        head = 0;
        tail = 0;
    }

    private void makeRoom() {
        int live = tail - head;
        if (head > 0 && live <= sequences.length / 2) {
            shift(sequences.length);
        } else {
            shift(sequences.length * 2);
        }
    }

    private void shift(int capacity) {
        int live = tail - head;
        sequences = moved(sequences, capacity, live);
        contexts = moved(contexts, capacity, live);
        sources = moved(sources, capacity, live);
        tags = moved(tags, capacity, live);
        patterns = moved(patterns, capacity, live);
        lines = moved(lines, capacity, live);
        digests = moved(digests, capacity, live);
        orders = moved(orders, capacity, live);
        StoredPayload[] e = new StoredPayload[capacity];
        System.arraycopy(entries, head, e, 0, live);
        entries = e;
        head = 0;
        tail = live;
    }

    private long[] moved(long[] a, int capacity, int live) {
        long[] b = capacity == a.length ? a : new long[capacity];
        System.arraycopy(a, head, b, 0, live);
        return b;
    }

    private int[] moved(int[] a, int capacity, int live) {
        int[] b = capacity == a.length ? a : new int[capacity];
        System.arraycopy(a, head, b, 0, live);
        return b;
    }
}
