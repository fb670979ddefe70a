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
     * logs no longer reach back far enough, and every rank rolls back. The line must also be complete
     * ({@link RecoveryView#complete}): what the failed ranks sent each other before it and what restarted
     * survivors no longer log are kept with it, in transit.
     */
    public static RecoveryPlan plan(Set<Integer> failed, RecoveryView view, RecoveryLines lines) {
        long line = view.newestCompleteLine(failed, view.newestLineOutside(failed));
        if (line < 0) {
            return RecoveryPlan.everyRank(view.ranks(), view.newestLineAllHold(), List.of(noCompleteLine(failed)));
        }
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

    /**
     * Why every rank rolls back when no line, not even the beginning, is complete for {@code group}: a
     * survivor that restarted itself logs only what it sent after its own line, and what it sent a
     * member before is kept with none of the member's lines.
     */
    public static String noCompleteLine(Set<Integer> group) {
        return "no recovery line of rank" + (group.size() > 1 ? "s " : " ") + group
                + " holds every message a restarted peer sent before its own restart line (those messages"
                + " are in no log any more), so every rank rolls back";
    }
}
