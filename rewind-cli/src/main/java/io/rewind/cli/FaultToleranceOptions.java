package io.rewind.cli;

import io.rewind.ft.Capability;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/** The fault-tolerance options shared by the commands that launch jobs. */
final class FaultToleranceOptions {
    @Option(
            names = "--protocol",
            paramLabel = "NAME",
            defaultValue = "none",
            completionCandidates = ProtocolsCommand.Names.class,
            description = "Fault tolerance, one of ${COMPLETION-CANDIDATES} (what each costs: rewind protocols). "
                    + "Default: ${DEFAULT-VALUE}.")
    String protocol;

    /**
     * The values of the options protocols declare, by name, as typed: {@link ProtocolOptionsCli} adds
     * those options to the command and fills this.
     */
    final Map<String, String> protocolOptionValues = new LinkedHashMap<>();

    @Option(
            names = "--log-quota",
            paramLabel = "SIZE",
            description = "The most payload a rank's log may hold in memory (for example 64MiB). With --loggers the "
                    + "rank dumps the oldest part of its log to a logger node before it gets there; a protocol that "
                    + "bounds its log by itself (bounds-log in 'rewind protocols') logs less instead, without "
                    + "loggers or when every logger is full. Default: no quota.")
    String logQuota;

    @Option(
            names = "--loggers",
            paramLabel = "K",
            defaultValue = "0",
            description = "Logger nodes that hold what the ranks' logs dump to stay under --log-quota (protocols "
                    + "that log payloads: logs-payloads in 'rewind protocols'). They are not application ranks. "
                    + "Default: ${DEFAULT-VALUE} (none).")
    int loggers;

    @Option(
            names = "--logger-memory",
            paramLabel = "SIZE",
            description = "What one logger node accepts in all; a full logger declines dumps and the rank asks the "
                    + "next. Default: no limit.")
    String loggerMemory;

    @Option(
            names = "--logger-replicas",
            paramLabel = "N",
            description = "Loggers every dump goes to, 1 or 2: with 2, the death of one logger loses nothing. "
                    + "Default: 1.")
    Integer loggerReplicas;

    @Option(
            names = "--dump-alpha",
            paramLabel = "SECONDS",
            description = "A proactive dump takes this many seconds of the log's measured growth (within an eighth "
                    + "and half of the quota). Default: 0.5.")
    Double dumpAlpha;

    @Option(
            names = "--logger-dir",
            paramLabel = "DIR",
            description =
                    "Logger nodes keep what ranks dump as files in DIR (logger i in DIR/logger-i, a path valid on "
                            + "the loggers' hosts); --logger-memory is then the disk each may use. Default: in memory.")
    Path loggerDir;

    @Option(
            names = "--logger-hosts",
            split = ",",
            paramLabel = "HOST[,HOST...]",
            description = "With --launch ssh or slurm, the hosts the logger processes run on, in turn. Default: the "
                    + "last nodes of the hostfile or allocation.")
    java.util.List<String> loggerHosts;

    @Option(
            names = "--kill-logger",
            paramLabel = "LOGGER@DUMP[,...]",
            description =
                    "Kill logger nodes, each when asked for its n-th dump (e.g. 0@3): what it alone held is lost, "
                            + "and its senders roll back with a rank that needs it.")
    String killLogger;

    @Option(
            names = "--on-failure",
            paramLabel = "MODE",
            defaultValue = "recover",
            description = "What the job does when a rank fails. recover (the default): the protocol restores it and "
                    + "the program never learns of it. notify: nothing rolls back; the survivors are told, as ULFM "
                    + "has it (an MPIException of class Ulfm.ERR_PROC_FAILED), and the program revokes, shrinks, "
                    + "agrees or replaces through io.rewind.api.Ulfm. Notify runs no protocol beside it "
                    + "(docs/fault-tolerance.md says when to use which).")
    String onFailure;

    @Option(
            names = "--spares",
            paramLabel = "K",
            description = "With --on-failure notify, the replacements the job may make (Ulfm.replace) over its whole "
                    + "run; once they are used, a replacement shrinks the communicator instead, with a warning. "
                    + "Default: as many as asked for.")
    Integer spares;

    @Option(
            names = "--checkpoint-every",
            paramLabel = "N",
            defaultValue = "10",
            description = "Write a checkpoint at every N-th Checkpointer.point() call (0: never). Default: "
                    + "${DEFAULT-VALUE}.")
    int checkpointEvery;

