package io.rewind.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A rank's matching queues: receives posted before their message (posted queue) and messages that
 * arrived before their receive (unexpected queue), both in arrival order. A message matches the
 * oldest posted receive that accepts it; a receive matches the oldest unexpected message it accepts.
 * Since one sender's frames on one channel arrive in send order, this gives MPI's non-overtaking
 * rule.
 *
 * <p>One lock guards both queues. Frames are delivered by the sending thread (in-JVM transport) or
 * a transport thread; the copy into a matched receive buffer happens outside the lock.
 */
public final class Mailbox implements FrameSink {
    private final Object lock = new Object();
    private final ArrayDeque<RecvRequest> posted = new ArrayDeque<>();
    private final ArrayDeque<Frame> unexpected = new ArrayDeque<>();
    private final List<Thread> probers = new ArrayList<>(2);
    private long unexpectedBytes;
    private volatile boolean closed;

    @Override
    public void onFrame(Frame frame) {
        RecvRequest match = null;
        synchronized (lock) {
            if (closed) {
                return; // the receiving incarnation is gone; the frame is dropped (fenced)
            }
            for (Iterator<RecvRequest> it = posted.iterator(); it.hasNext(); ) {
                RecvRequest r = it.next();
                if (r.matches(frame)) {
                    it.remove();
                    match = r;
                    break;
                }
            }
            if (match == null) {
                if (frame.sender == null) {
                    frame.materialize();
                } else {
                    frame.sender.setPending(frame);
                }
                unexpected.addLast(frame);
                unexpectedBytes += frame.lengthBytes;
                for (Thread t : probers) {
                    LockSupport.unpark(t);
                }
            }
        }
        if (match != null) {
            match.deliver(frame);
        }
    }

    /** Matches the receive against the unexpected queue, or posts it. */
    void post(RecvRequest recv) {
        Frame match = null;
        synchronized (lock) {
            for (Iterator<Frame> it = unexpected.iterator(); it.hasNext(); ) {
                Frame f = it.next();
                if (recv.matches(f)) {
                    it.remove();
                    unexpectedBytes -= f.lengthBytes;
                    match = f;
                    break;
                }
            }
            if (match == null) {
                posted.addLast(recv);
            }
        }
        if (match != null) {
            recv.deliver(match);
        }
    }

    /** The oldest unexpected frame the pattern matches, without removing it; null if none. */
    Frame peek(int context, int source, int tag) {
        synchronized (lock) {
            for (Frame f : unexpected) {
                if (f.matches(context, source, tag)) {
                    return f;
                }
            }
            return null;
        }
    }

    /** Removes and returns the oldest matching unexpected frame (for matched probe / mrecv). */
    Frame take(int context, int source, int tag) {
        synchronized (lock) {
            for (Iterator<Frame> it = unexpected.iterator(); it.hasNext(); ) {
                Frame f = it.next();
                if (f.matches(context, source, tag)) {
                    it.remove();
                    unexpectedBytes -= f.lengthBytes;
                    return f;
                }
            }
            return null;
        }
    }

    /** Blocks until a frame matching the pattern is in the unexpected queue. */
    Frame awaitProbe(RankEngine engine, int context, int source, int tag) {
        Thread me = Thread.currentThread();
        while (true) {
            synchronized (lock) {
                for (Frame f : unexpected) {
                    if (f.matches(context, source, tag)) {
                        probers.remove(me);
                        return f;
                    }
                }
                if (!probers.contains(me)) {
                    probers.add(me);
                }
            }
            try {
                engine.checkAlive();
            } catch (RuntimeException | Error e) {
                synchronized (lock) {
                    probers.remove(me);
                }
                throw e;
            }
            LockSupport.parkNanos(this, 20_000_000L);
        }
    }

    boolean removePosted(RecvRequest recv) {
        synchronized (lock) {
            return posted.remove(recv);
        }
    }

    @Override
    public boolean withdraw(Frame frame) {
        synchronized (lock) {
            boolean removed = unexpected.remove(frame);
            if (removed) {
                unexpectedBytes -= frame.lengthBytes;
            }
            return removed;
        }
    }

    /** Stops accepting frames (the owner crashed or finished); returns how many were discarded. */
    public int close() {
        synchronized (lock) {
            closed = true;
            int n = unexpected.size();
            unexpected.clear();
            posted.clear();
            unexpectedBytes = 0;
            return n;
        }
    }

    public int unexpectedCount() {
        synchronized (lock) {
            return unexpected.size();
        }
    }

    public int postedCount() {
        synchronized (lock) {
            return posted.size();
        }
    }

    public long unexpectedBytes() {
        synchronized (lock) {
            return unexpectedBytes;
        }
    }
}
