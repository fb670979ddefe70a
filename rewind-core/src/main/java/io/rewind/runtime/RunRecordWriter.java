package io.rewind.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the JSON run record {@code rewind report --run} plots (format {@code rewind-run-record}
 * version 1, docs/formats.md): what ran, under which protocol, each rank's payload log over time (its
 * payload bytes and the memory it holds), and the phases of every recovery. Log samples are taken
 * while the job runs: by the coordinator of an in-JVM job from its ranks' protocols, by the launcher of
 * a job of processes from the latest figures each rank process reported.
 */
public final class RunRecordWriter {
    /** How often the coordinator samples the payload logs (and how often rank processes report them). */
    public static final long SAMPLE_EVERY_NANOS = 200_000_000L;

    private final JobConfig config;
    private final long originNanos;
    private final List<Map<String, Object>> samples = new ArrayList<>();

    public RunRecordWriter(JobConfig config, long originNanos) {
        this.config = config;
        this.originNanos = originNanos;
    }

    /**
     * Adds a sample: payload bytes held in each rank's log now, and the memory each rank's log holds
     * ({@code LogStatistics.memoryBytes()}: blocks in use, spare and prepared ahead), both indexed by rank.
     */
    public void sample(long nowNanos, long[] logBytes, long[] logMemoryBytes) {
        if (logBytes.length != config.ranks() || logMemoryBytes.length != config.ranks()) {
            throw new IllegalArgumentException("a log sample needs one figure per rank (" + config.ranks() + ")");
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("timeMs", (nowNanos - originNanos) / 1e6);
        s.put("logBytes", logBytes.clone());
        s.put("logMemoryBytes", logMemoryBytes.clone());
        samples.add(s);
    }

    /** Writes the record to {@code file} (its folder is created); a failure is reported, not thrown. */
    public void write(Path file, RunReport report) {
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("format", "rewind-run-record");
        record.put("version", 1);
        record.put(
                "application",
                (config.program().mainClass() + " "
                                + String.join(" ", config.program().args()))
                        .trim());
        record.put("protocol", config.faultTolerance().protocol().name());
        record.put("ranks", config.ranks());
        if (config.logging().payloadLog().reserveBytes() > 0 && report.loggedEntries() > 0) {
            record.put("logReserveBytes", config.logging().payloadLog().reserveBytes());
        }
        record.put("logSamples", samples);
        List<Map<String, Object>> recovery = new ArrayList<>();
        for (RunReport.FailureRecord f : report.failures()) {
            for (RunReport.FailureRecord.Phase p : f.phases(originNanos)) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("rank", f.rank());
                row.put("phase", p.name());
                row.put("startMs", p.startMs());
                row.put("endMs", p.endMs());
                recovery.add(row);
            }
        }
        record.put("recovery", recovery);
        List<Map<String, Object>> failures = new ArrayList<>();
        for (RunReport.FailureRecord f : report.failures()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("rank", f.rank());
            row.put("how", f.how());
            row.put("line", f.line());
            row.put("rolledBack", List.copyOf(f.rolledBack()));
            row.put("replayedFrames", f.replayedFrames());
            row.put("peakUnmatched", f.peakUnmatched());
            row.put("peakUnmatchedBytes", f.peakUnmatchedBytes());
            row.put("notes", f.notes());
            failures.add(row);
        }
        record.put("failures", failures);
        record.put("rankLoggedBytes", report.rankLoggedBytes().clone());
        record.put("rankSeconds", report.traffic().rankSeconds().clone());
        record.put("sentBytes", report.sentBytes());
        record.put("wallMs", report.wall().toNanos() / 1e6);
        record.put("checkpoints", report.checkpoints());
        record.put("loggedBytes", report.loggedBytes());
        record.put("collectiveLoggedBytes", report.collectiveLoggedBytes());
        record.put("determinantsMade", report.determinants().made());
        record.put("piggybackedMessages", report.determinants().carryingFrames());
        record.put("piggybackedBytes", report.determinants().piggybackBytes());
        record.put("sentMessages", report.sentMessages());
        record.putAll(report.protocolRecord());
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), record);
        } catch (IOException e) {
            System.err.println("rewind: could not write the run record " + file + ": " + e.getMessage());
        }
    }
}
