package mpi;

/**
 * An error handler: {@link MPI#ERRORS_RETURN} (the default: errors are thrown as
 * {@link MPIException}) or {@link MPI#ERRORS_ARE_FATAL} (an error aborts the whole job).
 */
public final class Errhandler {
    final boolean fatal;

    Errhandler(boolean fatal) {
        this.fatal = fatal;
    }

    @Override
    public String toString() {
        return fatal ? "MPI_ERRORS_ARE_FATAL" : "MPI_ERRORS_RETURN";
    }
}
