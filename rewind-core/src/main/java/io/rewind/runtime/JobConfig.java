package io.rewind.runtime;

import io.rewind.engine.EngineConfig;
import io.rewind.ft.Capability;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolOptions;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.ft.logger.LoggerConfig;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Everything a job needs, validated once by {@link Builder#build()}; {@link #toBuilder()} makes a
 * changed copy the same way, so that no method restates every setting.
 *
 * @param ranks          number of ranks (at least 1)
 * @param program        what every rank runs
 * @param output         where rank output goes
 * @param limits         how long the job, a stopping rank and a stalled job may take
 * @param faultTolerance the protocol, its options, checkpoints and the crashes to inject
 * @param logging        the payload log, how collectives are logged and the logger nodes
 * @param engine         engine settings
 * @param pointListener  told whenever a rank passes a checkpoint point ({@link PointListener#NONE}: nobody)
 * @param recordFile     where the JSON run record goes at the end (null: not written)
 */
public record JobConfig(
        int ranks,
        Program program,
        Output output,
        Limits limits,
        FaultTolerance faultTolerance,
        Logging logging,
        EngineConfig engine,
        PointListener pointListener,
        Path recordFile) {

    /**
     * What every rank runs.
     *
     * @param mainClass fully qualified name of the class whose {@code main} each rank runs
     * @param args      program arguments, the same for every rank
     * @param classPath where the program's classes are (empty: the launcher's own class path)
     * @param input     the job's standard input, which rank 0 reads (null: this process's own standard
     *                  input); called once per job
     */
    public record Program(String mainClass, List<String> args, List<Path> classPath, Supplier<InputStream> input) {
        public Program {
            Objects.requireNonNull(mainClass, "mainClass");
            args = List.copyOf(args);
            classPath = List.copyOf(classPath);
        }
    }

    /**
     * Where rank output goes.
     *
     * @param out       where rank standard output goes (null: only captured)
     * @param err       where rank standard error goes (null: only captured)
     * @param tagOutput prefix every output line with {@code [rank]}
     */
    public record Output(PrintStream out, PrintStream err, boolean tagOutput) {}

    /**
     * Time limits.
     *
     * @param timeout      time limit for the whole job; past it the job is aborted and reported as timed out
     * @param stopGrace    how long ranks told to stop (for a rollback, after a crash, after an abort) get
     *                     to do so before the job reports them as stuck and aborts
     * @param stallTimeout how long every rank may wait inside MPI with no rank making an operation before
     *                     the job is aborted as stalled, saying where each rank waits ({@link
     *                     Duration#ZERO}: never; a deadlocked program otherwise waits for the time limit)
     */
    public record Limits(Duration timeout, Duration stopGrace, Duration stallTimeout) {}

    /**
     * Fault tolerance.
     *
     * @param protocol        fault-tolerance protocol, from the {@link ProtocolRegistry}
     * @param protocolOptions the values of the protocol's own options, resolved by its descriptor
     *                        ({@link ProtocolDescriptor#resolve}); the job carries them without reading them
     * @param checkpointEvery every how many checkpoint points a checkpoint is written (0: never)
     * @param keepLines       how many recovery lines are kept (and logs for them)
     * @param checkpointDir   where checkpoints go (null: a temporary folder removed after the job)
     * @param failures        crashes to inject
     * @param resume          start every rank from the newest recovery line all of them hold in {@code
     *                        checkpointDir}, left by an earlier run of the same job that died whole
     * @param onFailure       recover failed ranks transparently, or report failures to the program
     * @param spares          in notify mode, how many replacements the job may make (-1: any number)
     */
    public record FaultTolerance(
            ProtocolDescriptor protocol,
            ProtocolOptions protocolOptions,
            int checkpointEvery,
            int keepLines,
            Path checkpointDir,
            FailureSchedule failures,
            boolean resume,
            OnFailure onFailure,
            int spares) {
        /** Whether failures are reported to the program ({@link OnFailure#NOTIFY}). */
        public boolean notifies() {
            return onFailure == OnFailure.NOTIFY;
        }
    }

    /**
     * Payload logging.
     *
     * @param payloadLog                  settings of the sender-based payload log (logging protocols)
     * @param applicationLevelCollectives under a logging protocol, log collectives at application level
     *                                    (default); false logs every message of the tree algorithms (for
     *                                    comparison)
     * @param loggers                     logger nodes that hold the overflow of the ranks' payload logs
     *                                    ({@link LoggerConfig#NONE}: none)
     */
    public record Logging(PayloadLogConfig payloadLog, boolean applicationLevelCollectives, LoggerConfig loggers) {}

    /** How long a job may stall by default: far beyond any wait of a working program, far short of a day. */
    public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofMinutes(5);

    /** Upper bound on ranks of one in-JVM job (threads and heap, not the algorithm, set it). */
    public static final int MAX_RANKS = 4096;

    /**
     * The services this job's protocol is started with: its settings from this job's, and what the host
     * that starts it provides: where a rank's determinants go ({@code eventLog}), the job's recovery
     * lines as that host sees them, where the ranks' reports go, and the job's logger nodes (null: none,
     * or not reached from there).
     */
    public io.rewind.ft.ProtocolServices protocolServices(
            java.util.function.IntFunction<io.rewind.ft.EventLogClient> eventLog,
            io.rewind.ft.RecoveryLines lines,
            io.rewind.ft.ProtocolReports reports,
            io.rewind.ft.logger.LoggerNodes loggers) {
        return new io.rewind.ft.ProtocolServices(
                ranks(),
                faultTolerance().keepLines(),
                logging().payloadLog(),
                logging().applicationLevelCollectives(),
                eventLog,
                lines,
                reports,
                faultTolerance().protocolOptions(),
                loggers);
    }

    public URL[] classPathUrls() {
        List<Path> classPath = program.classPath();
        URL[] urls = new URL[classPath.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = classPath.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("bad class path entry " + classPath.get(i), e);
            }
        }
        return urls;
    }

    /**
     * A builder holding every setting of this job: change some and {@link Builder#build()} checks the
     * result as it checks a new job (output stays where this job's goes, or captured only).
     */
    public Builder toBuilder() {
        Builder b = new Builder(program.mainClass())
                .ranks(ranks)
                .args(program.args())
                .classPath(program.classPath())
                .engine(engine)
                .timeout(limits.timeout())
                .stopGrace(limits.stopGrace())
                .stallTimeout(limits.stallTimeout())
                .tagOutput(output.tagOutput())
                .output(output.out(), output.err())
                .protocol(faultTolerance.protocol())
                .protocolOptions(faultTolerance.protocolOptions())
                .checkpointEvery(faultTolerance.checkpointEvery())
                .keepLines(faultTolerance.keepLines())
                .checkpointDir(faultTolerance.checkpointDir())
                .failures(faultTolerance.failures())
                .resume(faultTolerance.resume())
                .onFailure(faultTolerance.onFailure())
                .spares(faultTolerance.spares())
                .payloadLog(logging.payloadLog())
                .applicationLevelCollectives(logging.applicationLevelCollectives())
                .loggers(logging.loggers())
                .pointListener(pointListener)
                .recordFile(recordFile);
        b.input = program.input();
        b.echo = output.out() != null || output.err() != null;
        return b;
    }

    /**
     * The payload log settings a job of {@code protocol} runs with: a protocol that bounds its log
     * ({@link Capability#BOUNDS_LOG}) needs a quota, and one not given is its descriptor's default (the
     * command line asks for {@code --log-quota}; jobs built in code, such as the recovery oracle's, get
     * a quota small enough that the protocol has to act on it).
     */
    static PayloadLogConfig logFor(ProtocolDescriptor protocol, PayloadLogConfig log, LoggerConfig loggers) {
        if (log != null && loggers.enabled()) {
            log = blocksForQuota(log, loggers.quotaBytes());
        }
        if (protocol != null
                && protocol.has(Capability.BOUNDS_LOG)
                && log != null
                && log.quotaBytes() == PayloadLogConfig.UNLIMITED) {
            // With logger nodes, one quota for both: a rank dumps first and the protocol logs less only
            // when no logger takes its dumps (the command line's --log-quota means both too).
            return log.toBuilder()
                    .quotaBytes(loggers.enabled() ? loggers.quotaBytes() : protocol.defaultLogQuotaBytes())
                    .build();
        }
        return log;
    }

    /**
     * A log kept under a quota by logger nodes takes blocks of a quarter of the quota (whole pages, at
     * most the configured size), keeps at most two spare and no more spare bytes than the quota: its
     * memory then follows the quota, where 2 MiB blocks would hold many times a small quota.
     */
    static PayloadLogConfig blocksForQuota(PayloadLogConfig log, long quotaBytes) {
        long page = PayloadLogConfig.PAGE_BYTES;
        long block = Math.max(page, Math.min(log.blockBytes(), (quotaBytes / 4) / page * page));
        if (log.reserveBytes() > quotaBytes) {
            // The log never holds more than the quota: a larger reserve would be memory never used.
            log = log.toBuilder().reserveBytes(quotaBytes).build();
        }
        if (block >= log.blockBytes()) {
            return log;
        }
        return log.toBuilder()
                .blockBytes(block)
                .spareBlocks(Math.min(log.spareBlocks(), 2))
                .spareLimitBytes(Math.min(log.spareLimitBytes(), quotaBytes))
                .build();
    }

    /**
     * The option values of a job of {@code p}: those it declares as its descriptor resolves them, the
     * others kept as given (so that a job changed to another protocol still has them).
     */
    private static ProtocolOptions resolved(ProtocolDescriptor p, ProtocolOptions given, int ranks) {
        ProtocolOptions out = given;
        for (java.util.Map.Entry<String, String> e :
                p.resolve(given, ranks).values().entrySet()) {
            out = out.with(e.getKey(), e.getValue());
        }
        return out;
    }

    /**
     * Refuses, before anything runs, crashes that the chosen set-up can only turn into a stack trace:
     * the dummy log backend keeps no payloads, so nothing could be replayed to a restarted rank.
     */
    private static void checkRecoverable(ProtocolDescriptor p, FailureSchedule f, PayloadLogConfig log) {
        if (!f.isEmpty() && log.backend() == StorageBackend.DUMMY && p.has(Capability.LOGS_PAYLOADS)) {
            throw new IllegalArgumentException("the dummy log backend keeps no payloads, so a crashed rank cannot "
                    + "be recovered: use it without kills (it measures the copy alone), or choose off-heap, "
                    + "mapped-file or hybrid");
        }
    }

    /** What notify mode refuses: a protocol beside it, logger nodes, a resume. */
    private static void checkNotifiable(ProtocolDescriptor p, LoggerConfig loggers, boolean resume) {
        if (!p.name().equals("none")) {
            throw new IllegalArgumentException("--protocol " + p.name() + " with --on-failure notify: the program"
                    + " recovers from failures itself, so no protocol logs or rolls back beside it (leave out"
                    + " --protocol)");
        }
        if (loggers != null && loggers.loggers() > 0) {
            throw new IllegalArgumentException(
                    "--loggers with --on-failure notify: nothing is logged, so logger nodes hold nothing");
        }
        if (resume) {
            throw new IllegalArgumentException("--resume with --on-failure notify: a job that handles failures"
                    + " itself restarts from its own checkpoints");
        }
    }

    public static Builder builder(String mainClass) {
        return new Builder(mainClass);
    }

    /** Collects settings; {@link #build()} checks them and fills in defaults. */
    public static final class Builder {
        private final String mainClass;
        private int ranks = 1;
        private List<String> args = List.of();
        private final List<Path> classPath = new ArrayList<>();
        private EngineConfig engine;
        private Duration timeout = Duration.ofHours(24);
        private Duration stopGrace = Duration.ofSeconds(10);
        private boolean tagOutput = true;
        private PrintStream out;
        private PrintStream err;
        private boolean echo = true;
        private ProtocolDescriptor protocol = ProtocolRegistry.NONE;
        private int checkpointEvery = 0;
        private int keepLines = 2;
        private Path checkpointDir;
        private FailureSchedule failures = FailureSchedule.NONE;
        private PayloadLogConfig payloadLog;
        private boolean applicationLevelCollectives = true;
        private ProtocolOptions protocolOptions = ProtocolOptions.NONE;
        private PointListener pointListener = PointListener.NONE;
        private Path recordFile;
        private boolean resume;
        private OnFailure onFailure = OnFailure.RECOVER;
        private int spares = -1;
        private Duration stallTimeout = DEFAULT_STALL_TIMEOUT;
        private Supplier<InputStream> input;

        private Builder(String mainClass) {
            this.mainClass = mainClass;
        }

        public Builder ranks(int n) {
            this.ranks = n;
            return this;
        }

        public Builder args(List<String> a) {
            this.args = a;
            return this;
        }

        public Builder args(String... a) {
            this.args = List.of(a);
            return this;
        }

        public Builder classPath(List<Path> entries) {
            classPath.addAll(entries);
            return this;
        }

        public Builder engine(EngineConfig e) {
            this.engine = e;
            return this;
        }

        public Builder timeout(Duration t) {
            this.timeout = t;
            return this;
        }

        /** How long all ranks may wait with none making progress before the job is aborted (zero: never). */
        public Builder stallTimeout(Duration t) {
            this.stallTimeout = t;
            return this;
        }

        public Builder stopGrace(Duration g) {
            this.stopGrace = g;
            return this;
        }

        public Builder tagOutput(boolean t) {
            this.tagOutput = t;
            return this;
        }

        /** Where rank output goes; by default the process's standard streams. */
        public Builder output(PrintStream o, PrintStream e) {
            this.out = o;
            this.err = e;
            return this;
        }

        /** The job's standard input, which rank 0 reads: these bytes (by default this process's own input). */
        public Builder input(byte[] bytes) {
            byte[] copy = bytes.clone();
            this.input = () -> new java.io.ByteArrayInputStream(copy);
            return this;
        }

        /** Keep rank output only in the result (tests). */
        public Builder quiet() {
            this.echo = false;
            return this;
        }

        public Builder protocol(ProtocolDescriptor p) {
            this.protocol = p;
            return this;
        }

        /** The registered protocol of that name; an unknown name is refused, naming the registered ones. */
        public Builder protocol(String name) {
            this.protocol = ProtocolRegistry.get(name);
            return this;
        }

        /** Write a checkpoint every {@code n} checkpoint points (0: never). */
        public Builder checkpointEvery(int n) {
            this.checkpointEvery = n;
            return this;
        }

        public Builder keepLines(int l) {
            this.keepLines = l;
            return this;
        }

        public Builder checkpointDir(Path dir) {
            this.checkpointDir = dir;
            return this;
        }

        public Builder failures(FailureSchedule f) {
            this.failures = f;
            return this;
        }

        public Builder payloadLog(PayloadLogConfig c) {
            this.payloadLog = c;
            return this;
        }

        /**
         * Option {@code name} ({@code --clusters}) of the protocol set to {@code value}, as a user would
         * type it; read and checked by the protocol's descriptor when the job is built. A value for an
         * option the job's protocol does not declare is dropped (one setting can serve a sweep over
         * protocols).
         */
        public Builder option(String name, String value) {
            this.protocolOptions = protocolOptions.with(name, Objects.requireNonNull(value, name));
            return this;
        }

        /** The protocol's option values (replacing any given before), as {@link #option} takes them. */
        public Builder protocolOptions(ProtocolOptions options) {
            this.protocolOptions = Objects.requireNonNull(options, "protocolOptions");
            return this;
        }

        /** Logger nodes for the ranks' payload logs (default: none). */
        public Builder loggers(LoggerConfig c) {
            this.loggers = Objects.requireNonNull(c, "loggers");
            return this;
        }

        private LoggerConfig loggers = LoggerConfig.fromTestProperties();

        public Builder applicationLevelCollectives(boolean on) {
            this.applicationLevelCollectives = on;
            return this;
        }

        /** Told whenever a rank passes a checkpoint point; it may hold the rank back. */
        public Builder pointListener(PointListener l) {
            this.pointListener = Objects.requireNonNull(l, "pointListener");
            return this;
        }

        /**
         * Resume a job that died whole from the newest recovery line all its ranks hold in the
         * checkpoint folder (which must be given).
         */
        public Builder resume(boolean resume) {
            this.resume = resume;
            return this;
        }

        /** Recover failed ranks (the default) or report failures to the program. */
        public Builder onFailure(OnFailure f) {
            this.onFailure = java.util.Objects.requireNonNull(f);
            return this;
        }

        /** In notify mode, how many replacements the job may make (-1, the default: any number). */
        public Builder spares(int n) {
            this.spares = n;
            return this;
        }

        /** Write the JSON run record to {@code file} when the job ends (null: none). */
        public Builder recordFile(Path file) {
            this.recordFile = file;
            return this;
        }

        public JobConfig build() {
            if (mainClass == null || mainClass.isBlank()) {
                throw new IllegalArgumentException("a main class is required");
            }
            if (ranks < 1 || ranks > MAX_RANKS) {
                throw new IllegalArgumentException("ranks must be between 1 and " + MAX_RANKS + ", was " + ranks);
            }
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, was " + timeout);
            }
            if (stopGrace == null || stopGrace.isNegative() || stopGrace.isZero()) {
                throw new IllegalArgumentException("stopGrace must be positive, was " + stopGrace);
            }
            if (stallTimeout == null || stallTimeout.isNegative()) {
                throw new IllegalArgumentException(
                        "stallTimeout must be zero (never) or positive, was " + stallTimeout);
            }
            for (Path p : classPath) {
                if (!Files.exists(p)) {
                    throw new IllegalArgumentException("class path entry does not exist: " + p);
                }
            }
            if (protocol == null) {
                throw new IllegalArgumentException("a protocol is required");
            }
            ProtocolOptions options = resolved(protocol, protocolOptions, ranks);
            if (checkpointEvery < 0) {
                throw new IllegalArgumentException("checkpointEvery must be >= 0, was " + checkpointEvery);
            }
            if (keepLines < 1) {
                throw new IllegalArgumentException("keepLines must be >= 1, was " + keepLines);
            }
            if (failures == null) {
                throw new IllegalArgumentException("failures must not be null (use FailureSchedule.NONE)");
            }
            if (resume && checkpointDir == null) {
                throw new IllegalArgumentException(
                        "resuming needs the checkpoint folder of the run that died (--checkpoint-dir DIR)");
            }
            for (FailureSchedule.Kill k : failures.kills()) {
                if (k.rank() >= ranks) {
                    throw new IllegalArgumentException(
                            "kill " + k + " names rank " + k.rank() + " but the job has " + ranks + " ranks");
                }
            }
            PayloadLogConfig log = payloadLog != null
                    ? payloadLog
                    : PayloadLogConfig.builder(StorageBackend.OFF_HEAP).build();
            log = logFor(protocol, log, loggers);
            if (onFailure == OnFailure.NOTIFY) {
                checkNotifiable(protocol, loggers, resume);
            } else {
                checkRecoverable(protocol, failures, log);
                if (spares >= 0) {
                    throw new IllegalArgumentException("--spares " + spares + ": spares replace failed ranks when"
                            + " the program handles failures itself; add --on-failure notify");
                }
            }
            if (spares < -1) {
                throw new IllegalArgumentException("--spares " + spares + ": must be 0 or more");
            }
            EngineConfig e = engine != null ? engine : EngineConfig.forRanks(ranks);
            PrintStream o = echo ? (out != null ? out : OutputRouter.rawStdout()) : null;
            PrintStream r = echo
                    ? (err != null
                            ? err
                            : new PrintStream(
                                    new java.io.FileOutputStream(java.io.FileDescriptor.err),
                                    true,
                                    java.nio.charset.StandardCharsets.UTF_8))
                    : null;
            return new JobConfig(
                    ranks,
                    new Program(mainClass, args, classPath, input),
                    new Output(o, r, tagOutput),
                    new Limits(timeout, stopGrace, stallTimeout),
                    new FaultTolerance(
                            protocol,
                            options,
                            checkpointEvery,
                            keepLines,
                            checkpointDir,
                            failures,
                            resume,
                            onFailure,
                            spares),
                    new Logging(log, applicationLevelCollectives, loggers),
                    e,
                    pointListener,
                    recordFile);
        }
    }
}
