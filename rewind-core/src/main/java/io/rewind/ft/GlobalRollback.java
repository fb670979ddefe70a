package io.rewind.ft;

import io.rewind.engine.FaultTolerance;

/**
 * The coordinated-checkpoint baseline: nothing is logged; on any failure every rank rolls back to
 * the newest recovery line all ranks have. Arrivals are tracked only so that a checkpoint can hold
 * the messages that crossed its line.
 */
public final class GlobalRollback implements FaultTolerance {
    @Override
    public String name() {
        return "global";
    }

    @Override
    public boolean tracksArrivals() {
        return true;
    }
}
