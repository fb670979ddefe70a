package io.rewind.runtime.watch;

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
}
