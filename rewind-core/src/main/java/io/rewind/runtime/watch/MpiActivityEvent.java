package io.rewind.runtime.watch;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR: a sample of a rank's communication, taken whenever its host samples its progress (the
 * launcher's coordinator for threads, the rank process's progress reporter): operations and points so
 * far, and whether it waits inside MPI. Sampled, not one per operation, so a recording costs the
 * ranks nothing per message.
 */
@Name("io.rewind.MpiActivity")
@Label("MPI Activity")
@Category("Rewind")
@Description("A rank's MPI operations and checkpoint points so far, sampled")
@StackTrace(false)
public final class MpiActivityEvent extends jdk.jfr.Event {
    @Label("Rank")
    public int rank;

    @Label("Incarnation")
    public int incarnation;

    @Label("Operations")
    public long operations;

    @Label("Points")
    public long points;

    @Label("Waiting in MPI")
    public boolean waiting;

    /** Commits one, if JFR records it: nothing is built otherwise. */
    public static void emit(int rank, int incarnation, long operations, long points, boolean waiting) {
        MpiActivityEvent e = new MpiActivityEvent();
        if (!e.shouldCommit()) {
            return;
        }
        e.rank = rank;
        e.incarnation = incarnation;
        e.operations = operations;
        e.points = points;
        e.waiting = waiting;
        e.commit();
    }
}
