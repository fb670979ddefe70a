package io.rewind.engine;

/** The completion functions and probes whose outcome depends on timing, so is logged and replayed. */
public enum PollKind {
    /** One request: complete or not. */
    TEST,
    /** The lowest-indexed complete request, or none. */
    TEST_ANY,
    /** All requests if all are complete, else none. */
    TEST_ALL,
    /** Every complete request (possibly none). */
    TEST_SOME,
    /** Blocks for one complete request. */
    WAIT_ANY,
    /** Blocks for at least one, then every complete request. */
    WAIT_SOME;

    boolean blocks() {
        return this == WAIT_ANY || this == WAIT_SOME;
    }
}
