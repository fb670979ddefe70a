package io.rewind.engine;

/**
 * MPI error classes, with the numeric values Open MPI uses, so that {@code MPIException.getErrorClass()}
 * gives programs the numbers they already compare against.
 */
public enum ErrorClass {
    SUCCESS(0),
    BUFFER(1),
    COUNT(2),
    TYPE(3),
    TAG(4),
    COMM(5),
    RANK(6),
    REQUEST(7),
    ROOT(8),
    GROUP(9),
    OP(10),
    TOPOLOGY(11),
    DIMS(12),
    ARG(13),
    UNKNOWN(14),
    TRUNCATE(15),
    OTHER(16),
    INTERN(17),
    IN_STATUS(18),
    PENDING(19),
    /** The job was aborted (by {@code Comm.abort}, a fatal error handler, or an unrecoverable failure). */
    ABORTED(53),
    /** A peer process failed and the protocol in force cannot mask it. */
    PROC_FAILED(75),
    /** A receive of any source could have been satisfied by a failed peer (ULFM); the request stays posted. */
    PROC_FAILED_PENDING(76),
    /** The communicator was revoked (ULFM). */
    REVOKED(77);

    private final int code;

    ErrorClass(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static ErrorClass ofCode(int code) {
        for (ErrorClass c : values()) {
            if (c.code == code) {
                return c;
            }
        }
        return UNKNOWN;
    }
}
