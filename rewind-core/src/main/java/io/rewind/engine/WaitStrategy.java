package io.rewind.engine;

/**
 * How a rank thread waits for a completion: poll the transport, spinning for a few polls and then
 * yielding the core between polls for a bounded time (only when every rank has a core of its own; a
 * transport over sockets is then read in this thread, and no other thread wakes for what arrives), then
 * park until woken: by the completion, or by {@link ParkedWaits}'s watch when a job-wide abort, the
 * kill of this rank or its protocol's work needs the thread. The figures come from {@link
 * EngineConfig#forRanks} (ranks as threads of one JVM) and {@link EngineConfig#forRankProcesses} (rank
 * processes).
 */
public final class WaitStrategy {
    private final int spinIterations;
    private final long yieldNanos;
    private final RankEngine engine;

    WaitStrategy(RankEngine engine, int spinIterations, long yieldNanos) {
        this.engine = engine;
        this.spinIterations = spinIterations;
        this.yieldNanos = yieldNanos;
    }

    void await(Request request) {
        if (request.isComplete()) {
            return;
        }
        PeerFailures failures = engine.peerFailures();
        failures.interrupt(request);
        engine.faultTolerance().whileWaiting();
        if (busyWait(request, null)) {
            return;
        }
        request.beforePark();
        Thread me = Thread.currentThread();
        request.addWaiter(me);
        engine.enterBlockingWait();
        failures.waiting(me);
        try {
            while (!request.isComplete()) {
                engine.checkAlive();
                failures.interrupt(request);
                if (request.isComplete()) {
                    break;
                }
                ParkedWaits.park(request);
            }
        } finally {
            failures.doneWaiting(me);
            engine.leaveBlockingWait();
            request.removeWaiter(me);
        }
    }

    /** Waits until at least one of the requests completes (nulls and inactive entries are skipped). */
    void awaitAny(Request[] requests) {
        if (anyComplete(requests)) {
            return;
        }
        PeerFailures failures = engine.peerFailures();
        for (Request r : requests) {
            if (r != null) {
                failures.interrupt(r);
            }
        }
        engine.faultTolerance().whileWaiting();
        if (busyWait(null, requests)) {
            return;
        }
        Thread me = Thread.currentThread();
        for (Request r : requests) {
            if (r != null) {
                r.beforePark();
                r.addWaiter(me);
            }
        }
        engine.enterBlockingWait();
        failures.waiting(me);
        try {
            while (!anyComplete(requests)) {
                engine.checkAlive();
                for (Request r : requests) {
                    if (r != null) {
                        failures.interrupt(r);
                    }
                }
                if (anyComplete(requests)) {
                    break;
                }
                ParkedWaits.park(this);
            }
        } finally {
            failures.doneWaiting(me);
            engine.leaveBlockingWait();
            for (Request r : requests) {
                if (r != null) {
                    r.removeWaiter(me);
                }
            }
        }
    }

    /**
     * Polls the transport before a park: first spinning (a rank with a core of its own), then yielding
     * the core between polls for at most {@code yieldNanos} (ranks that share cores: a message that
     * comes within that time is read by this thread, and wakes no other).
     *
     * @return whether {@code request} (or one of {@code requests}) completed meanwhile
     */
    private boolean busyWait(Request request, Request[] requests) {
        if (spinIterations == 0 && yieldNanos == 0) {
            return false;
        }
        Transport transport = engine.transport();
        for (int i = 0; i < spinIterations; i++) {
            if (done(request, requests)) {
                return true;
            }
            if (!transport.poll()) {
                Thread.onSpinWait();
            }
        }
        if (yieldNanos > 0) {
            long deadline = System.nanoTime() + yieldNanos;
            do {
                if (done(request, requests)) {
                    return true;
                }
                if (!transport.poll()) {
                    Thread.yield();
                }
            } while (System.nanoTime() - deadline < 0);
        }
        transport.pollingPaused();
        return done(request, requests);
    }

    private static boolean done(Request request, Request[] requests) {
        return request != null ? request.isComplete() : anyComplete(requests);
    }

    private static boolean anyComplete(Request[] requests) {
        for (Request r : requests) {
            if (r != null && r.isComplete()) {
                return true;
            }
        }
        return false;
    }

    /** Called after an unsuccessful test or probe: on an oversubscribed machine let other ranks run. */
    void onUnsuccessfulPoll() {
        if (spinIterations == 0) {
            Thread.yield();
        } else if (!engine.transport().poll()) {
            Thread.onSpinWait();
        }
    }
}
