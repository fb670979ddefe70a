package io.rewind.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;

/**
 * The frames of one rank that arrived before their receive, in one queue per (context, source), and
 * per context in arrival order too: in one list, and in one list per tag. A receive or probe naming
 * its source looks only at that source's queue; one with {@link Constants#ANY_SOURCE} walks its
 * tag's list (or for {@link Constants#ANY_TAG} too, the context's) to the first frame it accepts.
 * Either way it finds the oldest frame it accepts, as a scan of one queue in arrival order would,
 * stepping over no frame that arrived after it nor over frames of other tags: a rank that restarts
 * gets its peers' logged messages replayed faster than it takes them in, and a single queue of
 * thousands of frames then made every receive it posted scan them (measured in docs/benchmarks.md,
 * "Figure 5"); and a wildcard receive that asked every source's queue for its first match cost as
 * many steps as the communicator has ranks, which made a gather of thousands of ranks by wildcard
 * receives quadratic.
 *
 * <p>Not thread-safe: the {@link Mailbox}'s lock guards it. The per-source queues are kept when they
 * empty (a rank's traffic comes back to the same sources); there is one per source of every
 * communicator context that ever received early, until the queue is cleared.
 */
final class UnexpectedQueue {
    private final HashMap<Integer, ContextQueues> byContext = new HashMap<>();
    /** The context looked up last, which most operations of a rank repeat (no boxing then). */
    private ContextQueues recent;

    private long nextArrival;
    private int size;
    private long bytes;
    /** Frames and payload bytes queued per sending world rank (grown on demand). */
    private int[] framesBySender = new int[0];

    private long[] bytesBySender = new long[0];
    /** The most frames and bytes queued at once since the queue was made. */
    private int peakSize;

    private long peakBytes;

    /** Queues a frame behind every frame that arrived before it. */
    void add(Frame frame) {
        frame.arrival = nextArrival++;
        ContextQueues queues = contextQueues(frame.context, true);
        Queued q = queues.append(frame);
        queues.queueOf(frame.source).addLast(q);
        size++;
        bytes += frame.lengthBytes;
        int sender = frame.sourceWorld;
        if (sender >= framesBySender.length) {
            int n = Math.max(sender + 1, framesBySender.length * 2);
            framesBySender = java.util.Arrays.copyOf(framesBySender, n);
            bytesBySender = java.util.Arrays.copyOf(bytesBySender, n);
        }
        framesBySender[sender]++;
        bytesBySender[sender] += frame.lengthBytes;
        peakSize = Math.max(peakSize, size);
        peakBytes = Math.max(peakBytes, bytes);
    }

    /**
     * The oldest frame that matches the envelope (with {@code requiredSequence} >= 0, only the frame
     * with that sequence number), or null: the first match in the source's own queue, or for any
     * source the first match in arrival order among the frames of the tag (of the context, for any
     * tag).
     */
    Frame first(int context, int source, int tag, int pattern, int iteration, long requiredSequence) {
        if (size == 0) {
            return null;
        }
        ContextQueues queues = contextQueues(context, false);
        if (queues == null) {
            return null;
        }
        if (source != Constants.ANY_SOURCE) {
            ArrayDeque<Queued> queue = queues.queue(source);
            if (queue != null) {
                for (Queued q : queue) {
                    if (accepts(q.frame, tag, pattern, iteration, requiredSequence)) {
                        return q.frame;
                    }
                }
            }
            return null;
        }
        if (tag != Constants.ANY_TAG) {
            TagList sameTag = queues.frames(tag);
            for (Queued q = sameTag == null ? null : sameTag.oldest; q != null; q = q.tagNext) {
                if (accepts(q.frame, tag, pattern, iteration, requiredSequence)) {
                    return q.frame;
                }
            }
            return null;
        }
        for (Queued q = queues.oldest; q != null; q = q.next) {
            if (accepts(q.frame, tag, pattern, iteration, requiredSequence)) {
                return q.frame;
            }
        }
        return null;
    }

    /** As {@link #first}, and the frame is taken out of the queue. */
    Frame removeFirst(int context, int source, int tag, int pattern, int iteration, long requiredSequence) {
        Frame f = first(context, source, tag, pattern, iteration, requiredSequence);
        if (f != null) {
            remove(f);
        }
        return f;
    }

