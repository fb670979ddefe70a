package io.rewind.engine;

/**
 * The one encoding of a channel key: a matching context and the world rank at the other end (the
 * source of an incoming channel, the destination of an outgoing one), packed into a {@code long} so
 * that the per-message maps of arrival tracking and of the payload log index key on a primitive.
 * Every place that keys by channel goes through here; nothing else shifts contexts into longs.
 */
public final class ChannelKey {
    private ChannelKey() {}

    /** The key of the channel on {@code context} with {@code peerWorld} at the other end. */
    public static long of(int context, int peerWorld) {
        return ((long) context << 32) | (peerWorld & 0xffffffffL);
    }

    /** The matching context of a key. */
    public static int context(long key) {
        return (int) (key >>> 32);
    }

    /** The world rank at the other end of a key's channel. */
    public static int peer(long key) {
        return (int) key;
    }

    /** Slots of the small per-rank caches of recently used channels (a power of two). */
    public static final int RECENT_SLOTS = 64;

    /**
     * The slot of a key in a cache of {@link #RECENT_SLOTS} recently used channels: the peer and the
     * context mixed, so that the channels of one collective (one context, consecutive peers) and of one
     * peer on several communicators spread over the slots.
     */
    public static int recentSlot(long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> (Long.SIZE - Integer.numberOfTrailingZeros(RECENT_SLOTS)));
    }

    /** A key as people read it: {@code context/peer}. */
    public static String toString(long key) {
        return context(key) + "/" + peer(key);
    }
}
