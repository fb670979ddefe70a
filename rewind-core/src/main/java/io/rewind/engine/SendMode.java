package io.rewind.engine;

/** MPI's send modes. */
public enum SendMode {
    /** May complete before the receive is posted (eager) or wait for it (rendezvous), by size. */
    STANDARD,
    /** Completes locally: the payload is copied out at once. */
    BUFFERED,
    /** Completes only once the matching receive has started. */
    SYNCHRONOUS,
    /** The program promises the receive is posted; treated as standard. */
    READY
}
