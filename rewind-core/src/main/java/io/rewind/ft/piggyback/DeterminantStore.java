package io.rewind.ft.piggyback;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * The determinants one rank incarnation holds: its own and those other ranks' messages brought it,
 * each numbered in the order it came here, and, per destination rank, up to which number they have
 * been piggybacked to it. A frame to a destination carries every determinant held here that came after
 * the last one it carried and that is not the destination's own; so whoever's state depends on an
 * event holds its determinant, whatever chain of messages made it depend on it, and a failure of any
 * set of ranks leaves the determinants the survivors depend on with the survivors.
 *
 * <p>Thread safe: frames arrive on the threads that deliver them, sends are made on the rank's threads.
 */
final class DeterminantStore {
    private final int self;
    private final Object lock = new Object();
    /** Held determinants by the number they got here. */
    private final TreeMap<Long, Determinant> byNumber = new TreeMap<>();
    /** The number of the determinant held for each event. */
    private final Map<Determinant.Event, Long> numberOf = new HashMap<>();
    /** The number of the latest determinant to come here (0: none yet). */
    private long last;
    /** Per destination world rank: determinants numbered up to this went to it already. */
    private final long[] sentUpTo;

    private long made;
    private long piggybackedFrames;
    private long piggybackedWords;

    DeterminantStore(int self, int worldSize) {
        this.self = self;
        this.sentUpTo = new long[worldSize];
    }

    /** This rank made {@code d} (or repeated it, re-executing). */
    void made(Determinant d) {
        synchronized (lock) {
            made++;
            hold(d);
        }
    }

    /**
     * A restarted incarnation of this rank will repeat {@code d}, an outcome of an incarnation before
     * it: it holds it again, so that every rank its re-execution sends to comes to hold it too. The
     * ranks that answered with it may roll back later, and a rank that depends on the repeated outcome
     * through this incarnation's frames must then still have it.
     */
    void repeated(Determinant d) {
        synchronized (lock) {
            hold(d);
        }
    }

    /** Takes in one determinant of another rank's event that an answer to a rollback request carried. */
    void received(Determinant d) {
        synchronized (lock) {
            hold(d);
        }
    }

    /** Takes in the determinants a frame or an answer carried; malformed words are refused whole. */
    void received(long[] words) {
        List<Determinant> in = decode(words);
        synchronized (lock) {
            for (Determinant d : in) {
                hold(d);
            }
        }
    }

    /**
     * Lock held: keeps {@code d} unless a determinant of the same event from the same or a newer
     * incarnation is held (a newer incarnation's outcome replaces an older one's: it is what the
     * re-executed rank did, whose state the holders depend on from now on).
     */
    private void hold(Determinant d) {
        Determinant.Event e = d.event();
        Long number = numberOf.get(e);
        if (number != null) {
            Determinant held = byNumber.get(number);
            boolean longerRun = held.incarnation() == d.incarnation() && d.events() > held.events();
            if (held.incarnation() > d.incarnation() || (held.incarnation() == d.incarnation() && !longerRun)) {
                return;
            }
            byNumber.remove(number);
        }
        long n = ++last;
        byNumber.put(n, d);
        numberOf.put(e, n);
    }

    /**
     * The words a frame to {@code destination} carries: every held determinant that came since the
     * last frame to it, except the destination's own; null if there are none. Marks them as sent.
     */
    long[] piggybackFor(int destination) {
        synchronized (lock) {
            long from = sentUpTo[destination];
            if (from >= last) {
                return null;
            }
            sentUpTo[destination] = last;
            int words = 0;
            Map<Long, Determinant> tail = byNumber.tailMap(from, false);
            for (Determinant d : tail.values()) {
                if (d.origin() != destination) {
                    words += d.words();
                }
            }
            if (words == 0) {
                return null;
            }
            long[] out = new long[words];
            int at = 0;
            for (Determinant d : tail.values()) {
                if (d.origin() != destination) {
                    d.writeTo(out, at);
                    at += d.words();
                }
            }
            piggybackedFrames++;
            piggybackedWords += words;
            return out;
        }
    }

    /**
     * {@code peer} restarted and holds only what its checkpoint held: every determinant is sent to it
     * again with its next frames (it keeps one copy of each).
     */
    void peerRestarted(int peer) {
        synchronized (lock) {
            sentUpTo[peer] = 0;
        }
    }

    /** The determinants of {@code origin}'s events held here, as words: the answer to its restart. */
    long[] of(int origin) {
        synchronized (lock) {
            List<Determinant> out = new ArrayList<>();
            for (Determinant d : byNumber.values()) {
                if (d.origin() == origin) {
                    out.add(d);
                }
            }
            return encode(out);
        }
    }

    /**
     * Drops the determinants no restart can need: those of events before the oldest line their rank
     * keeps ({@code eventsAtOldestLine}: wildcard receives, then polls; null while unknown).
     */
    void trim(IntFunction<long[]> eventsAtOldestLine) {
        synchronized (lock) {
            Map<Integer, long[]> bounds = new HashMap<>();
            for (Iterator<Determinant> it = byNumber.values().iterator(); it.hasNext(); ) {
                Determinant d = it.next();
                long[] events = bounds.computeIfAbsent(d.origin(), eventsAtOldestLine::apply);
                if (events != null && d.index() + d.events() <= events[d.kind() == Determinant.WILDCARD ? 0 : 1]) {
                    it.remove();
                    numberOf.remove(d.event());
                }
            }
        }
    }

    int size() {
        synchronized (lock) {
            return byNumber.size();
        }
    }

    /** Determinants this rank made, frames that carried some, and the words they carried. */
    long[] figures() {
        synchronized (lock) {
            return new long[] {made, piggybackedFrames, piggybackedWords};
        }
    }

    /** Every held determinant, for the rank's checkpoint. */
    byte[] save() {
        long[] words;
        synchronized (lock) {
            words = encode(new ArrayList<>(byNumber.values()));
        }
        ByteBuffer b = ByteBuffer.allocate(Integer.BYTES * 2 + words.length * Long.BYTES);
        b.putInt(STATE_VERSION).putInt(words.length);
        for (long w : words) {
            b.putLong(w);
        }
        return b.array();
    }

    /** Holds what {@link #save} wrote (a restarted incarnation, before it runs). */
    void load(byte[] state) {
        ByteBuffer b = ByteBuffer.wrap(state);
        int version = b.getInt();
        if (version != STATE_VERSION) {
            throw new IllegalArgumentException("unsupported causal protocol state version " + version);
        }
        int n = b.getInt();
        if (n < 0 || (long) n * Long.BYTES != b.remaining()) {
            throw new IllegalArgumentException(
                    "causal protocol state of " + n + " words in " + b.remaining() + " bytes");
        }
        long[] words = new long[n];
        b.asLongBuffer().get(words);
        received(words);
    }

    private static final int STATE_VERSION = 1;

    static long[] encode(List<Determinant> ds) {
        int words = 0;
        for (Determinant d : ds) {
            words += d.words();
        }
        long[] out = new long[words];
        int at = 0;
        for (Determinant d : ds) {
            d.writeTo(out, at);
            at += d.words();
        }
        return out;
    }

    static List<Determinant> decode(long[] words) {
        List<Determinant> out = new ArrayList<>();
        int at = 0;
        while (at < words.length) {
            Determinant d = Determinant.readFrom(words, at);
            out.add(d);
            at += d.words();
        }
        return out;
    }

    @Override
    public String toString() {
        synchronized (lock) {
            return "determinants of rank " + self + ": " + byNumber.size() + " held, sent up to "
                    + Arrays.toString(sentUpTo);
        }
    }
}
