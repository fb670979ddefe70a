package io.rewind.launch;

import io.rewind.engine.EngineConfig;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings of a job as its rank processes need them, in a form that crosses a process boundary:
 * the launcher sends it, each rank process rebuilds the same {@link JobConfig} from it. What only the
 * launcher uses (where output goes, the run record, the kill schedule) is left out.
 */
record JobSpec(
        int ranks,
        String mainClass,
        List<String> args,
        List<String> classPath,
        long eagerLimitBytes,
        long timeoutMillis,
        long stopGraceMillis,
        String protocol,
        int checkpointEvery,
        int keepLines,
        boolean applicationLevelCollectives,
        java.util.Map<String, String> protocolOptions,
        PayloadLog payloadLog,
        Loggers loggers,
        boolean notifies)
        implements Serializable {

    /** The logger nodes' settings as a rank needs them (the kill schedule stays with the launcher). */
    record Loggers(int loggers, long quotaBytes, long capacityBytes, int replicas, double alphaSeconds)
            implements Serializable {}

    /** The payload log settings (a path as text). */
    record PayloadLog(
            StorageBackend backend,
            long blockBytes,
            int spareBlocks,
            long spareLimitBytes,
            long offHeapLimitBytes,
            String mappedDirectory,
            long mappedWindowBytes,
            long mappedFileLimitBytes,
            long quotaBytes,
            long pipelineThresholdBytes,
            long helperThreadThresholdBytes,
            long pipelineChunkBytes,
            long mappedFileThresholdBytes,
            boolean hugePages,
            boolean prepareAhead,
            long reserveBytes,
            boolean verifyReplays)
            implements Serializable {}

    static JobSpec of(JobConfig c) {
        List<String> cp = new ArrayList<>();
        for (Path p : c.program().classPath()) {
            cp.add(p.toAbsolutePath().toString());
        }
        PayloadLogConfig l = c.logging().payloadLog();
        return new JobSpec(
                c.ranks(),
                c.program().mainClass(),
                c.program().args(),
                cp,
                c.engine().eagerLimitBytes(),
                c.limits().timeout().toMillis(),
                c.limits().stopGrace().toMillis(),
                c.faultTolerance().protocol().name(),
                c.faultTolerance().checkpointEvery(),
                c.faultTolerance().keepLines(),
                c.logging().applicationLevelCollectives(),
                // The protocol's own options as text: the launcher neither reads nor changes them.
                new java.util.LinkedHashMap<>(
                        c.faultTolerance().protocolOptions().values()),
                new PayloadLog(
                        l.backend(),
                        l.blockBytes(),
                        l.spareBlocks(),
                        l.spareLimitBytes(),
                        l.offHeapLimitBytes(),
                        l.mappedDirectory() == null ? null : l.mappedDirectory().toString(),
                        l.mappedWindowBytes(),
                        l.mappedFileLimitBytes(),
                        l.quotaBytes(),
                        l.pipelineThresholdBytes(),
                        l.helperThreadThresholdBytes(),
                        l.pipelineChunkBytes(),
                        l.mappedFileThresholdBytes(),
                        l.hugePages(),
                        l.prepareAhead(),
                        l.reserveBytes(),
                        l.verifyReplays()),
                new Loggers(
                        c.logging().loggers().loggers(),
                        c.logging().loggers().quotaBytes(),
                        c.logging().loggers().capacityBytes(),
                        c.logging().loggers().replicas(),
                        c.logging().loggers().alphaSeconds()),
                c.faultTolerance().notifies());
    }

    /**
     * The job as a rank process runs it: output untagged (the launcher tags it), no kills of its own
     * yet, and a waiting rank waiting as {@code waiting} says (the job's eager limit kept).
     */
    JobConfig toConfig(EngineConfig waiting) {
        List<Path> cp = new ArrayList<>();
        for (String p : classPath) {
            cp.add(Path.of(p));
        }
        PayloadLog l = payloadLog;
        PayloadLogConfig log = new PayloadLogConfig(
                l.backend(),
                l.blockBytes(),
                l.spareBlocks(),
                l.spareLimitBytes(),
                l.offHeapLimitBytes(),
                l.mappedDirectory() == null ? null : Path.of(l.mappedDirectory()),
                l.mappedWindowBytes(),
                l.mappedFileLimitBytes(),
                l.quotaBytes(),
                l.pipelineThresholdBytes(),
                l.helperThreadThresholdBytes(),
                l.pipelineChunkBytes(),
                l.mappedFileThresholdBytes(),
                l.hugePages(),
                l.prepareAhead(),
                l.reserveBytes(),
                l.verifyReplays());
        return JobConfig.builder(mainClass)
                .ranks(ranks)
                .args(args)
                .classPath(cp)
                .engine(waiting.withEagerLimit(eagerLimitBytes))
                .timeout(Duration.ofMillis(timeoutMillis))
                .stopGrace(Duration.ofMillis(stopGraceMillis))
                .tagOutput(false)
                .protocol(protocol)
                .checkpointEvery(checkpointEvery)
                .onFailure(notifies ? io.rewind.runtime.OnFailure.NOTIFY : io.rewind.runtime.OnFailure.RECOVER)
                .keepLines(keepLines)
                .failures(FailureSchedule.NONE)
                .payloadLog(log)
                .applicationLevelCollectives(applicationLevelCollectives)
                .protocolOptions(new io.rewind.ft.ProtocolOptions(protocolOptions))
                .loggers(new io.rewind.ft.logger.LoggerConfig(
                        loggers.loggers(),
                        loggers.quotaBytes(),
                        loggers.capacityBytes(),
                        loggers.replicas(),
                        loggers.alphaSeconds(),
                        java.util.List.of()))
                .build();
    }
}
