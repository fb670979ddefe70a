package mpi;

/**
 * The checked exception of every MPI call. {@link #getMessage()} is the error string
 * ({@code MPI_Error_string}); the error class has Open MPI's numeric value.
 */
public final class MPIException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int errorCode;
    private final int errorClass;

    protected MPIException(int code, int clazz, String message) {
        super(message);
        this.errorCode = code;
        this.errorClass = clazz;
    }

    MPIException(int clazz, String message, Throwable cause) {
        super(message, cause);
        this.errorCode = clazz;
        this.errorClass = clazz;
    }

    public MPIException(String message) {
        super(message);
        this.errorCode = MPI.ERR_OTHER;
        this.errorClass = MPI.ERR_OTHER;
    }

    public MPIException(Throwable cause) {
        super(cause);
        this.errorCode = MPI.ERR_OTHER;
        this.errorClass = MPI.ERR_OTHER;
    }

    /** The error code; Rewind reports the error class as the code. */
    public int getErrorCode() {
        return errorCode;
    }

    public int getErrorClass() {
        return errorClass;
    }
}
