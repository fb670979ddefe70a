package io.rewind.runtime.coordinator;

import io.rewind.runtime.FailureSchedule;
import java.util.List;

/**
 * What the coordinator decides its host must do: values it returns from a step ({@link
 * RecoveryCoordinator#commands}), carried out by the host after the step, never by calling back into
 * the coordinator. Each reads as one line of a scenario script ({@link #toString}).
 *
 * <p>Adding a command: a record here, the place in {@link RecoveryCoordinator} that decides it, and
 * a case in each host's switch (the compiler lists the hosts that lack one).
 */
public sealed interface Command extends java.io.Serializable {
    /**
     * Starts incarnation {@code incarnation} of {@code rank} from recovery line {@code line} (0: from the
     * beginning), firing {@code kills} itself; it is back where its predecessor crashed at {@code
     * catchUpPoints} checkpoint points, or for a restart from the beginning at {@code catchUpOperations}
     * communication operations (0: count points). Its lines past {@code line} were discarded first
     * ({@link DiscardAfter}), when it is a restart.
     */
    record Start(
            int rank,
            int incarnation,
            long line,
            List<FailureSchedule.Kill> kills,
            long catchUpPoints,
            long catchUpOperations,
            Replacement replacement)
            implements Command {
        public Start(
                int rank,
                int incarnation,
                long line,
                List<FailureSchedule.Kill> kills,
                long catchUpPoints,
                long catchUpOperations) {
            this(rank, incarnation, line, kills, catchUpPoints, catchUpOperations, null);
        }

        @Override
        public String toString() {
            return "start " + rank + "." + incarnation + " from " + line;
        }
    }

    /**
     * How a replacement (notify mode, {@code Ulfm.replace}) starts: its world communicator has context
     * {@code worldContext}, it reaches its peers at {@code incarnations} (per world rank), and it knows
     * the failures {@code failed} ({world rank, incarnation} pairs, in the order the job heard of them).
     */
    record Replacement(int worldContext, int[] incarnations, int[] failed) implements java.io.Serializable {}

    /**
     * Every incarnation being started is reachable: the ones in {@code ranks} (rank and incarnation
     * each), ready, start together, so that none sends to a peer that does not exist yet. The host tells
     * them where their peers are and lets them run, and reports each one running.
     */
    record StartTogether(List<Ready> ranks) implements Command {
        /** An incarnation that is ready. */
        public record Ready(int rank, int incarnation) {
            @Override
            public String toString() {
                return rank + "." + incarnation;
            }
        }

        @Override
        public String toString() {
            return "start together " + ranks;
        }
    }

    /** Stops the incarnation (a rollback): it goes, and says so with a down event. */
    record Stop(int rank, int incarnation) implements Command {
        @Override
        public String toString() {
            return "stop " + rank + "." + incarnation;
        }
    }

    /**
     * Carries out a strike the rank reported, or a kill due at a time: the incarnation crashes, as the
     * kill asks (the whole node of the rank, for a node loss). {@code kill} is null for a strike no kill
     * of the schedule caused.
     */
    record Crash(int rank, int incarnation, FailureSchedule.Kill kill) implements Command {
        @Override
        public String toString() {
            return "strike " + rank + "." + incarnation + (kill == null ? "" : " by " + kill);
        }
    }

    /**
     * Incarnation {@code incarnation} of {@code rank} failed and the job reports failures to its program
     * (notify mode): every other rank must learn it, in the order of these commands.
     */
    record Failed(int rank, int incarnation) implements Command {
        @Override
        public String toString() {
            return "failed " + rank + "." + incarnation;
        }
    }

    /** The communicator with context {@code context} was revoked: every rank of {@code members} must learn it. */
    record Revoke(int context, List<Integer> members) implements Command {
        @Override
        public String toString() {
            return "revoke " + context + " at " + members;
        }
    }

    /** A fault-tolerant collective was decided: the ranks of {@code to} return from it with {@code decision}. */
    record Decided(io.rewind.engine.FailureDecision decision, List<Integer> to) implements Command {
        @Override
        public String toString() {
            return "decided " + decision.kind() + " " + decision.context() + "#" + decision.call() + " for " + to;
        }
    }

    /** A rank went down: its peers must learn that it cannot be reached until it is started again. */
    record PeersChanged() implements Command {
        @Override
        public String toString() {
            return "peers";
        }
    }

    /** The lines of {@code rank} past {@code line} belong to an execution being redone: discard them. */
    record DiscardAfter(int rank, long line) implements Command {
        @Override
        public String toString() {
            return "discard " + rank + " after " + line;
        }
    }

    /** Storage may prune no line from {@code line} on (the newest line complete for all ranks moved). */
    record KeepFrom(long line) implements Command {
        @Override
        public String toString() {
            return "keep from " + line;
        }
    }

    /** The job is aborted: every rank is told ({@code rank} -1: by the job, not a rank). */
    record Abort(int rank, int errorCode, String reason) implements Command {
        @Override
        public String toString() {
            return "abort " + errorCode + ": " + reason;
        }
    }

    /** A line for the job's error output (the host prefixes nothing). */
    record Note(String line) implements Command {
        @Override
        public String toString() {
            return "note " + line;
        }
    }

    /**
     * The incarnation told to stop or crash is not down within the stop grace: unless the host sees it
     * gone (its news on the way), the job is aborted with {@code failure} ("did not stop for the
     * rollback") and where it is stuck, which only the host can see. A thread cannot be ended from
     * outside, and one that never calls the runtime again would be waited for for ever.
     */
    record StopOverdue(int rank, int incarnation, String failure) implements Command {
        @Override
        public String toString() {
            return "overdue " + rank + "." + incarnation + ": " + failure;
        }
    }

    /**
     * The stall watch gave up on {@code ranks}: the host writes where they wait (which only the host can
     * see: a thread's stack, a process's id), ranks that wait at the same place on one line, each line
     * starting with {@code prefix}, on the job's error output ({@code WaitReport}).
     */
    record DescribeWaits(List<Integer> ranks, String prefix) implements Command {
        @Override
        public String toString() {
            return "describe " + ranks + ": " + prefix;
        }
    }
}
