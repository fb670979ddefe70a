package io.rewind.runtime;

/**
 * How one rank ended.
 *
 * @param rank    world rank
 * @param status  the kind of ending
 * @param message what went wrong, or empty
 * @param error   the throwable that ended it, or null
 */
public record RankOutcome(int rank, Status status, String message, Throwable error) {
    /** Kinds of ending. */
    public enum Status {
        /** Returned from main after MPI.Finalize (or never used MPI). */
        COMPLETED,
        /** Threw, or returned after Init without Finalize. */
        FAILED,
        /** Stopped because the job was aborted (by this rank or another). */
        ABORTED,
        /** Still running when the job's time limit passed. */
        TIMED_OUT,
        /** Failed while the job reported failures to its program ({@code --on-failure notify}): its peers went on. */
        LOST
    }

    public boolean ok() {
        return status == Status.COMPLETED || status == Status.LOST;
    }
}
