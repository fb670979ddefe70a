package io.rewind.transport.tcp;

import io.rewind.engine.ControlMessage;
import io.rewind.engine.Frame;
import io.rewind.engine.FrameSink;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Where everything that arrives for the local rank goes: its sink once attached, a queue before (the
 * listening socket accepts from {@code open} on, and a peer may send before the rank attaches; the
 * queue is handed over, in arrival order, by {@link #attach}). Also the fence: the newest incarnation
 * heard of for each rank, below which frames and control messages are dropped.
 */
final class InboundDispatcher {
    private final Object lock = new Object();
    /** Set under the lock once the queue is drained into it; read without it once set. */
    private volatile FrameSink sink;
    /** Frames and control messages that came before the sink; guarded by the lock. */
    private final ArrayDeque<Object> early = new ArrayDeque<>();

    private boolean closed;
    private final AtomicIntegerArray newestIncarnation;

    InboundDispatcher(int worldSize) {
        this.newestIncarnation = new AtomicIntegerArray(worldSize);
    }

    /** Makes {@code s} the sink, after handing it what came before (a later call replaces it). */
    void attach(FrameSink s) {
        synchronized (lock) {
            for (Object o = early.poll(); o != null; o = early.poll()) {
                if (o instanceof Frame f) {
                    s.onFrame(f);
                } else {
                    s.onControl((ControlMessage) o);
                }
            }
            sink = s;
        }
    }

    void frame(Frame f) {
        FrameSink s = sink;
        if (s == null) {
            synchronized (lock) {
                s = sink;
                if (s == null) {
                    if (!closed) {
                        early.add(f);
                    }
                    return;
                }
            }
        }
        s.onFrame(f);
    }

    void control(ControlMessage m) {
        FrameSink s = sink;
        if (s == null) {
            synchronized (lock) {
                s = sink;
                if (s == null) {
                    if (!closed) {
                        early.add(m);
                    }
                    return;
                }
            }
        }
        s.onControl(m);
    }

    /**
     * Incarnation {@code incarnation} of {@code rank} is (or was) alive: remembered if it is the newest.
     *
     * @return whether it is not older than the newest heard of, that is, whether to admit what it sends
     */
    boolean admit(int rank, int incarnation) {
        return newestIncarnation.accumulateAndGet(rank, incarnation, Math::max) == incarnation;
    }

    /** The newest incarnation of {@code rank} heard of (0 if none). */
    int newest(int rank) {
        return newestIncarnation.get(rank);
    }

    /** How many frames and control messages wait for the sink. */
    int waitingForAttach() {
        synchronized (lock) {
            return early.size();
        }
    }

    /** Nothing more is queued, and what was is let go. */
    void close() {
        synchronized (lock) {
            closed = true;
            early.clear();
        }
    }
}
