package io.rewind.engine;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The frames a rank's senders withdrew from it (cancelled sends), by incoming channel and sequence
 * number. Kept, and checkpointed, because the place of a withdrawn frame must stay withdrawn: a
 * restarted sender re-executes the send and its cancel, and the cancel must succeed again though the
 * first copy is long gone; a frame numbered there that arrives (replayed, or overtaken by the cancel)
 * is never matched. Cancelled sends are rare, so a set of pairs. Guarded by the mailbox lock.
 */
final class WithdrawnSends {
    /** One withdrawn frame: its channel (context and sending world rank) and sequence number. */
    record Place(long channelKey, long sequence) {}

    private final Set<Place> places = new HashSet<>();

    boolean isEmpty() {
        return places.isEmpty();
    }

    boolean contains(long channelKey, long sequence) {
        return !places.isEmpty() && places.contains(new Place(channelKey, sequence));
    }

    void add(long channelKey, long sequence) {
        places.add(new Place(channelKey, sequence));
    }

    /** As channel key and sequence number pairs, for a checkpoint. */
    long[] toPairs() {
        List<Place> all = new ArrayList<>(places);
        long[] out = new long[2 * all.size()];
        for (int i = 0; i < all.size(); i++) {
            out[2 * i] = all.get(i).channelKey();
            out[2 * i + 1] = all.get(i).sequence();
        }
        return out;
    }

    void reset(long[] pairs) {
        places.clear();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            add(pairs[i], pairs[i + 1]);
        }
    }
}
