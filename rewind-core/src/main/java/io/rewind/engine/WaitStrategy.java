package io.rewind.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * How a rank thread waits for a completion: spin briefly (only worth it when every rank has a core of
 * its own), polling the transport meanwhile (a transport over sockets then reads them in this thread,
 * and no other thread wakes for what arrives), then park. Parking is bounded so that a job-wide abort or the kill of this rank is noticed
 * even if nobody unparks the thread.
 */
public final class WaitStrategy {
    private static final long PARK_SLICE_NS = 20_000_000L;

    private final int spinIterations;
    private final RankEngine engine;

    WaitStrategy(RankEngine engine, int spinIterations) {
        this.engine = engine;
        this.spinIterations = spinIterations;
    }

    public int spinIterations() {
        return spinIterations;
    }

    void await(Request request) {
        if (request.isComplete()) {
            return;
        }
        engine.faultTolerance().whileWaiting();
        Transport transport = engine.transport();
        for (int i = 0; i < spinIterations; i++) {
            if (request.isComplete()) {
                return;
            }
            if (!transport.poll()) {
                Thread.onSpinWait();
            }
        }
        if (spinIterations > 0) {
            transport.pollingPaused();
        }
        request.beforePark();
        Thread me = Thread.currentThread();
        request.setWaiter(me);
        engine.enterBlockingWait();
        try {
            while (!request.isComplete()) {
                engine.checkAlive();
                if (request.isComplete()) {
                    break;
                }
                LockSupport.parkNanos(request, PARK_SLICE_NS);
            }
        } finally {
            engine.leaveBlockingWait();
            request.setWaiter(null);
        }
    }

    /** Waits until at least one of the requests completes (nulls and inactive entries are skipped). */
    void awaitAny(Request[] requests) {
        if (anyComplete(requests)) {
            return;
        }
        engine.faultTolerance().whileWaiting();
        Transport transport = engine.transport();
        for (int i = 0; i < spinIterations; i++) {
            if (anyComplete(requests)) {
                return;
            }
            if (!transport.poll()) {
                Thread.onSpinWait();
            }
        }
        if (spinIterations > 0) {
            transport.pollingPaused();
        }
        Thread me = Thread.currentThread();
        for (Request r : requests) {
            if (r != null) {
                r.beforePark();
                r.setWaiter(me);
            }
        }
        engine.enterBlockingWait();
        try {
            while (!anyComplete(requests)) {
                engine.checkAlive();
                if (anyComplete(requests)) {
                    break;
                }
                LockSupport.parkNanos(this, PARK_SLICE_NS);
            }
        } finally {
            engine.leaveBlockingWait();
            for (Request r : requests) {
                if (r != null) {
                    r.setWaiter(null);
                }
            }
        }
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
