package io.rewind.runtime;

/**
 * Where the recovery of one failure stands, in the order it goes through. A failure record enters
 * each at most once, forward only, and keeps when it did ({@code RunReport.FailureRecord#enter}); the
 * time between two consecutive phases is what the report calls detect, respawn, restore and replay.
 */
public enum RecoveryPhase {
    /** The rank was struck. */
    KILLED,
    /** The coordinator noticed (the rank's thread ended with the kill). */
    DETECTED,
    /** Its new incarnation exists and runs. */
    RESPAWNED,
    /** The new incarnation has loaded its recovery line (at once for a restart from the beginning). */
    RESTORED,
    /** The new incarnation is back where the rank crashed. */
    CAUGHT_UP;

    /** The name of the span that ends when this phase is entered, as in run records; null for the first. */
    String spanName() {
        return switch (this) {
            case KILLED -> null;
            case DETECTED -> "detect";
            case RESPAWNED -> "respawn";
            case RESTORED -> "restore";
            case CAUGHT_UP -> "replay";
        };
    }
}
