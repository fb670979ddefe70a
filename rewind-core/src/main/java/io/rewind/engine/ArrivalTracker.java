package io.rewind.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per incoming channel, the highest sequence number admitted; frames are admitted only in order.
 * A frame numbered above the next one expected (a live message overtaking a replayed one during
 * recovery) waits, as a private copy, until the gap closes; a frame at or below the frontier is a
 * duplicate (its receiver already has it) and is dropped. Guarded by the mailbox lock.
 */
final class ArrivalTracker {
    private final Map<Long, Channel> channels = new HashMap<>();
    /**
     * The channels frames came on recently, one per slot by a hash of the key: frames come round a few
     * peers (a collective, a halo exchange), and a slot costs one array read where the map costs a
     * boxed key, a hash and a probe. Channels leave the map only all at once ({@link #reset}).
     */
    private final Channel[] recentChannels = new Channel[ChannelKey.RECENT_SLOTS];

    private static final class Channel {
        final long key;
        long arrived;
        TreeMap<Long, Frame> held;
        /** Digests of the admitted frames, from the first that carried one (null: none did yet). */
        ReceivedDigests digests;

        /** Admits the next frame in order. */
        void admit(Frame frame) {
            arrived = frame.sequence;
            if (digests == null && frame.digest != 0) {
                digests = new ReceivedDigests(frame.sequence);
            }
            if (digests != null) {
                digests.admitted(frame.digest, frame.line);
            }
        }

        Channel(long key) {
            this.key = key;
        }
    }

    private Channel channel(long key) {
        int slot = ChannelKey.recentSlot(key);
        Channel recent = recentChannels[slot];
        if (recent != null && recent.key == key) {
            return recent;
        }
        Channel c = channels.computeIfAbsent(key, Channel::new);
        recentChannels[slot] = c;
        return c;
    }

    /**
     * The common case, decided without allocating: the frame is the next one expected on its channel
     * and nothing waits behind it. Admits it and returns true; otherwise changes nothing.
     */
    boolean admitNext(Frame frame) {
        Channel c = channel(frame.channelKey());
        if (frame.sequence == c.arrived + 1 && (c.held == null || c.held.isEmpty())) {
            c.admit(frame);
            return true;
        }
        return false;
    }

    /** Whether the receiver already has this frame (a restarted sender sending it again). */
    boolean isDuplicate(Frame frame) {
        return frame.sequence <= channel(frame.channelKey()).arrived;
    }

    /** Frames that may now enter matching, in order (empty if the frame is early or a duplicate). */
    List<Frame> admit(Frame frame) {
        Channel c = channel(frame.channelKey());
        long seq = frame.sequence;
        if (seq <= c.arrived) {
            return List.of();
        }
        if (seq > c.arrived + 1) {
            if (c.held == null) {
                c.held = new TreeMap<>();
            }
            if (!c.held.containsKey(seq)) {
                if (frame.sender == null) {
                    frame.materialize();
                } else if (frame.pull) {
                    frame.materializeAndReleaseSender();
                } else {
                    // A synchronous or rendezvous send waits for its receive: while the frame waits
                    // here, a cancel of the send must find it (and a crash of this rank let it go).
                    frame.sender.setPending(frame);
                }
                c.held.put(seq, frame);
            }
            return List.of();
        }
        c.admit(frame);
        if (c.held == null || c.held.isEmpty()) {
            return List.of(frame);
        }
        List<Frame> ready = new ArrayList<>();
        ready.add(frame);
        while (!c.held.isEmpty() && c.held.firstKey() <= c.arrived + 1) {
            Frame next = c.held.pollFirstEntry().getValue();
            if (next.sequence == c.arrived + 1) {
                c.admit(next);
                ready.add(next);
            }
        }
        return ready;
    }

    /**
     * Another copy of this frame's place that waits beyond a gap (a restarted sender sends the message
     * again while the first copy is held), or null.
     */
    Frame heldCopyOf(Frame frame) {
        Channel c = channels.get(frame.channelKey());
        if (c == null || c.held == null) {
            return null;
        }
        Frame held = c.held.get(frame.sequence);
        return held == frame ? null : held;
    }

    /** Whether this very frame waits beyond a gap (arrived early, not admitted yet). */
    boolean holds(Frame frame) {
        Channel c = channels.get(frame.channelKey());
        return c != null && c.held != null && c.held.get(frame.sequence) == frame;
    }

    /** The highest sequence number admitted on a channel (0: none). */
    long arrivedUpTo(long channelKey) {
        Channel c = channels.get(channelKey);
        return c == null ? 0 : c.arrived;
    }

    /** By context, the highest sequence number admitted from {@code sourceWorld}. */
    Map<Integer, Long> frontiersFrom(int sourceWorld) {
        Map<Integer, Long> m = new HashMap<>();
        for (Channel c : channels.values()) {
            if (ChannelKey.peer(c.key) == sourceWorld) {
                m.put(ChannelKey.context(c.key), c.arrived);
            }
        }
        return m;
    }

    /**
     * The digests kept of the frames admitted from {@code sourceWorld}, as words: per context that has
     * any, the context, the sequence number of the first digest, the count, then the digests.
     */
    long[] digestsFrom(int sourceWorld) {
        int words = 0;
        for (Channel c : channels.values()) {
            if (ChannelKey.peer(c.key) == sourceWorld && c.digests != null) {
                words += 3 + c.digests.digests().length;
            }
        }
        long[] out = new long[words];
        int at = 0;
        for (Channel c : channels.values()) {
            if (ChannelKey.peer(c.key) == sourceWorld && c.digests != null) {
                int[] d = c.digests.digests();
                out[at++] = ChannelKey.context(c.key);
                out[at++] = c.digests.first();
                out[at++] = d.length;
                for (int v : d) {
                    out[at++] = v;
                }
            }
        }
        return out;
    }

    Map<Long, Long> frontiers() {
        Map<Long, Long> m = new HashMap<>();
        for (Map.Entry<Long, Channel> e : channels.entrySet()) {
            m.put(e.getKey(), e.getValue().arrived);
        }
        return m;
    }

    /** The senders still waiting on a frame held here (synchronous and rendezvous sends). */
    void addHeldSenders(List<SendRequest> out) {
        for (Channel c : channels.values()) {
            if (c.held != null) {
                for (Frame f : c.held.values()) {
                    if (f.sender != null) {
                        out.add(f.sender);
                    }
                }
            }
        }
    }

    List<Frame> heldCopies() {
        List<Frame> out = new ArrayList<>();
        for (Channel c : channels.values()) {
            if (c.held != null) {
                for (Frame f : c.held.values()) {
                    out.add(f.copy());
                }
            }
        }
        return out;
    }

    void reset(Map<Long, Long> frontiers) {
        channels.clear();
        Arrays.fill(recentChannels, null);
        for (Map.Entry<Long, Long> e : frontiers.entrySet()) {
            Channel c = new Channel(e.getKey());
            c.arrived = e.getValue();
            channels.put(e.getKey(), c);
        }
    }
}
