package io.rewind.runtime.watch;

/** One rank of a running job, as JMX shows it ({@code io.rewind:type=Rank,job=NAME,rank=N}). */
public interface RankMXBean {
    int getRank();

    /** STARTING, RUNNING, RECOVERING or ENDED. */
    String getState();

    int getIncarnation();

    /** Checkpoint points its current incarnation passed (the iteration reached). */
    long getPoints();

    /** Communication operations its current incarnation made. */
    long getOperations();

    /** Recovery lines it wrote. */
    long getLines();

    long getRecoveries();
}
