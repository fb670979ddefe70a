package io.rewind.runtime.coordinator;

import io.rewind.ft.Protocol;
import io.rewind.ft.ProtocolServices;
import io.rewind.ft.RankProtocol;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.RecoveryView;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Plans as a protocol of each kind would, for the coordinator's scenarios: only the failed ranks, from
 * their newest complete line, or every rank, from the newest line all hold. {@link #planned} is every
 * set of failed ranks it was asked to plan for.
 */
final class ScriptedProtocol implements Protocol {
    final boolean global;
    final boolean recovers;
    final List<Set<Integer>> planned = new ArrayList<>();

    ScriptedProtocol(boolean global, boolean recovers) {
        this.global = global;
        this.recovers = recovers;
    }

    @Override
    public String name() {
        return global ? "scripted-global" : "scripted-local";
    }

    @Override
    public boolean recovers() {
        return recovers;
    }

    @Override
    public void start(ProtocolServices services) {}

    @Override
    public RankProtocol openRank(int rank, int incarnation) {
        throw new UnsupportedOperationException("no rank runs in a scenario");
    }

    @Override
    public RecoveryPlan plan(Set<Integer> failed, RecoveryView view) {
        planned.add(Set.copyOf(failed));
        if (global) {
            return RecoveryPlan.everyRank(view.ranks(), view.newestLineAllHold(), List.of());
        }
        long line = view.newestCompleteLine(failed, view.newestLineOutside(failed));
        return new RecoveryPlan(failed, Math.max(0, line), false, List.of());
    }

    @Override
    public void close() {}
}
