package io.rewind.tools.analysis;

/**
 * What counts as a rank's communication load. {@link #SENT} is the default because under
 * sender-based payload logging the bytes a rank sends are what its message log must hold.
 */
public enum LoadKind {
    SENT,
    RECEIVED,
    /** Sent plus received. */
    TOTAL
}
