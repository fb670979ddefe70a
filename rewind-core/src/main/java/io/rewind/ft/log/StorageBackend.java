package io.rewind.ft.log;

/** Where logged payloads live. */
public enum StorageBackend {
    /** Off-heap memory in fixed-size blocks, returned to the system (or kept as spares) when obsolete. */
    OFF_HEAP,
    /** A file mapped through a moving window; the log does not take application memory. */
    MAPPED_FILE,
    /**
     * One reused area that every message overwrites. Keeps nothing: it exists to measure the cost of
     * the copy alone, without page faults and cache misses of a growing log.
     */
    DUMMY,
    /**
     * Off-heap memory first; messages of at least {@code mappedFileThresholdBytes}, and every message
     * once off-heap storage reaches {@code offHeapLimitBytes}, go to the mapped file.
     */
    HYBRID
}
