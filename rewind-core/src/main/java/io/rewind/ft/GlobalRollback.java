package io.rewind.ft;

import io.rewind.engine.Communicator;
import io.rewind.engine.FaultTolerance;
import io.rewind.engine.Frame;

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

    @Override
    public boolean rootedCollectives() {
        return false;
    }

    @Override
    public boolean beforeSend(Communicator comm, Frame frame, int destinationWorld, boolean collectiveResult) {
        return true;
    }

    @Override
    public void afterSend(Frame frame) {
    }

    @Override
    public void onWildcardMatch(long index, Frame frame) {
    }

    @Override
    public ForcedMatch forcedWildcard(long index) {
        return null;
    }

    @Override
    public void onPollOutcome(long index, long[] outcome) {
    }

    @Override
    public long[] forcedPollOutcome(long index) {
        return null;
    }
}
