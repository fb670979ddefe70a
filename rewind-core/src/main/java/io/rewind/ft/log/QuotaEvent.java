package io.rewind.ft.log;

/**
 * The log holds more payload than its quota after an append.
 *
 * @param rank the rank owning the log
 * @param payloadBytes payload bytes held after the append
 * @param quotaBytes the configured quota
 * @param storageBytes storage in use for those payloads (whole blocks or windows)
 * @param appended the message whose append produced this event
 * @param firstCrossing true for the append that went from at or under the quota to over it; later
 *     appends while still over the quota report false
 */
public record QuotaEvent(
        int rank, long payloadBytes, long quotaBytes, long storageBytes, MessageKey appended, boolean firstCrossing) {

    /** How far over the quota the log is. */
    public long excessBytes() {
        return payloadBytes - quotaBytes;
    }
}