    /** Whether this very frame is queued (frames compare by identity). */
    boolean contains(Frame frame) {
        ContextQueues queues = contextQueues(frame.context, false);
        return queues != null && queues.queued(frame) != null;
    }

    /** Takes this very frame out of the queue; false if it is not queued. */
    boolean remove(Frame frame) {
        ContextQueues queues = contextQueues(frame.context, false);
        Queued taken = queues == null ? null : queues.take(frame);
        if (taken == null) {
            return false;
        }
        size--;
        bytes -= frame.lengthBytes;
        framesBySender[frame.sourceWorld]--;
        bytesBySender[frame.sourceWorld] -= frame.lengthBytes;
        return true;
    }

    /** The queued frame {@code sequence} that world rank {@code sourceWorld} sent on {@code context}, or null. */
    Frame find(int sourceWorld, int context, long sequence) {
        ContextQueues queues = contextQueues(context, false);
        if (queues == null) {
            return null;
        }
        for (Queued q = queues.oldest; q != null; q = q.next) {
            if (q.frame.is(sourceWorld, context, sequence)) {
                return q.frame;
            }
        }
        return null;
    }

    /** Every queued frame, in arrival order (for checkpoints, reports and dropping them all). */
    List<Frame> inArrivalOrder() {
        List<Frame> all = new ArrayList<>(size);
        for (ContextQueues queues : byContext.values()) {
            for (Queued q = queues.oldest; q != null; q = q.next) {
                all.add(q.frame);
            }
        }
        if (byContext.size() > 1) {
            all.sort(Comparator.comparingLong(f -> f.arrival)); // each context's list is in order already
        }
        return all;
    }

