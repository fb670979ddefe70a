package io.rewind.runtime.watch;

/** A running job, as JMX shows it ({@code io.rewind:type=Job,name=NAME}): the summary's live figures. */
public interface JobMXBean {
    String getName();

    int getRanks();

    /** Ranks whose program runs now. */
    int getRunningRanks();

    double getElapsedSeconds();

    /** STARTING, RUNNING, RECOVERING, SUCCEEDED or FAILED. */
    String getState();

    long getCheckpoints();

    long getFailures();

    long getRecoveries();
}
