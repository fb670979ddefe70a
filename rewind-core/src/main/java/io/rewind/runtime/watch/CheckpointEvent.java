package io.rewind.runtime.watch;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** JFR: a rank wrote a recovery line. Emitted in the rank's own JVM (the launcher's, for threads). */
@Name("io.rewind.Checkpoint")
@Label("Checkpoint")
@Category("Rewind")
@Description("A rank wrote a recovery line")
@StackTrace(false)
public final class CheckpointEvent extends jdk.jfr.Event {
    @Label("Rank")
    public int rank;

    @Label("Incarnation")
    public int incarnation;

    @Label("Line")
    public long line;

    @Label("Size")
    @DataAmount
    public long bytes;

    @Label("Write Time")
    @Timespan
    public long writeNanos;

    /** Commits one, if JFR records it: nothing is built otherwise. */
    public static void emit(int rank, int incarnation, long line, long bytes, long nanos) {
        CheckpointEvent e = new CheckpointEvent();
        if (!e.shouldCommit()) {
            return;
        }
        e.rank = rank;
        e.incarnation = incarnation;
        e.line = line;
        e.bytes = bytes;
        e.writeNanos = nanos;
        e.commit();
    }
}
