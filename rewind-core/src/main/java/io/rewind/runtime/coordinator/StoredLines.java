package io.rewind.runtime.coordinator;

import io.rewind.ft.logger.LoggerNodes;
import java.util.Collection;
import java.util.Set;

/**
 * What the job's storage holds, as the coordinator reads it while it plans a recovery: the checkpoint
 * files of the ranks, and what logger nodes lost. Handed in by the host; read on the coordinator's
 * thread, during a step.
 */
public interface StoredLines {
    /** The newest line, at most {@code atMost}, every one of {@code ranks} holds a valid file for. */
    long newestCommonLine(Collection<Integer> ranks, long atMost);

    /**
     * The ranks that must roll back besides {@code planned} because messages to those ranks only a dead
     * logger node held can be sent again only by their senders' re-execution (none without logger nodes).
     */
    LoggerNodes.Rollback sendersToRollBack(Set<Integer> planned);

    /**
     * Whether storage must keep every line it holds ({@code true} from the moment a plan is made until
     * the ranks it restarts are started: ranks not yet stopped may write newer lines meanwhile, each of
     * which would prune the writer's oldest). The one thing asked of storage, not read from it: it must
     * hold before the plan reads which lines there are, in the same step, so it cannot wait for the
     * step's commands.
     */
    void holdPruning(boolean held);
}
