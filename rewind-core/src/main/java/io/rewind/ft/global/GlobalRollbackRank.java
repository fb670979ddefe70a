package io.rewind.ft.global;

import io.rewind.ft.RankProtocol;

/**
 * A rank under the global-rollback baseline: nothing is logged. Arrivals are tracked only so that a
 * checkpoint can hold the messages that crossed its line.
 */
public final class GlobalRollbackRank implements RankProtocol {
    @Override
    public String name() {
        return "global";
    }

    @Override
    public boolean tracksArrivals() {
        return true;
    }
}
