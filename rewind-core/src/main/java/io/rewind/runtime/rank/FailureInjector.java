package io.rewind.runtime.rank;

import io.rewind.checkpoint.CheckpointFormat;
import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointStore;
import io.rewind.runtime.FailureSchedule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Makes the crashes of a {@link FailureSchedule} happen in one incarnation: at a checkpoint point, at
 * an operation, or in the middle of a checkpoint write (a half-written file is left behind). Each kill
 * strikes at most once; one that fires is reported ({@code RankRuntime#onKillFired}), and the coordinator hands
 * the kills still to fire to the rank's next incarnation. Kills at a wall-clock time are the
 * coordinator's.
 */
final class FailureInjector {
    private final RankRuntime job;
    private final FailureSchedule schedule;
    private final boolean[] fired;

    FailureInjector(RankRuntime job, FailureSchedule schedule) {
        this.job = job;
        this.schedule = schedule;
        this.fired = new boolean[schedule.kills().size()];
    }

    private boolean claim(int index) {
        synchronized (this) {
            if (fired[index]) {
                return false;
            }
            fired[index] = true;
        }
        return true;
    }

    private synchronized void unclaim(int index) {
        fired[index] = false;
    }

    /**
     * Strikes {@code inc} with kill {@code index} (if that kill has not fired) and stops this thread;
     * {@code where} says where it struck ("at operation 12"). A kill that finds the incarnation struck a
     * moment before (a rollback stopping it, or another of its threads crashing) does not fire: it stays
     * for the incarnations after it, and this thread stops with the strike that came first. Returns only
     * if the kill has fired already. {@code first} (may be null) runs once the kill is taken, before the
     * strike.
     */
    private void strike(Incarnation inc, int index, String where, Runnable first) {
        if (!claim(index)) {
            return;
        }
        if (first != null) {
            first.run();
        }
        FailureSchedule.Kill k = schedule.kills().get(index);
        if (job.markKilled(inc, "killed " + where + " (" + k + ")", () -> job.onKillFired(inc, k))) {
            throw new RankKilledError(inc.rank, inc.number, where);
        }
        unclaim(index);
        throw new RankKilledError(inc.rank, inc.number, inc.strike().reason());
    }

    /** Called at every checkpoint point of a rank. */
    void atPoint(Incarnation inc, long points) {
        for (int i = 0; i < fired.length; i++) {
            FailureSchedule.Kill k = schedule.kills().get(i);
            if (k.rank() == inc.rank && k.trigger() == FailureSchedule.Trigger.ITERATION && k.value() == points) {
                strike(inc, i, "at iteration " + points, null);
            }
        }
    }

    /** Called at every communication operation of a rank (counted per incarnation). */
    void atOperation(Incarnation inc, long operations) {
        if (inc.strike() != null) {
            // Another thread of this incarnation was struck: this one stops too, and leaves the kills
            // still to fire for the incarnations after it (two kills of one rank at one operation
            // mean a second failure during the recovery from the first).
            throw new RankKilledError(inc.rank, inc.number, inc.strike().reason());
        }
        for (int i = 0; i < fired.length; i++) {
            FailureSchedule.Kill k = schedule.kills().get(i);
            boolean due = k.trigger() == FailureSchedule.Trigger.OPERATION
                    ? operations >= k.value()
                    : k.fallbackOperation() > 0 && operations >= k.fallbackOperation() && inc.agent.points() == 0;
            if (k.rank() == inc.rank && due) {
                strike(inc, i, "at operation " + operations, null);
            }
        }
    }

    boolean hasOperationKills() {
        for (FailureSchedule.Kill k : schedule.kills()) {
            if (k.trigger() == FailureSchedule.Trigger.OPERATION || k.fallbackOperation() > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Called before a checkpoint file is written: a kill here leaves a torn temporary file in the
     * job's folder ({@code store}; null when the rank writes through its node's agent, which never
     * sees the line).
     */
    void duringCheckpoint(Incarnation inc, long line, CheckpointImage image, CheckpointStore store) {
        for (int i = 0; i < fired.length; i++) {
            FailureSchedule.Kill k = schedule.kills().get(i);
            if (k.rank() == inc.rank && k.trigger() == FailureSchedule.Trigger.CHECKPOINT && k.value() == line) {
                // The torn file is left only by the kill that strikes (not by one that fired already).
                Runnable tearFile =
                        store == null ? null : () -> tear(store, inc.rank, line, CheckpointFormat.encode(image));
                strike(inc, i, "while writing checkpoint " + line, tearFile);
            }
        }
    }

    private static void tear(CheckpointStore store, int rank, long line, byte[] bytes) {
        Path torn = store.jobDir()
                .resolve(String.format("rank-%05d", rank))
                .resolve(String.format("line-%012d.ckpt.tmp", line));
        try {
            Files.createDirectories(torn.getParent());
            Files.write(torn, Arrays.copyOf(bytes, bytes.length / 2));
        } catch (IOException e) {
            // the crash happens anyway; the torn file is only there to be ignored
        }
    }
}