    @Option(
            names = "--keep-lines",
            paramLabel = "L",
            defaultValue = "2",
            description = "Recovery lines kept (and logs for them). Default: ${DEFAULT-VALUE}.")
    int keepLines;

    @Option(
            names = "--checkpoint-dir",
            paramLabel = "DIR",
            description = "Where checkpoints go: one folder every rank sees (with ranks as processes on several "
                    + "hosts, a shared folder). A new run removes the checkpoints an earlier run left there; "
                    + "--resume continues that run instead. Default: a temporary folder removed after the job "
                    + "(with ranks as processes: a folder of each node's own, every line copied to a partner "
                    + "node).")
    Path checkpointDir;

    @Option(
            names = "--resume",
            description = "Continue a job that died whole (its launcher, or every process) from the newest "
                    + "recovery line all its ranks hold in --checkpoint-dir; the same program, arguments and "
                    + "number of ranks are required.")
    boolean resume;

    @Option(
            names = "--kill",
            paramLabel = "RANK@WHEN[,...]",
            description = "Crash ranks: RANK@ITERATION (at that Checkpointer.point() call), RANK@tTIME (that long "
                    + "after the start: t1500 is milliseconds, or with a unit as t300ms, t2s, t1m), RANK@cN (while writing checkpoint N), RANK@oN (at the rank's N-th MPI "
                    + "operation: a send, a receive, a wait, a probe, also inside a collective; any program, "
                    + "no Rewind API needed). Example: 2@50,0@t2s,1@o300.")
    String kill;

    @Option(
            names = "--chaos",
            paramLabel = "SEED",
            description = "Crash one to three ranks at random iterations drawn from SEED (reproducible).")
    Long chaos;

    @Option(
            names = "--chaos-span",
            paramLabel = "ITERATIONS",
            defaultValue = "50",
            description = "Iterations over which --chaos spreads its crashes. Default: ${DEFAULT-VALUE}.")
    int chaosSpan;

    @Option(
            names = "--log-backend",
            paramLabel = "NAME",
            defaultValue = "off-heap",
            description = "Payload log storage: off-heap, mapped-file, hybrid (off-heap, large messages to the "
                    + "file), dummy (one reused area: measures the copy alone; cannot replay). Default: "
                    + "${DEFAULT-VALUE}.")
    String logBackend;

    @Option(
            names = "--log-copy",
            paramLabel = "METHOD",
            defaultValue = "hybrid",
            description = "Payload log copy method: hybrid (chosen by size), pack, pipelined, helper. Default: "
                    + "${DEFAULT-VALUE}.")
    String logCopy;

