package io.rewind.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * An operation in flight. Completion is a volatile flag plus the threads (if any) that wait for it;
 * the completer sets the flag and then wakes the waiters, a waiter publishes itself and then checks
 * the flag, so one of the two always sees the other. More than one thread may wait at once: a
 * non-blocking collective's thread waits for the collective started before it while the program
 * waits for that one too (two requests in one {@code waitAll}); each must be woken.
 *
 * <p>Status fields are written by the completing thread before the flag and read by the owner after
 * it, so the flag publishes them.
 */
public abstract class Request {
    protected final RankEngine engine;
    private volatile boolean complete;
    /** The threads parked on this request: null, or an array replaced whole and never changed in place. */
    private volatile Thread[] waiters;

    private static final VarHandle WAITERS;

    static {
        try {
            WAITERS = MethodHandles.lookup().findVarHandle(Request.class, "waiters", Thread[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private int statusSource = Constants.ANY_SOURCE;
    private int statusTag = Constants.ANY_TAG;
    private long statusBytes;
    private boolean cancelled;
    private RewindException failure;

    protected Request(RankEngine engine) {
        this.engine = engine;
    }

    public final boolean isComplete() {
        if (complete) {
            return true;
        }
        helpProgress();
        if (!complete) {
            int epoch = engine.peerFailures().epoch();
            if (epoch != settledEpoch) {
                settledEpoch = epoch;
                engine.peerFailures().settle(this);
            }
        }
        return complete;
    }

    /** The failure epoch this request was last checked at ({@link PeerFailures#settle}). */
    private int settledEpoch;

    /**
     * Does work this request is waiting for, if the calling thread can (a pulled transfer the
     * receiver or the sender may run). Called by every completion check of the owner; cheap when
     * there is nothing to do.
     */
    protected void helpProgress() {}

    /** Called by the waiting owner before it parks: last work worth doing before sleeping. */
    protected void beforePark() {}

    /** Whether the request completed, without doing any work for it. */
    final boolean isCompleteNow() {
        return complete;
    }

    /** Wakes the threads parked on this request without completing it (work is waiting for them). */
    final void wakeWaiter() {
        Thread[] w = waiters;
        if (w != null) {
            for (Thread t : w) {
                LockSupport.unpark(t);
            }
        }
    }

    /** Records the status and completes. Called once, by whichever thread finishes the operation. */
    protected final void complete(int source, int tag, long bytes, RewindException error) {
        this.statusSource = source;
        this.statusTag = tag;
        this.statusBytes = bytes;
        this.failure = error;
        markComplete();
    }

    protected final void completeCancelled() {
        this.cancelled = true;
        markComplete();
    }

    private void markComplete() {
        complete = true;
        wakeWaiter();
    }

    /** Registers {@code thread} to be woken at completion, beside any other thread waiting. */
    final void addWaiter(Thread thread) {
        while (true) {
            Thread[] w = waiters;
            Thread[] next;
            if (w == null) {
                next = new Thread[] {thread};
            } else {
                next = Arrays.copyOf(w, w.length + 1);
                next[w.length] = thread;
            }
            if (WAITERS.compareAndSet(this, w, next)) {
                return;
            }
        }
    }

    /** How many registrations of waiting threads the request holds (for tests and diagnostics). */
    final int waiterCount() {
        Thread[] w = waiters;
        return w == null ? 0 : w.length;
    }

    /** Takes back one registration of {@code thread} made by {@link #addWaiter}. */
    final void removeWaiter(Thread thread) {
        while (true) {
            Thread[] w = waiters;
            if (w == null) {
                return;
            }
            int at = -1;
            for (int i = 0; i < w.length && at < 0; i++) {
                if (w[i] == thread) {
                    at = i;
                }
            }
            if (at < 0) {
                return;
            }
            Thread[] next = null;
            if (w.length > 1) {
                next = new Thread[w.length - 1];
                System.arraycopy(w, 0, next, 0, at);
                System.arraycopy(w, at + 1, next, at, w.length - at - 1);
            }
            if (WAITERS.compareAndSet(this, w, next)) {
                return;
            }
        }
    }

    /** Blocks until complete; throws if the operation failed. */
    public final void await() {
        if (!complete) {
            engine.waitStrategy().await(this);
        }
        throwIfFailed();
    }

    public final void throwIfFailed() {
        RewindException f = failure;
        if (f != null) {
            throw f;
        }
    }

    /** Cancels the operation if it has not matched yet. Completion still has to be waited for. */
    public void cancel() {
        // Default: operations that cannot be cancelled complete normally.
    }

    public int statusSource() {
        return statusSource;
    }

    public int statusTag() {
        return statusTag;
    }

    public long statusBytes() {
        return statusBytes;
    }

    public boolean isCancelled() {
        return cancelled;
    }

    public RewindException failure() {
        return failure;
    }

    /** The engine of the rank incarnation that owns this request. */
    public RankEngine engine() {
        return engine;
    }
}
