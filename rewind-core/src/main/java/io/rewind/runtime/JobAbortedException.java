package io.rewind.runtime;

import io.rewind.engine.ErrorClass;
import io.rewind.engine.RewindException;

/** Thrown in every rank of a job that was aborted, by whichever MPI call notices first. */
public final class JobAbortedException extends RewindException {
    private final int abortingRank;
    private final int errorCode;

    public JobAbortedException(int abortingRank, int errorCode, String reason) {
        super(
                ErrorClass.ABORTED,
                "job aborted by rank " + abortingRank + " with error code " + errorCode
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
