package io.rewind.tools.report;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The run record the runtime writes and `rewind report` plots: format {@code rewind-run-record}
 * version 1, specified in {@code docs/formats.md}. Only the parts the report draws are defined;
 * unknown fields are ignored so the runtime can add more without breaking older tools.
 *
 * @param format             always {@code "rewind-run-record"}
 * @param version            1
 * @param application        what ran
 * @param protocol           fault-tolerance protocol of this run
 * @param ranks              world size
 * @param logSamples         per-rank payload-log size (and memory, in newer records) over time, samples
 *                           in time order
 * @param recovery           recovery phases, one entry per (rank, phase)
 * @param protocolComparison one row per protocol compared (may be empty)
 * @param loggerNodes        the logger nodes' figures of a run with {@code --loggers}, or null; only
 *                           their log quota is read
 * @param logQuotaBytes      the log quota of a run under {@code mcml} (which has it at the top level),
 *                           or null
 * @param logReserveBytes    the memory each rank's log faulted in when it opened ({@code --log-reserve}),
 *                           or null without one
 * @param failures           each failure the run recovered from: the failed rank and every rank the
 *                           recovery rolled back (empty in records without them)
 * @param clusterOf          the cluster of each rank, indexed by rank, for a protocol that checkpoints by
 *                           clusters; null otherwise
 * @param sentBytes          payload bytes the ranks sent, or null in older records
 * @param loggedBytes        payload bytes the ranks logged, or null in older records
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunRecord(
        String format,
        int version,
        String application,
        String protocol,
        int ranks,
        List<LogSample> logSamples,
        List<RecoveryPhase> recovery,
        List<ProtocolRow> protocolComparison,
        LoggerNodes loggerNodes,
        Long logQuotaBytes,
        Long logReserveBytes,
        List<Failure> failures,
        int[] clusterOf,
        Long sentBytes,
        Long loggedBytes) {

    public static final String FORMAT = "rewind-run-record";

    public RunRecord {
        logSamples = logSamples == null ? List.of() : List.copyOf(logSamples);
        recovery = recovery == null ? List.of() : List.copyOf(recovery);
        protocolComparison = protocolComparison == null ? List.of() : List.copyOf(protocolComparison);
        failures = failures == null ? List.of() : List.copyOf(failures);
    }

    /**
     * @param rank       the rank that failed
     * @param line       the recovery line restored (0: from the beginning)
     * @param rolledBack every rank the recovery rolled back, the failed rank included
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Failure(int rank, long line, List<Integer> rolledBack) {
        public Failure {
            rolledBack = rolledBack == null ? List.of() : List.copyOf(rolledBack);
        }
    }

    /**
     * @param timeMs         milliseconds since the start of the run
     * @param logBytes       payload bytes held in each rank's log at that time, indexed by rank
     * @param logMemoryBytes memory each rank's log took at that time (blocks in use, spare and
     *                       prepared ahead), indexed by rank; null in records written before it was
     *                       sampled
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record LogSample(double timeMs, long[] logBytes, long[] logMemoryBytes) {}

    /**
     * The most payload a rank's log was allowed to hold, when the run had one: the logger nodes'
     * quota, or else mcml's; null without a quota.
     */
    public Long quotaBytes() {
        if (loggerNodes != null && loggerNodes.logQuotaBytes() != null) {
            return loggerNodes.logQuotaBytes();
        }
        return logQuotaBytes;
    }

    /** @param logQuotaBytes the quota each rank's log was kept under by dumping to the logger nodes */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record LoggerNodes(Long logQuotaBytes) {}

    /** Whether every log sample has the memory figures (records written since they are sampled). */
    public boolean hasLogMemory() {
        return !logSamples.isEmpty() && logSamples.stream().allMatch(s -> s.logMemoryBytes() != null);
    }

    /**
     * @param rank    the rank recovering (restarted or rolled back)
     * @param phase   one of detect, respawn, restore, replay, catch-up (others are drawn too)
     * @param startMs start, milliseconds since the start of the run
     * @param endMs   end, not before {@code startMs}
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record RecoveryPhase(int rank, String phase, double startMs, double endMs) {}

    /**
     * Any metric may be null when not measured.
     *
     * @param protocol                   none, global, pessimistic, causal, mcml, spbc ...
     * @param failureFreeOverheadPercent slowdown without failures versus no fault tolerance
     * @param maxLogBytes                largest per-rank log reached
     * @param recoveryMs                 time from failure detection to catch-up
     * @param rolledBackRanks            ranks that rolled back after the failure
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ProtocolRow(
            String protocol,
            Double failureFreeOverheadPercent,
            Long maxLogBytes,
            Double recoveryMs,
            Double rolledBackRanks) {}
}
