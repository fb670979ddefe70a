package io.rewind.runtime.watch;

import io.rewind.runtime.RecoveryPhase;
import io.rewind.runtime.RunReport;
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

    /** Commits one, if JFR records it. */
    static void emit(RunReport.FailureRecord f) {
        RecoveryEvent e = new RecoveryEvent();
        if (e.shouldCommit()) {
            e.rank = f.rank();
            e.line = f.line();
            e.replayed = f.replayedFrames();
            e.totalNanos = f.enteredNanos(RecoveryPhase.CAUGHT_UP) - f.enteredNanos(RecoveryPhase.KILLED);
            e.commit();
        }
    }
}
