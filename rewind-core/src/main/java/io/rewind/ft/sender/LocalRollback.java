package io.rewind.ft.sender;

import io.rewind.ft.RecoveryLines;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.RecoveryView;
import java.util.List;
import java.util.Set;

/** The recovery plan of the protocols that log every message at its sender: only the failed ranks restart. */
public final class LocalRollback {
    private LocalRollback() {}

    /**
     * The failed ranks restart together, from the newest line they all hold, but no further forward
     * than the newest line every other rank holds: a peer that crashes later restarts from its own
     * newest line and needs what these ranks sent after it, which only their re-execution can send
     * again (their old logs are gone). Ranks whose logs were lost together restart from one common
     * line, since a rank restarting from a later line would not regenerate messages a peer restarting
     * from an earlier one needs. If a failed rank has no valid file among its kept lines, the peers'
     * logs no longer reach back far enough, and every rank rolls back.
     */
    public static RecoveryPlan plan(Set<Integer> failed, RecoveryView view, RecoveryLines lines) {
        long line = view.newestCommonLine(failed, view.newestLineOutside(failed));
        for (int r : failed) {
            long oldestKept = lines.oldestLine(r);
            if (oldestKept > 0 && line < oldestKept) {
                String note = "rank " + r + " has no valid checkpoint "
                        + (failed.size() > 1 ? "common to the ranks " + "that crashed with it " + failed + " " : "")
                        + "among the kept recovery lines; the peers' "
                        + "logs no longer reach back far enough, so every rank rolls back";
                return RecoveryPlan.everyRank(view.ranks(), view.newestLineAllHold(), List.of(note));
            }
        }
        return new RecoveryPlan(failed, line, false, List.of());
    }
}
