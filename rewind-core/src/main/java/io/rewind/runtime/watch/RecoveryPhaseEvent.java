package io.rewind.runtime.watch;

import io.rewind.runtime.RecoveryPhase;
import io.rewind.runtime.RunReport;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR: one phase of a recovery that is over (detect, respawn, restore, replay, as {@code
 * RecoveryPhase} names their ends). Emitted in the launcher's JVM once the rank caught up.
 */
@Name("io.rewind.RecoveryPhase")
@Label("Recovery Phase")
@Category("Rewind")
@Description("One phase of a rank's recovery: detect, respawn, restore or replay")
@StackTrace(false)
public final class RecoveryPhaseEvent extends jdk.jfr.Event {
    @Label("Rank")
    public int rank;

    @Label("Phase")
    public String phase;

    @Label("Phase Time")
    @Timespan
    public long phaseNanos;

    /** Commits one per phase of the recovery, if JFR records them. */
    static void emitEach(RunReport.FailureRecord f) {
        RecoveryPhase[] all = RecoveryPhase.values();
        for (int i = 1; i < all.length; i++) {
            RecoveryPhaseEvent p = new RecoveryPhaseEvent();
            if (!p.shouldCommit()) {
                return;
            }
            p.rank = f.rank();
            p.phase = phaseName(all[i]);
            p.phaseNanos = Math.max(0, f.enteredNanos(all[i]) - f.enteredNanos(all[i - 1]));
            p.commit();
        }
    }

    private static String phaseName(RecoveryPhase p) {
        return switch (p) {
            case KILLED -> "killed";
            case DETECTED -> "detect";
            case RESPAWNED -> "respawn";
            case RESTORED -> "restore";
            case CAUGHT_UP -> "replay";
        };
    }
}
