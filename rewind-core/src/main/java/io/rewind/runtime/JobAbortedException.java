package io.rewind.runtime;

import io.rewind.engine.ErrorClass;
import io.rewind.engine.RewindException;

/**
 * Thrown in every rank of a job that was aborted, by whichever MPI call notices first. A negative
 * aborting rank means the launcher ended the job (time limit, no progress, a failure it cannot
 * recover), not a rank's {@code Comm.abort}.
 */
public final class JobAbortedException extends RewindException {
    private final int abortingRank;
    private final int errorCode;

    public JobAbortedException(int abortingRank, int errorCode, String reason) {
        super(
                ErrorClass.ABORTED,
                "job aborted by " + (abortingRank < 0 ? "the launcher" : "rank " + abortingRank) + " with error code "
                        + errorCode
                        + (reason == null || reason.isEmpty() ? "" : ": " + reason));
        this.abortingRank = abortingRank;
        this.errorCode = errorCode;
    }

    public int abortingRank() {
        return abortingRank;
    }

    public int errorCode() {
        return errorCode;
    }
}
