package io.rewind.ft;

/**
 * What a protocol does, as the runtime, the launchers and the command line ask it: they branch on
 * these, never on a protocol's name. A protocol's {@link ProtocolDescriptor} declares them; the first
 * five also answer the {@link Protocol} methods of the same meaning, which the runtime asks of the
 * instance it holds.
 */
public enum Capability {
    /** A crash can be recovered; without it, a crash aborts the job ({@link Protocol#recovers}). */
    RECOVERS("recovers from crashes"),
    /** Checkpoint points write checkpoints ({@link Protocol#checkpoints}). */
    CHECKPOINTS("writes checkpoints"),
    /** Senders keep payloads for replay ({@link Protocol#logsPayloads}): payload log and logger options apply. */
    LOGS_PAYLOADS("logs payloads at the sender"),
    /** Ranks record determinants at the job's event logger, which then has to run ({@link Protocol#logsDeterminants}). */
    LOGS_DETERMINANTS("records determinants at the event logger"),
    /** The ranks are partitioned into clusters ({@link Protocol#usesClusters}). */
    USES_CLUSTERS("partitions the ranks into clusters"),
    /**
     * The protocol keeps each rank's payload log under a quota by itself (by logging less), so a job of
     * it needs a quota: {@code --log-quota} on the command line, {@link ProtocolDescriptor#defaultLogQuotaBytes}
     * for a job built in code.
     */
    BOUNDS_LOG("keeps each rank's log under --log-quota by itself");

    private final String description;

    Capability(String description) {
        this.description = description;
    }

    /** A few words for listings ({@code rewind protocols}). */
    public String description() {
        return description;
    }

    /** The name in listings: lower case with dashes. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
