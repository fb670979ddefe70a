package io.rewind.engine;

/**
 * The one unchecked exception of the runtime. Every failure carries an MPI error class; the
 * {@code mpi} facade turns it into the checked {@code MPIException} programs expect.
 */
public class RewindException extends RuntimeException {
    private final ErrorClass errorClass;

    public RewindException(ErrorClass errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    public RewindException(ErrorClass errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    public ErrorClass errorClass() {
        return errorClass;
    }

    public static RewindException of(ErrorClass errorClass, String format, Object... args) {
        return new RewindException(errorClass, String.format(format, args));
    }
}
