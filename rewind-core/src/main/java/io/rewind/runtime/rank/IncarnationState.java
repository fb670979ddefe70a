package io.rewind.runtime.rank;

/**
 * The life of one incarnation of a rank. Moves only forward, by {@link Incarnation#transition},
 * which records when and why:
 *
 * <pre>
 *   STARTING --> RUNNING --> FINISHED
 *       \           |           |
 *        \          v           v
 *         `-----> KILLED <------'        (a crash, or stopped for a rollback)
 *                   |
 *   any state ---> RETIRED                (its queues, endpoint and log released)
 * </pre>
 */
enum IncarnationState {
    /** Prepared (engine, queues, endpoint) and its thread created, not started. */
    STARTING,
    /** Its thread runs the program. */
    RUNNING,
    /** Its program returned; it stays up serving its peers until the job ends. */
    FINISHED,
    /** Struck: crashed, or stopped so that a rollback can restart it. Its thread stops at its next call. */
    KILLED,
    /** Released by the coordinator; nothing of it is used again. */
    RETIRED;

    /** Whether an incarnation in this state may move to {@code next}. */
    boolean canMoveTo(IncarnationState next) {
        return switch (this) {
            case STARTING -> next == RUNNING || next == KILLED || next == RETIRED;
            case RUNNING -> next == FINISHED || next == KILLED || next == RETIRED;
            case FINISHED -> next == KILLED || next == RETIRED;
            case KILLED -> next == RETIRED;
            case RETIRED -> false;
        };
    }

    /** Whether its threads must stop: it was killed or retired. */
    boolean stopped() {
        return this == KILLED || this == RETIRED;
    }
}
