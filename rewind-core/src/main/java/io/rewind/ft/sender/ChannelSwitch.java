package io.rewind.ft.sender;

/**
 * A quota on what a rank's payload log holds, kept by switching logging off on outgoing channels
 * (memory-constrained logging). Before a frame is logged, the rank asks {@link #nextOff} which
 * channel to switch off as long as the log would pass the quota; it tells the job ({@link #switchOff})
 * before it drops anything, and then drops that channel's entries. One per rank incarnation; called
 * under the rank's logging lock.
 */
public interface ChannelSwitch {
    /** The incarnation starts (before it asks its peers for anything, if it restarted). */
    default void started() {}

    /** The most payload bytes the log may hold ({@code Long.MAX_VALUE}: no quota). */
    long quotaBytes();

    /** Whether frames to {@code destinationWorld} are still logged. */
    boolean logs(int destinationWorld);

    /**
     * The destination whose channel goes off next, given the bytes the log holds for each destination
     * ({@code heldTo}); -1 if none is left to switch off.
     */
    int nextOff(long[] heldTo);

    /**
     * Switches the channel to {@code destinationWorld} off, known in incarnation {@code
     * destinationIncarnation}, once the job has taken it in; false if the job refused (that rank is
     * being recovered from a plan that counted on this log: logging goes on for now).
     */
    boolean switchOff(int destinationWorld, int destinationIncarnation);

    /**
     * The log is about to pass its quota by {@code excessBytes}: every channel it could switch off leads
     * to a rank being recovered from it. Tells the job (the run record counts these).
     */
    default void overQuota(long excessBytes) {}

    /** No quota: every channel logged. */
    ChannelSwitch NONE = new ChannelSwitch() {
        @Override
        public long quotaBytes() {
            return Long.MAX_VALUE;
        }

        @Override
        public boolean logs(int destinationWorld) {
            return true;
        }

        @Override
        public int nextOff(long[] heldTo) {
            return -1;
        }

        @Override
        public boolean switchOff(int destinationWorld, int destinationIncarnation) {
            return false;
        }
    };
}
