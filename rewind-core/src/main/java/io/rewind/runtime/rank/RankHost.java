package io.rewind.runtime.rank;

import io.rewind.runtime.JobAbortedException;

/**
 * What hosts a {@link RankRuntime}'s ranks, as the ranks see it: the job's state they read, and the
 * few things a thread of a JVM and a process of its own do differently. The in-JVM job hosts every
 * rank as a thread; a rank process hosts one. Called by the ranks' threads.
 */
public interface RankHost {
    /** Whether every rank of the job has finished (a finished rank serves its peers until then). */
    boolean jobFinished();

    /** The job's abort as this host heard of it from elsewhere (null: none, or only the ranks' own). */
    JobAbortedException jobAbort();

    /**
     * An incarnation is gone (its thread ended or is held for good) and struck, once: what it held may
     * be released and its recovery planned. A rank process has nothing to do here: its death is seen
     * from outside.
     */
    void down(Incarnation inc);

    /**
     * The program's thread of a struck incarnation is at its end. A process goes no further: it is
     * killed from outside, as a real crash leaves it, and this does not return. A thread host returns,
     * and the thread ends.
     */
    void crashed(Incarnation inc);

    /**
     * The program called {@code System.exit(status)} ({@code halt}: {@code Runtime.halt}) before
     * {@code MPI.Finalize}. A process ends with that status, as the program's own call would end it, and
     * this does not return; a thread host returns, and the rank's end aborts the job with the status.
     */
    void exitBeforeFinalize(int status, boolean halt);

    /**
     * The incarnation wrote a line, before its protocol trims its log by it and before the event is
     * emitted. A host whose job's view of the lines is kept elsewhere (a rank process: its launcher's
     * coordinator keeps it) records it in its own; an in-JVM job's coordinator records it when it takes
     * the event.
     */
    void lineWritten(RankEvent.Checkpointed line);

    /** As {@link #lineWritten}, for the messages in transit the incarnation keeps with a line. */
    void inTransitKept(RankEvent.KeptInTransit kept);
}