    @Option(
            names = "--log-huge-pages",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Map off-heap log blocks for transparent huge pages where Linux allows it (fewer TLB "
                    + "misses when copying into a large log); --no-log-huge-pages uses small pages. Default: on.")
    boolean logHugePages;

    @Option(
            names = "--log-prepare-ahead",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description =
                    "Fault off-heap log blocks in ahead of the writer on a background thread once a log holds more "
                            + "than two blocks (a growing log then writes into memory already touched); "
                            + "--no-log-prepare-ahead leaves each block to be faulted in by its first writes. Default: on.")
    boolean logPrepareAhead;

    @Option(
            names = "--verify-replays",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Give every logged message a digest of its identity and payload, kept by its receiver and "
                    + "in the sender's log: after a crash each replayed message, and each send a restarted rank "
                    + "re-executes that its receiver already holds, is checked against it, and a mismatch ends the "
                    + "job with one line naming the protocol, the channel and the sequence number (a program that "
                    + "is not piecewise deterministic, or a fault of the protocol). --no-verify-replays leaves the "
                    + "digests out. Default: on.")
    boolean verifyReplays;

    @Option(
            names = "--log-reserve",
            paramLabel = "SIZE",
            description = "Off-heap memory each rank's payload log faults in when it opens and keeps (e.g. 512MiB): "
                    + "a log that grows that much between two checkpoints (see rewind plan) then never waits for new "
                    + "memory. The job start pays for it. Backends off-heap and hybrid. Default: none.")
    String logReserve;

    @Option(
            names = "--collective-logging",
            paramLabel = "LEVEL",
            defaultValue = "application",
            description = "How a logging protocol logs collectives: application (rooted algorithms, each contribution "
                    + "and result logged once) or internal (every message of the tree algorithms, for comparison). "
                    + "Default: ${DEFAULT-VALUE}.")
    String collectiveLogging;

    @Option(
            names = "--log-dir",
            paramLabel = "DIR",
            description = "Folder for mapped-file logs (default: the system's temporary folder).")
    Path logDir;

    /** Applies the options; throws IllegalArgumentException with a message for the user. */
    void applyTo(JobConfig.Builder b, int ranks) {
        ProtocolDescriptor chosen = ProtocolRegistry.get(protocol);
        for (Map.Entry<String, String> given : protocolOptionValues.entrySet()) {
            if (chosen.option(given.getKey()) == null) {
                throw new IllegalArgumentException(given.getKey() + " is for "
                        + ProtocolOptionsCli.owners(given.getKey()) + ", not for " + chosen.name());
            }
            // Read and checked against the job by the protocol's descriptor when the job is built.
            b.option(given.getKey(), given.getValue());
        }
        if (checkpointEvery < 0) {
            throw new IllegalArgumentException(
                    "--checkpoint-every " + checkpointEvery + ": must be 0 (no checkpoints) or more");
        }
        if (keepLines < 1) {
            throw new IllegalArgumentException("--keep-lines " + keepLines + ": must be 1 or more");
        }
        io.rewind.runtime.OnFailure mode = io.rewind.runtime.OnFailure.parse(onFailure);
        if (spares != null && spares < 0) {
            throw new IllegalArgumentException("--spares " + spares + ": must be 0 or more");
        }
        b.onFailure(mode).spares(spares == null ? -1 : spares);
        b.protocol(chosen)
                .checkpointEvery(checkpointEvery)
                .keepLines(keepLines)
                .checkpointDir(checkpointDir)
                .resume(resume);
        if (kill != null && chaos != null) {
            throw new IllegalArgumentException("--kill and --chaos cannot be combined");
        }
        if (kill != null) {
            b.failures(FailureSchedule.parse(kill, ranks));
        } else if (chaos != null) {
            if (chaosSpan < 2) {
                throw new IllegalArgumentException("--chaos-span must be at least 2");
            }
            b.failures(FailureSchedule.chaos(chaos, ranks, chaosSpan));
        }
        PayloadLogConfig log = payloadLog();
        if (logReserve != null && !chosen.has(Capability.LOGS_PAYLOADS)) {
            throw new IllegalArgumentException("--log-reserve is memory for a payload log, and " + chosen.name()
                    + " logs no payloads: use " + ProtocolRegistry.namesWith(Capability.LOGS_PAYLOADS));
        }
        boolean boundsLog = chosen.has(Capability.BOUNDS_LOG);
        if (logQuota != null && !boundsLog && loggers == 0) {
            throw new IllegalArgumentException("--log-quota needs --loggers K (logger nodes that take what the log "
                    + "dumps) or a protocol that bounds its log by itself ("
                    + ProtocolRegistry.namesWith(Capability.BOUNDS_LOG) + ")");
        }
        applyLoggers(b, chosen);
        if (boundsLog && logQuota == null) {
            throw new IllegalArgumentException(
                    "--protocol " + chosen.name() + " needs --log-quota SIZE (the most a rank's log may hold)");
        }
        if (logQuota != null) {
            // Below a kilobyte a quota holds no message worth the name: every channel would go off at once.
            double quota = size("--log-quota", logQuota, 1024);
            if (boundsLog) {
                log = log.toBuilder().quotaBytes((long) quota).build();
            }
        }
        b.payloadLog(log);
        switch (collectiveLogging.trim().toLowerCase(Locale.ROOT)) {
            case "application" -> b.applicationLevelCollectives(true);
            case "internal" -> b.applicationLevelCollectives(false);
            default -> throw new IllegalArgumentException(
                    "unknown collective logging '" + collectiveLogging + "' (use application or internal)");
        }
    }

    /** Logger nodes: {@code --loggers} and the options that only mean something with it. */
    private void applyLoggers(JobConfig.Builder b, ProtocolDescriptor chosen) {
        if (loggers < 0) {
            throw new IllegalArgumentException("--loggers must be 0 or more, was " + loggers);
        }
        if (loggers == 0) {
            for (String[] given : new String[][] {
                {"--logger-memory", loggerMemory},
                {"--logger-replicas", loggerReplicas == null ? null : "set"},
                {"--dump-alpha", dumpAlpha == null ? null : "set"},
                {"--kill-logger", killLogger},
                {"--logger-hosts", loggerHosts == null ? null : "set"},
                {"--logger-dir", loggerDir == null ? null : "set"}
            }) {
                if (given[1] != null) {
                    throw new IllegalArgumentException(given[0] + " needs --loggers K");
                }
            }
            return;
        }
        if (!chosen.has(Capability.LOGS_PAYLOADS)) {
            throw new IllegalArgumentException("--loggers holds payload logs, and " + chosen.name() + " logs none: use "
                    + ProtocolRegistry.namesWith(Capability.LOGS_PAYLOADS));
        }
        if (logQuota == null) {
            throw new IllegalArgumentException(
                    "--loggers needs --log-quota SIZE (the most a rank's log may hold before it dumps)");
        }
        io.rewind.ft.logger.LoggerConfig c =
                io.rewind.ft.logger.LoggerConfig.of(loggers, (long) size("--log-quota", logQuota));
        if (loggerMemory != null) {
            c = c.withCapacity((long) size("--logger-memory", loggerMemory, 64 * 1024));
        }
        if (loggerReplicas != null) {
            c = c.withReplicas(loggerReplicas);
        }
        if (dumpAlpha != null) {
            c = c.withAlpha(dumpAlpha);
        }
        if (killLogger != null) {
            c = c.withKills(io.rewind.ft.logger.LoggerConfig.Kill.parse(killLogger));
        }
        if (loggerHosts != null) {
            c = c.withHosts(loggerHosts);
        }
        if (loggerDir != null) {
            requireWritableFolder("--logger-dir", loggerDir);
            c = c.withFolder(loggerDir.toAbsolutePath().toString());
        }
        b.loggers(c);
    }

    /**
     * A size option's bytes (64KiB, 1MiB, 65536), refused in one line when it is none or below
     * {@code least} bytes.
     */
    static double size(String option, String text, long least) {
        double bytes = size(option, text);
        if (bytes < least) {
            throw new IllegalArgumentException(option + " " + text + ": must be at least " + readable(least));
        }
        return bytes;
    }

    private static String readable(long bytes) {
        return bytes >= 1 << 20 && bytes % (1 << 20) == 0
                ? (bytes >> 20) + "MiB"
                : bytes >= 1024 && bytes % 1024 == 0 ? (bytes >> 10) + "KiB" : bytes + " bytes";
    }

    static double size(String option, String text) {
        double bytes;
        try {
            bytes = new io.rewind.cli.tools.ByteSizeConverter().convert(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(option + " " + text + ": " + e.getMessage(), e);
        }
        if (!(bytes >= 1) || bytes >= Long.MAX_VALUE) {
            throw new IllegalArgumentException(option + " " + text + ": must be at least 1 byte");
        }
        return bytes;
    }

    /** Refuses a log folder that cannot hold files now, rather than failing every rank's first send. */
    private static void requireWritableFolder(Path dir) {
        requireWritableFolder("--log-dir", dir);
    }

    private static void requireWritableFolder(String option, Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException | SecurityException e) {
            throw new IllegalArgumentException(option + " " + dir + ": cannot create the folder (" + e + ")");
        }
        if (!Files.isWritable(dir)) {
            throw new IllegalArgumentException(option + " " + dir + ": the folder is not writable");
        }
    }

    PayloadLogConfig payloadLog() {
        PayloadLogConfig.Builder c = LogChoices.config(logBackend, logCopy);
        StorageBackend backend = LogChoices.backend(logBackend);
        if (logDir != null && (backend == StorageBackend.MAPPED_FILE || backend == StorageBackend.HYBRID)) {
            requireWritableFolder(logDir);
        }
        // File-backed logs are temporary files, deleted when the log closes; without --log-dir they go
        // to the system's temporary folder, as the option says.
        if (logReserve != null && backend != StorageBackend.OFF_HEAP && backend != StorageBackend.HYBRID) {
            throw new IllegalArgumentException("--log-reserve is memory for off-heap log blocks, and --log-backend "
                    + logBackend + " has none: use off-heap or hybrid");
        }
        return c.hugePages(logHugePages)
                .prepareAhead(logPrepareAhead)
                .verifyReplays(verifyReplays)
                .reserveBytes(logReserve == null ? 0 : (long) size("--log-reserve", logReserve))
                .mappedDirectory(logDir != null ? logDir : Path.of(System.getProperty("java.io.tmpdir")))
                .build();
    }
}
