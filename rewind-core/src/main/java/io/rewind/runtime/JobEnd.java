package io.rewind.runtime;

import io.rewind.ft.Protocol;
import io.rewind.ft.logger.LoggerNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a job ends, whatever hosts its ranks (threads of this JVM, or processes): the protocol's
 * figures in the report, the exit status as {@code mpirun} gives it, the report built and written to
 * the run record, the result.
 */
public final class JobEnd {
    private JobEnd() {}

    /**
     * The protocol's figures for the report, with those of the job's logger nodes ({@code loggers}: their
     * run record; null when the job has none).
     */
    public static void protocolFigures(RunReport.Builder report, Protocol protocol, Map<String, Object> loggers) {
        if (loggers == null) {
            report.protocolFigures(protocol.runRecord(), protocol.summary());
            return;
        }
        Map<String, Object> merged = new LinkedHashMap<>(protocol.runRecord());
        merged.put("loggerNodes", loggers);
        List<String> summary = new ArrayList<>(protocol.summary());
        summary.addAll(LoggerNodes.summary(loggers));
        report.protocolFigures(merged, summary);
    }

    /**
     * The job's result: exit status 0, 1 if a rank did not end well, the abort's error code (1 for 0)
     * if it was aborted ({@code abortReason} not null), 124 at the time limit. The report is built with
     * the wall time since {@code startNanos} and written to the run record if the job keeps one.
     */
    public static JobResult result(
            JobConfig config,
            RunReport.Builder report,
            RunRecordWriter record,
            long startNanos,
            List<RankOutcome> outcomes,
            List<List<String>> output,
            String abortReason,
            int abortCode,
            boolean timedOut) {
        int exit = 0;
        for (RankOutcome o : outcomes) {
            if (!o.ok()) {
                exit = 1;
            }
        }
        if (abortReason != null) {
            exit = abortCode != 0 ? abortCode : 1;
        }
        if (timedOut) {
            exit = 124;
        }
        Duration wall = Duration.ofNanos(System.nanoTime() - startNanos);
        RunReport built = report.build(wall);
        if (config.recordFile() != null) {
            record.write(config.recordFile(), built);
        }
        return new JobResult(exit, List.copyOf(outcomes), List.copyOf(output), wall, abortReason, built);
    }
}
