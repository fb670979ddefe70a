package io.rewind.runtime.coordinator;

import io.rewind.ft.logger.LoggerNodes;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Storage as a scenario's coordinator reads it: the lines the script's ranks wrote, held. */
class ScriptStorage implements StoredLines {
    final Map<Integer, TreeSet<Long>> held = new HashMap<>();
    /** What a dead logger's losses roll back (none unless the scenario says). */
    LoggerNodes.Rollback senders = new LoggerNodes.Rollback(Set.of(), List.of());
    /** Whether storage is told to prune nothing (from a plan until its ranks are started). */
    boolean linesHeld;

    @Override
    public LoggerNodes.Rollback sendersToRollBack(Set<Integer> planned) {
        return senders;
    }

    @Override
    public void holdPruning(boolean held) {
        linesHeld = held;
    }

    @Override
    public long newestCommonLine(Collection<Integer> ranks, long atMost) {
        long best = 0;
        for (long line : held.getOrDefault(ranks.iterator().next(), new TreeSet<>())) {
            boolean all = line <= atMost;
            for (int r : ranks) {
                all &= held.getOrDefault(r, new TreeSet<>()).contains(line);
            }
            if (all) {
                best = Math.max(best, line);
            }
        }
        return best;
    }
}
