package io.rewind.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * An operation in flight. Completion is a volatile flag plus the thread (if any) that waits for it;
 * the completer sets the flag and then wakes the waiter, the waiter publishes itself and then checks
 * the flag, so one of the two always sees the other.
 *
 * <p>Status fields are written by the completing thread before the flag and read by the owner after
 * it, so the flag publishes them.
 */
public abstract class Request {
    protected final RankEngine engine;
    private volatile boolean complete;
    private volatile Thread waiter;

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
        return complete;
    }

    /**
     * Does work this request is waiting for, if the calling thread can (a pulled transfer the
     * receiver or the sender may run). Called by every completion check of the owner; cheap when
     * there is nothing to do.
     */
    protected void helpProgress() {}

    /** Called by the waiting owner before it parks: last work worth doing before sleeping. */
    protected void beforePark() {}

    /** Wakes the thread parked on this request without completing it (work is waiting for it). */
    final void wakeWaiter() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
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
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /** Registers the current thread to be woken at completion (used by wait-any style loops). */
    final void setWaiter(Thread thread) {
        waiter = thread;
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
