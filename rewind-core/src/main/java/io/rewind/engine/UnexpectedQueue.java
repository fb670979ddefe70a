package io.rewind.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;

/**
 * The frames of one rank that arrived before their receive, in one queue per (context, source) and
 * stamped with their arrival order. A receive or probe naming its source looks only at that source's
 * queue; one with {@link Constants#ANY_SOURCE} takes, of the first match in each queue of its
 * context, the one that arrived first. Either way it finds the oldest frame it accepts, as a scan of
 * one queue in arrival order would, but without stepping over every other source's frames: a rank
 * that restarts gets its peers' logged messages replayed faster than it takes them in, and a single
 * queue of thousands of frames then made every receive it posted scan them (measured in
 * docs/benchmarks.md, "Figure 5").
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
        contextQueues(frame.context, true).queueOf(frame.source).addLast(frame);
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
     * source, of the first matches of every queue of the context, the one that arrived first.
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
            ArrayDeque<Frame> queue = queues.queue(source);
            return queue == null ? null : firstIn(queue, tag, pattern, iteration, requiredSequence);
        }
        Frame oldest = null;
        for (ArrayDeque<Frame> queue : queues.bySource) {
            Frame f = queue == null ? null : firstIn(queue, tag, pattern, iteration, requiredSequence);
            if (f != null && (oldest == null || f.arrival < oldest.arrival)) {
                oldest = f;
            }
        }
        return oldest;
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
        ArrayDeque<Frame> queue = queueHolding(frame);
        return queue != null && queue.contains(frame);
    }

    /** Takes this very frame out of the queue; false if it is not queued. */
    boolean remove(Frame frame) {
        ArrayDeque<Frame> queue = queueHolding(frame);
        if (queue == null || !queue.removeFirstOccurrence(frame)) {
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
        for (ArrayDeque<Frame> queue : queues.bySource) {
            if (queue != null) {
                for (Frame f : queue) {
                    if (f.is(sourceWorld, context, sequence)) {
                        return f;
                    }
                }
            }
        }
        return null;
    }

    /** Every queued frame, in arrival order (for checkpoints, reports and dropping them all). */
    List<Frame> inArrivalOrder() {
        List<Frame> all = new ArrayList<>(size);
        for (ContextQueues queues : byContext.values()) {
            for (ArrayDeque<Frame> queue : queues.bySource) {
                if (queue != null) {
                    all.addAll(queue);
                }
            }
        }
        all.sort(Comparator.comparingLong(f -> f.arrival));
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

    private static Frame firstIn(ArrayDeque<Frame> queue, int tag, int pattern, int iteration, long requiredSequence) {
        for (Frame f : queue) {
            if (accepts(f, tag, pattern, iteration, requiredSequence)) {
                return f;
            }
        }
        return null;
    }

    /** Whether a frame of the right context and source also has the tag, ids and sequence asked for. */
    private static boolean accepts(Frame f, int tag, int pattern, int iteration, long requiredSequence) {
        return f.matches(f.context, f.source, tag, pattern, iteration)
                && (requiredSequence < 0 || f.sequence == requiredSequence);
    }

    /** The queue of the frame's context and source, or null if there is none. */
    private ArrayDeque<Frame> queueHolding(Frame frame) {
        ContextQueues queues = contextQueues(frame.context, false);
        return queues == null ? null : queues.queue(frame.source);
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

    /** The per-source queues of one context, indexed by the source's rank in the communicator. */
    private static final class ContextQueues {
        final int context;
        final ArrayList<ArrayDeque<Frame>> bySource = new ArrayList<>();

        ContextQueues(int context) {
            this.context = context;
        }

        ArrayDeque<Frame> queue(int source) {
            return source >= 0 && source < bySource.size() ? bySource.get(source) : null;
        }

        ArrayDeque<Frame> queueOf(int source) {
            while (bySource.size() <= source) {
                bySource.add(null);
            }
            ArrayDeque<Frame> queue = bySource.get(source);
            if (queue == null) {
                queue = new ArrayDeque<>();
                bySource.set(source, queue);
            }
            return queue;
        }
    }
}
