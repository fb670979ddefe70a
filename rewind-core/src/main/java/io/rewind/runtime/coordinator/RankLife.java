package io.rewind.runtime.coordinator;

/**
 * Where one rank's current incarnation is in its life, as the coordinator sees it. The one way a rank
 * moves between these is {@link RankRecord#transition}, which refuses a move this table does not allow.
 */
public enum RankLife {
    /** Asked of its host; not yet reachable by its peers. */
    STARTING,
    /** Reachable; waits until every peer knows where (a host whose ranks are reachable at once skips it). */
    READY,
    /** Running the program. */
    RUNNING,
    /** Its program ended; it serves its peers until the job is over. */
    ENDED,
    /** Being stopped, for a rollback. */
    STOPPING,
    /** Gone before the job was over (crashed, or stopped): to be started again. */
    DOWN,
    /** Gone with the job. */
    EXITED;

    /** Whether the incarnation still exists (a process, a thread) and may say something. */
    public boolean exists() {
        return this == STARTING || this == READY || this == RUNNING || this == ENDED || this == STOPPING;
    }

    /** Whether its peers can reach it. */
    public boolean reachable() {
        return this == READY || this == RUNNING || this == ENDED;
    }

    boolean canMoveTo(RankLife next) {
        return switch (this) {
            case STARTING -> next == READY || next == RUNNING || next == DOWN || next == STOPPING || next == EXITED;
            case READY -> next == RUNNING || next == DOWN || next == STOPPING || next == EXITED;
            case RUNNING -> next == ENDED || next == DOWN || next == STOPPING || next == EXITED;
            case ENDED -> next == DOWN || next == STOPPING || next == EXITED;
            case STOPPING -> next == DOWN || next == EXITED;
            case DOWN -> next == STARTING;
            case EXITED -> false;
        };
    }
}
