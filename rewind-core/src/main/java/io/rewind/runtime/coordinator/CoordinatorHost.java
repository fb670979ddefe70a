package io.rewind.runtime.coordinator;

import io.rewind.ft.logger.LoggerNodes;
import io.rewind.runtime.FailureSchedule;
import java.util.Collection;
import java.util.Set;

/**
 * What carries out the coordinator's commands: the ranks as threads of this JVM, or the ranks as
 * processes (their node agents and links). Called on the coordinator's thread only; a command returns
 * at once, and what it leads to comes back as an event ({@link RecoveryCoordinator}).
 */
public interface CoordinatorHost {
    /**
     * Starts incarnation {@code incarnation} of {@code rank} from recovery line {@code line} (0: from the
     * beginning). Its lines past {@code line} are discarded first, when it is a restart.
     */
    void start(int rank, int incarnation, long line);

    /** Stops the incarnation (a rollback): it goes, and says so with a down event. */
    void stop(int rank, int incarnation);

    /**
     * Carries out a strike the rank reported, or a kill due at a time: the incarnation crashes, as the
     * kill asks (the whole node of the rank, for a node loss). {@code kill} is null for a strike no kill
     * of the schedule caused.
     */
    void strike(int rank, int incarnation, FailureSchedule.Kill kill);

    /** A rank went down: its peers must learn that it cannot be reached until it is started again. */
    void peersChanged();

    /** The lines of {@code rank} past {@code line} belong to an execution being redone: discard them. */
    void discardAfter(int rank, long line);

    /** Storage may prune no line from {@code line} on (the newest line complete for all ranks moved). */
    void keepFrom(long line);

    /** The job is aborted: every rank is told. */
    void aborted(int rank, int errorCode, String reason);

    /**
     * The ranks that must roll back besides {@code planned} because messages to those ranks only a dead
     * logger node held can be sent again only by their senders' re-execution (none without logger nodes).
     */
    LoggerNodes.Rollback sendersToRollBack(Set<Integer> planned);

    /**
     * Whether storage must keep every line it holds ({@code true} from the moment a plan picks a line
     * until the ranks it restarts are started: ranks not yet stopped may write newer lines meanwhile,
     * each of which would prune the writer's oldest).
     */
    void pruning(boolean held);

    /** The newest line, at most {@code atMost}, every one of {@code ranks} holds a valid file for. */
    long newestCommonLine(Collection<Integer> ranks, long atMost);

    /** Where a rank the stall watch gave up on waits, as one line for the job's error output. */
    String describeWait(int rank);

    /** A line for the job's error output (the host prefixes nothing). */
    void note(String line);
}
