package io.rewind.transport.tcp;

import io.rewind.engine.ControlMessage;
import io.rewind.engine.Frame;
import io.rewind.engine.FrameSink;
import io.rewind.transport.EarlyArrivals;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Where everything that arrives for the local rank goes: its sink once attached, a queue before (the
 * listening socket accepts from {@code open} on, and a peer may send before the rank attaches; the
 * queue is handed over, in arrival order, by {@link #attach}). Also the fence: the newest incarnation
 * heard of for each rank, below which frames and control messages are dropped.
 */
final class InboundDispatcher {
    private final EarlyArrivals arrivals = new EarlyArrivals();
    private final AtomicIntegerArray newestIncarnation;

    InboundDispatcher(int worldSize) {
        this.newestIncarnation = new AtomicIntegerArray(worldSize);
    }

    /** Makes {@code s} the sink, after handing it what came before (a later call replaces it). */
    void attach(FrameSink s) {
        arrivals.attach(s);
    }

    void frame(Frame f) {
        arrivals.frame(f);
    }

    void control(ControlMessage m) {
        arrivals.control(m);
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
        return arrivals.waiting();
    }

    /** Nothing more is queued, and what was is let go. */
    void close() {
        arrivals.close();
    }
}
