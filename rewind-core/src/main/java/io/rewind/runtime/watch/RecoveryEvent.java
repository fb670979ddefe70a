package io.rewind.runtime.watch;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** JFR: a restarted rank is back where it crashed. Emitted in the launcher's JVM. */
@Name("io.rewind.Recovery")
@Label("Rank Recovery")
@Category("Rewind")
@Description("A restarted rank is back where it crashed")
@StackTrace(false)
public final class RecoveryEvent extends jdk.jfr.Event {
    @Label("Rank")
    public int rank;

    @Label("Restored Line")
    public long line;

    @Label("Messages Replayed")
    public long replayed;

    @Label("Recovery Time")
    @Timespan
    public long totalNanos;
}
