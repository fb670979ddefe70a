package io.rewind.runtime.rank;

import io.rewind.engine.RankEngine;
import io.rewind.ft.RankProtocol;
import io.rewind.runtime.InputRouter;
import io.rewind.runtime.OutputRouter;
import io.rewind.runtime.coordinator.Strike;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One life of a rank: from its start (or respawn) to its end or crash. Made and run by {@link
 * RankRuntime}; its host sees what it needs to release and report it.
 */
public final class Incarnation {
    final RankSlot slot;
    final int rank;
    final int number;
    RankEngine engine;
    RankProtocol protocol;
    CheckpointAgent agent;
    /** Keeps the messages in transit across its lines; null where the protocol keeps none. */
    ChannelStateKeeper channelState;
    /** The kills of the schedule this incarnation fires itself. */
    FailureInjector injector;
    /** Told once the incarnation is gone and struck ({@link RankHost#down}). */
    Consumer<Incarnation> whenDown;

    private final AtomicBoolean downTold = new AtomicBoolean();
    RankClassLoader loader;
    Thread thread;
    Map<Long, Long> restoredFrontiers;
    /** The current state, since when and why; replaced whole by {@link #transition}. */
    private final AtomicReference<StateEntry> state =
            new AtomicReference<>(new StateEntry(IncarnationState.STARTING, System.nanoTime(), "prepared"));
    /** How it was struck, set once (the first strike wins) before it enters KILLED. */
    private final AtomicReference<Strike> strike = new AtomicReference<>();
    /**
     * Counted down when the incarnation's thread has ended, or has been held for good after its program
     * swallowed the error that told it it had crashed ({@link RankRuntime#holdForGood}).
     */
    private final CountDownLatch gone = new CountDownLatch(1);
    /** Threads of the incarnation already told that it crashed or was stopped. */
    final Set<Thread> toldToStop = ConcurrentHashMap.newKeySet();
    /** Its program called {@code System.exit} ({@link RankExit}): it has ended, whatever its threads do. */
    final AtomicBoolean exited = new AtomicBoolean();
    /** For a restart from the beginning: the operation count at which it is back where it crashed. */
    long catchUpOperations;

    long catchUpTarget;
    volatile boolean caughtUp;

    Incarnation(RankSlot slot, int number) {
        this.slot = slot;
        this.rank = slot.rank();
        this.number = number;
    }

    public int rank() {
        return rank;
    }

    /** Which incarnation of its rank it is: 0 for the first. */
    public int number() {
        return number;
    }

    public RankEngine engine() {
        return engine;
    }

    public RankProtocol protocol() {
        return protocol;
    }

    /** Its program's thread (for where it is stuck, and to wake it). */
    public Thread thread() {
        return thread;
    }

    RankContext context() {
        return loader.context();
    }

    IncarnationState state() {
        return state.get().state();
    }

    /** How it was struck, or null if it was not. */
    public Strike strike() {
        return strike.get();
    }

    /** Records the strike if it is the first; false if another came first. */
    boolean strikeFirst(Strike s) {
        return strike.compareAndSet(null, s);
    }

    /** Whether it was killed or retired: its threads must stop. */
    boolean stopped() {
        return state().stopped();
    }

    /** Whether its program's thread has ended, or is held for good. */
    public boolean isGone() {
        return gone.getCount() == 0;
    }

    /** Whether its thread was started (one made for a restart the job ended before may never be). */
    public boolean started() {
        return thread.getState() != Thread.State.NEW;
    }

    /** An incarnation whose thread never started (the job ended first) is gone now: nothing to wait for. */
    public void goneIfNeverStarted() {
        if (!started()) {
            goneNow();
        }
    }

    /**
     * Its program's thread has ended, or is held for good. Its channel state is closed first: no part
     * of it is written once it counts as gone, when a recovery may choose the line its successor
     * restarts from.
     */
    void goneNow() {
        if (channelState != null) {
            channelState.close();
        }
        gone.countDown();
        goneIfDone();
    }

    /**
     * Once it is both gone and struck (in either order: a finished rank serving its peers may be struck
     * after its program's thread ended), {@link #whenDown} is told, once.
     */
    void goneIfDone() {
        if (isGone() && strike() != null && whenDown != null && downTold.compareAndSet(false, true)) {
            whenDown.accept(this);
        }
    }

    /** Waits until {@code deadlineNanos} ({@link Long#MAX_VALUE}: for ever) for it to be gone. */
    public boolean awaitGone(long deadlineNanos) {
        // An interrupt of the waiting thread must not pass for a rank that did not stop: keep waiting
        // out the time, then hand the interrupt back to whoever waits.
        boolean interrupted = false;
        try {
            while (!isGone()) {
                try {
                    if (deadlineNanos == Long.MAX_VALUE) {
                        gone.await();
                    } else {
                        long left = deadlineNanos - System.nanoTime();
                        if (left <= 0) {
                            break;
                        }
                        gone.await(left, TimeUnit.NANOSECONDS);
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return isGone();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Whether it may still act: neither struck nor stopped. What it prints after that is not shown. */
    boolean live() {
        return strike() == null && !stopped() && !exited.get();
    }

    /**
     * The one way its state changes: to {@code next} if the current state allows it (by compare and
     * set, so of two threads striking at once exactly one wins), recording when and why. False if the
     * move is not allowed (it is already there, or past it).
     */
    boolean transition(IncarnationState next, long nowNanos, String reason) {
        StateEntry entry = new StateEntry(next, nowNanos, reason);
        while (true) {
            StateEntry current = state.get();
            if (!current.state().canMoveTo(next)) {
                return false;
            }
            if (state.compareAndSet(current, entry)) {
                return true;
            }
        }
    }

    /**
     * Marks it released: nothing of it is used again. False if it was before (its host releases what
     * it held once, on the first call).
     */
    public boolean retire() {
        return transition(IncarnationState.RETIRED, System.nanoTime(), "released");
    }

    /** Closes what it held last: its protocol's side (its payload log) and its class loader. */
    public void close() {
        protocol.close();
        loader.close();
    }

    /** Where the rank prints, across its incarnations. */
    OutputRouter.RankOutput output() {
        return slot.output();
    }

    InputRouter.RankInput input() {
        return slot.input();
    }

    @Override
    public String toString() {
        StateEntry e = state.get();
        return "rank " + rank + "." + number + " " + e.state() + " (" + e.reason() + ")";
    }

    /** A state an incarnation entered, when ({@code System.nanoTime()}) and why. */
    record StateEntry(IncarnationState state, long sinceNanos, String reason) {}
}
