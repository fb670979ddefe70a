package io.rewind.runtime;

import io.rewind.runtime.rank.RankEvent;
import io.rewind.runtime.rank.RankEventSink;

/**
 * The launcher of a rank running as a process of its own, as its rank sees it: where the rank's
 * events go ({@link #emit}, over the process's link; the coordinator of an in-JVM job takes the same
 * events off its queue), and what the rank learns of its job. Called by the rank's threads.
 */
public interface RankSupervisor extends RankEventSink {
    /**
     * Sends the event to the launcher. A {@link RankEvent.Struck} does not return: the process dies in
     * here, killed from outside, or halts itself if nobody does.
     */
    @Override
    void emit(RankEvent event);

    /** Whether every rank of the job has finished (a finished rank serves its peers until then). */
    boolean jobFinished();

    /** The job's abort as the launcher announced it, or null. */
    JobAbortedException jobAbort();
}
