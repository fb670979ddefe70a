package io.rewind.ft.logger;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** JFR: a rank's payload log dumped part of itself to the logger nodes to stay under its quota. */
@Name("io.rewind.LogDump")
@Label("Log Dump")
@Category("Rewind")
@Description("A rank's payload log dumped payloads to the logger nodes to stay under its quota")
@StackTrace(false)
public final class LogDumpEvent extends jdk.jfr.Event {
    @Label("Rank")
    public int rank;

    @Label("Payload")
    @DataAmount
    public long bytes;

    @Label("Dump Time")
    @Timespan
    public long dumpNanos;

    /** Commits one, if JFR records it: nothing is built otherwise. */
    static void emit(int rank, long bytes, long nanos) {
        LogDumpEvent e = new LogDumpEvent();
        if (!e.shouldCommit()) {
            return;
        }
        e.rank = rank;
        e.bytes = bytes;
        e.dumpNanos = nanos;
        e.commit();
    }
}
