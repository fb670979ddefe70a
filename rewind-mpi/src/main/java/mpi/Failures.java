package mpi;

import io.rewind.engine.ErrorClass;
import io.rewind.engine.RewindException;
import io.rewind.runtime.rank.RankContext;

/**
 * Where engine failures become {@link MPIException}s, and where a communicator's error handler is
 * applied. A job abort ({@code ABORTED}) is not converted: it stays unchecked so the launcher sees it
 * as such. Peer failures reported to the program ({@code --on-failure notify}) are converted like any
 * other error.
 */
final class Failures {
    private Failures() {}

    static MPIException error(int errorClass, String message) {
        return new MPIException(errorClass, errorClass, message);
    }

    static boolean passesThrough(RewindException e) {
        return e.errorClass() == ErrorClass.ABORTED;
    }

    static MPIException convert(RewindException e) {
        int c = e.errorClass().code();
        return new MPIException(c, e.getMessage(), e);
    }

    /**
     * Applies {@code handler} to a failure: returns the exception to throw (errors return), or
     * aborts the job (errors are fatal) and never returns normally.
     */
    static MPIException handle(Errhandler handler, MPIException e) {
        if (handler != null && handler.fatal) {
            RankContext ctx = RankContext.of(MPI.class);
            ctx.abort(e.getErrorClass() == 0 ? 1 : e.getErrorClass(), "MPI_ERRORS_ARE_FATAL: " + e.getMessage());
            ctx.engine().checkAlive();
            throw new IllegalStateException("job abort did not stop rank " + ctx.rank(), e);
        }
        return e;
    }

    /** Rethrows unchecked runtime conditions that must not be converted; converts the rest. */
    static MPIException convertOrRethrow(RewindException e) {
        if (passesThrough(e)) {
            throw e;
        }
        return convert(e);
    }
}