    void clear() {
        byContext.clear();
        recent = null;
        size = 0;
        bytes = 0;
        java.util.Arrays.fill(framesBySender, 0);
        java.util.Arrays.fill(bytesBySender, 0);
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Payload bytes of the queued frames. */
    long bytes() {
        return bytes;
    }

    /** Frames queued from world rank {@code sender}. */
    int framesFrom(int sender) {
        return sender < framesBySender.length ? framesBySender[sender] : 0;
    }

    /** Payload bytes queued from world rank {@code sender}. */
    long bytesFrom(int sender) {
        return sender < bytesBySender.length ? bytesBySender[sender] : 0;
    }

    /** The most frames queued at once so far. */
    int peakSize() {
        return peakSize;
    }

    /** The most payload bytes queued at once so far. */
    long peakBytes() {
        return peakBytes;
    }

    /** Whether a frame of the right context and source also has the tag, ids and sequence asked for. */
    private static boolean accepts(Frame f, int tag, int pattern, int iteration, long requiredSequence) {
        return f.matches(f.context, f.source, tag, pattern, iteration)
                && (requiredSequence < 0 || f.sequence == requiredSequence);
    }

    /** The queues of a context; null if none and {@code create} is false. */
    private ContextQueues contextQueues(int context, boolean create) {
        ContextQueues queues = recent;
        if (queues != null && queues.context == context) {
            return queues;
        }
        queues = byContext.get(context);
        if (queues == null) {
            if (!create) {
                return null;
            }
            queues = new ContextQueues(context);
            byContext.put(context, queues);
        }
        recent = queues;
        return queues;
    }

    /** A queued frame, linked into its context's arrival list and into its tag's. */
    private static final class Queued {
        final Frame frame;
        Queued previous;
        Queued next;
        TagList tagList;
        Queued tagPrevious;
        Queued tagNext;

        Queued(Frame frame) {
            this.frame = frame;
        }
    }

    /** The queued frames of one tag of a context, oldest first. */
    private static final class TagList {
        final int tag;
        Queued oldest;
        Queued newest;

        TagList(int tag) {
            this.tag = tag;
        }
    }

    /**
     * The queues of one context: per source (indexed by the source's rank in the communicator), every
     * frame of the context in one list, oldest first, and the same per tag. A tag's list stays when it
     * empties (a frame that waits a moment for its receive, as in a ping-pong, then costs no map
     * update), and the empty ones go when the lists double: programs that tag by iteration would
     * otherwise keep one per tag they ever used.
     */
    private static final class ContextQueues {
        private static final int FEWEST_TAG_LISTS_SWEPT = 64;

        final int context;
        final ArrayList<ArrayDeque<Queued>> bySource = new ArrayList<>();
        final HashMap<Integer, TagList> byTag = new HashMap<>();
        /** The tag list used last, which the frames of a rank's traffic mostly repeat (no lookup then). */
        private TagList recentTag;
        /** The number of tag lists at which the empty ones are removed. */
        private int sweepAt = FEWEST_TAG_LISTS_SWEPT;

        Queued oldest;
        Queued newest;

        ContextQueues(int context) {
            this.context = context;
        }

        /** Links the frame at the end of the arrival list and of its tag's. */
        Queued append(Frame frame) {
            Queued q = new Queued(frame);
            q.previous = newest;
            if (newest == null) {
                oldest = q;
            } else {
                newest.next = q;
            }
            newest = q;
            TagList t = tagList(frame.tag);
            q.tagList = t;
            q.tagPrevious = t.newest;
            if (t.newest == null) {
                t.oldest = q;
            } else {
                t.newest.tagNext = q;
            }
            t.newest = q;
            return q;
        }

        void unlink(Queued q) {
            if (q.previous == null) {
                oldest = q.next;
            } else {
                q.previous.next = q.next;
            }
            if (q.next == null) {
                newest = q.previous;
            } else {
                q.next.previous = q.previous;
            }
            TagList t = q.tagList;
            if (q.tagPrevious == null) {
                t.oldest = q.tagNext;
            } else {
                q.tagPrevious.tagNext = q.tagNext;
            }
            if (q.tagNext == null) {
                t.newest = q.tagPrevious;
            } else {
                q.tagNext.tagPrevious = q.tagPrevious;
            }
            q.previous = null;
            q.next = null;
            q.tagList = null;
            q.tagPrevious = null;
            q.tagNext = null;
        }

        /** The list of frames of one tag, oldest first, or null if no frame of it is queued. */
        TagList frames(int tag) {
            TagList t = recentTag;
            return t != null && t.tag == tag ? t : byTag.get(tag);
        }

        private TagList tagList(int tag) {
            TagList t = frames(tag);
            if (t == null) {
                if (byTag.size() >= sweepAt) {
                    byTag.values().removeIf(empty -> empty.oldest == null);
                    if (recentTag != null && recentTag.oldest == null) {
                        recentTag = null; // no longer in the map: frames linked to it would not be found
                    }
                    sweepAt = Math.max(FEWEST_TAG_LISTS_SWEPT, 2 * byTag.size());
                }
                t = new TagList(tag);
                byTag.put(tag, t);
            }
            recentTag = t;
            return t;
        }

        /** This very frame's node in its source's queue, or null if it is not queued. */
        Queued queued(Frame frame) {
            ArrayDeque<Queued> queue = queue(frame.source);
            if (queue != null) {
                for (Queued q : queue) {
                    if (q.frame == frame) {
                        return q;
                    }
                }
            }
            return null;
        }

        /** Takes this very frame out of its source's queue and the lists (one walk); null if not queued. */
        Queued take(Frame frame) {
            ArrayDeque<Queued> queue = queue(frame.source);
            if (queue != null) {
                for (java.util.Iterator<Queued> it = queue.iterator(); it.hasNext(); ) {
                    Queued q = it.next();
                    if (q.frame == frame) {
                        it.remove();
                        unlink(q);
                        return q;
                    }
                }
            }
            return null;
        }

        ArrayDeque<Queued> queue(int source) {
            return source >= 0 && source < bySource.size() ? bySource.get(source) : null;
        }

        ArrayDeque<Queued> queueOf(int source) {
            while (bySource.size() <= source) {
                bySource.add(null);
            }
            ArrayDeque<Queued> queue = bySource.get(source);
            if (queue == null) {
                queue = new ArrayDeque<>();
                bySource.set(source, queue);
            }
            return queue;
        }
    }
}
