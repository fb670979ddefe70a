package io.rewind.runtime.watch;

import io.rewind.runtime.RecoveryPhase;
import io.rewind.runtime.RunReport;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The one place that words a failure and a recovery for standard error, the moment each happens:
 *
 * <pre>
 * rewind: rank 2 failed at 3.1 s (killed: --kill 2@130); restarting it from line 4 (1 of 4 ranks roll back)
 * rewind: rank 2 recovered at 3.4 s: line 4 restored, 57 messages replayed by 3 peers, caught up in 210 ms
 * </pre>
 *
 * Times are counted from the job's start ({@code startNanos}).
 */
public final class Announcements {
    private Announcements() {}

    /** The line of a failure whose recovery is planned. */
    public static String failed(RunReport.FailureRecord f, String cause, int ranks, long startNanos) {
        String rolledBack = f.rollbackSet() + " of " + ranks + " ranks roll back"
                + (f.rollbackSet() > 1 && f.rollbackSet() < ranks ? ": " + list(f) : "");
        return "rewind: rank " + f.rank() + " failed at "
                + seconds(f.enteredNanos(RecoveryPhase.KILLED) - startNanos) + " (" + cause + "); restarting it from "
                + (f.line() == 0 ? "the beginning" : "line " + f.line()) + " (" + rolledBack + ")";
    }

    /** The line of a recovery that is over: the rank is back where it crashed. */
    public static String recovered(RunReport.FailureRecord f, int ranks, long startNanos) {
        int peers = ranks - f.rollbackSet();
        long replayed = f.replayedFrames();
        String replay = replayed == 0
                ? "nothing replayed"
                : replayed + (replayed == 1 ? " message" : " messages") + " replayed by " + peers
                        + (peers == 1 ? " peer" : " peers");
        double replayMs = f.replayMs();
        return "rewind: rank " + f.rank() + " recovered at "
                + seconds(f.enteredNanos(RecoveryPhase.CAUGHT_UP) - startNanos) + ": "
                + (f.line() == 0 ? "restarted from the beginning" : "line " + f.line() + " restored") + ", " + replay
                + ", caught up in " + (Double.isNaN(replayMs) ? "?" : Math.round(replayMs)) + " ms";
    }

    /** {@code 3.1 s}. */
    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", Math.max(0, nanos) / 1e9);
    }

    private static String list(RunReport.FailureRecord f) {
        return f.rolledBack().stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
