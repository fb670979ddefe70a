package io.rewind.runtime.watch;

import io.rewind.runtime.RunReport;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** JFR: a rank failed and its recovery is planned. Emitted in the launcher's JVM. */
@Name("io.rewind.Failure")
@Label("Rank Failure")
@Category("Rewind")
@Description("A rank failed; its recovery is planned")
@StackTrace(false)
public final class FailureEvent extends jdk.jfr.Event {
    @Label("Rank")
    public int rank;

    @Label("Incarnation")
    public int incarnation;

    @Label("Cause")
    public String cause;

    @Label("Restart Line")
    public long line;

    @Label("Ranks Rolled Back")
    public int rolledBack;

    /** Commits one, if JFR records it. */
    static void emit(RunReport.FailureRecord f, String cause) {
        FailureEvent e = new FailureEvent();
        if (e.shouldCommit()) {
            e.rank = f.rank();
            e.incarnation = f.incarnation();
            e.cause = cause;
            e.line = f.line();
            e.rolledBack = f.rollbackSet();
            e.commit();
        }
    }
}
