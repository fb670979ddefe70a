package io.rewind.transport;

import io.rewind.engine.ControlMessage;
import io.rewind.engine.Frame;
import io.rewind.engine.FrameSink;
import java.util.ArrayDeque;

/**
 * Where a transport hands what arrives for its rank: the rank's sink once attached, a queue before
 * (a peer may send before the rank attaches; {@link #attach} hands the queue over in arrival order).
 * After {@link #close} what arrives before a sink is dropped. Thread-safe; once the sink is set,
 * delivery takes no lock.
 */
public final class EarlyArrivals {
    private final Object lock = new Object();
    /** Set under the lock once the queue is drained into it; read without it once set. */
    private volatile FrameSink sink;
    /** Frames and control messages that came before the sink; guarded by the lock. */
    private final ArrayDeque<Object> early = new ArrayDeque<>();

    private boolean closed;

    /** Makes {@code s} the sink, after handing it what came before (a later call replaces it). */
    public void attach(FrameSink s) {
        synchronized (lock) {
            for (Object o = early.poll(); o != null; o = early.poll()) {
                deliver(s, o);
            }
            sink = s;
        }
    }

    public void frame(Frame f) {
        arrived(f);
    }

    public void control(ControlMessage m) {
        arrived(m);
    }

    private void arrived(Object frameOrControl) {
        FrameSink s = sink;
        if (s == null) {
            synchronized (lock) {
                s = sink;
                if (s == null) {
                    if (!closed) {
                        // A frame's payload is only lent for the call (FrameSink#onFrame): keep a copy.
                        early.add(frameOrControl instanceof Frame f ? f.receivedCopy() : frameOrControl);
                    }
                    return;
                }
            }
        }
        deliver(s, frameOrControl);
    }

    private static void deliver(FrameSink s, Object frameOrControl) {
        if (frameOrControl instanceof Frame f) {
            s.onFrame(f);
        } else {
            s.onControl((ControlMessage) frameOrControl);
        }
    }

    /** How many arrivals wait for the sink. */
    public int waiting() {
        synchronized (lock) {
            return early.size();
        }
    }

    /** Drops what waits and everything that arrives before a sink from now on. */
    public void close() {
        synchronized (lock) {
            closed = true;
            early.clear();
        }
    }
}
