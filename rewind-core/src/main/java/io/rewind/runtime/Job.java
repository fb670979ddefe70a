package io.rewind.runtime;

import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointStore;
import io.rewind.checkpoint.CheckpointWriter;
import io.rewind.engine.CommunicatorFactory;
import io.rewind.engine.Mailbox;
import io.rewind.engine.MailboxSnapshot;
import io.rewind.engine.RankEngine;
import io.rewind.engine.ReplayMismatch;
import io.rewind.engine.RewindException;
import io.rewind.engine.Transport;
import io.rewind.ft.EventLogger;
import io.rewind.ft.Protocol;
import io.rewind.ft.ProtocolServices;
import io.rewind.ft.RankProtocol;
import io.rewind.ft.RecoveryLines;
import io.rewind.runtime.coordinator.CoordinatorHost;
import io.rewind.runtime.coordinator.DownCause;
import io.rewind.runtime.coordinator.RankLife;
import io.rewind.runtime.coordinator.RecoveryCoordinator;
import io.rewind.runtime.coordinator.Strike;
import io.rewind.runtime.rank.LogFigures;
import io.rewind.runtime.rank.RankEvent;
import io.rewind.runtime.rank.RankEventSink;
import io.rewind.transport.local.InJvmTransport;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Runs one SPMD job in this JVM: every rank is a platform thread named {@code rank-N} running the
 * program's {@code main} in its own class loader. The job ends when every rank has returned, or when
 * it is aborted (a rank failed, called {@code abort}, or the time limit passed).
 *
 * <p>The calling thread is the job's coordinator: it waits for ranks to end or crash and, under a
 * fault-tolerance protocol, recovers crashed ranks. A crashed rank loses everything it held (its
 * queues, its payload log, its heap state: a new incarnation gets a new class loader) and is
 * respawned. Which ranks restart, from which recovery line, and whether the others replay messages to
 * them is the protocol's decision ({@link Protocol#plan}); the job carries it out.
 */
public final class Job {
    /** What the caller of {@link #run} waits beyond the job's limits for a coordinator that is stuck. */
    private static final long COORDINATOR_MARGIN_NANOS = 30_000_000_000L;
    /** How long a finished rank serving its peers parks between looks (a control message wakes it). */
    private static final long SERVE_SLICE_NANOS = 20_000_000L;
    /** Frames of a stuck rank thread shown in the message that reports it. */
    private static final int STUCK_FRAMES = 12;

    private final JobConfig config;
    private final Transport transport;
    private final RankSlot[] slots;
    private final AtomicReference<JobAbortedException> abort = new AtomicReference<>();
    private final LinkedBlockingQueue<Runnable> coordinatorQueue = new LinkedBlockingQueue<>();
    private final CommunicatorFactory communicators;
    /** The launcher of a rank process (null for ranks that are threads of this job). */
    private final RankSupervisor supervisor;
    /**
     * Where the ranks' events go: the launcher of a rank process, or this job's coordinator queue
     * (the coordinator takes them as a launcher takes a rank process's, {@link RecoveryCoordinator#step}).
     */
    private final RankEventSink rankEvents;
    /**
     * Told every rank event this job's coordinator takes, in the order it takes them, before it does
     * (set before the coordinator starts; {@link #run(JobConfig, RankEventSink)}).
     */
    private RankEventSink observer = event -> {};

    private final Protocol protocol;
    /** The job's event logger: outlives every rank, as a process of its own would. */
    private final EventLogger events;
    /** The job's logger nodes (null: none, or a rank process, whose job holds them elsewhere). */
    private final io.rewind.ft.logger.LoggerNodes loggers;
    /** What every rank's kept recovery lines hold, published as ranks checkpoint. */
    private final RecoveryLines lines;

    /** This machine's checkpoint folder (null in a rank process whose checkpoints go to its node's agent). */
    private final CheckpointStore store;
    /** Where checkpoints are written: {@link #store}, or the node's agent of a rank process. */
    private final CheckpointWriter checkpoints;

    private final Path checkpointDir;
    private final boolean ownCheckpointDir;
    private final RunReport.Builder report;
    private RunRecordWriter record;
    /**
     * Every decision on the ranks of an in-JVM job; this job carries out its commands ({@link
     * ThreadCommands}). Null in a rank process, whose launcher holds the job's coordinator.
     */
    private RecoveryCoordinator coordinator;
    /** The images a resumed job's ranks start from (null: not resumed). */
    private CheckpointImage[] resumeImages;
    /** Kills due at a time, and the checks that ranks told to stop did within the grace: its thread is the job's. */
    private ScheduledExecutorService timers;
    /** Whether storage holds back pruning for a recovery under way (see {@link CheckpointStore#holdPruning}). */
    private boolean pruningHeld;

    private ClassLoader parentLoader;
    /** Set once every rank has finished: finished ranks stop serving their peers. */
    private volatile boolean finished;

    private long startNanos;

    private Job(JobConfig config) {
        this(config, new InJvmTransport(config.ranks()), new CommunicatorRegistry(), null, null, null);
    }

    /**
     * @param services  the job-level services as a rank process reaches them (null: this JVM holds them)
     * @param supervisor the launcher of a rank process (null: every rank is a thread of this job)
     * @param checkpoints where a rank process writes its checkpoints (null: the job's checkpoint folder)
     */
    private Job(
            JobConfig config,
            Transport transport,
            CommunicatorFactory communicators,
            ProtocolServices services,
            RankSupervisor supervisor,
            CheckpointWriter checkpoints) {
        this.config = config;
        this.transport = transport;
        this.communicators = communicators;
        this.supervisor = supervisor;
        this.rankEvents = supervisor != null ? supervisor : event -> coordinatorQueue.add(() -> take(event));
        this.slots = new RankSlot[config.ranks()];
        this.protocol = config.faultTolerance().protocol().create();
        this.events = new EventLogger(config.ranks());
        this.lines = services != null
                ? services.lines()
                : new RecoveryLines(config.ranks(), config.faultTolerance().keepLines());
        // A job whose protocol logs no payloads has nothing to dump (the baseline of a recovery check).
        this.loggers = services == null && config.logging().loggers().enabled() && protocol.logsPayloads()
                ? new io.rewind.ft.logger.LoggerNodes(config.logging().loggers(), config.ranks())
                : null;
        protocol.start(
                services != null
                        ? services
                        : new ProtocolServices(
                                config.ranks(),
                                config.faultTolerance().keepLines(),
                                config.logging().payloadLog(),
                                config.logging().applicationLevelCollectives(),
                                events::clientFor,
                                lines,
                                protocol::onReport,
                                config.faultTolerance().protocolOptions(),
                                loggers));
        if (checkpoints != null) {
            this.ownCheckpointDir = false;
            this.checkpointDir = null;
            this.store = null;
            this.checkpoints = checkpoints;
        } else {
            try {
                this.ownCheckpointDir = config.faultTolerance().checkpointDir() == null;
                this.checkpointDir = ownCheckpointDir
                        ? Files.createTempDirectory("rewind-checkpoints-")
                        : Files.createDirectories(config.faultTolerance().checkpointDir());
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot create the checkpoint folder: " + e.getMessage(), e);
            }
            this.store =
                    new CheckpointStore(checkpointDir, config.faultTolerance().keepLines());
            this.checkpoints = store;
        }
        this.report = new RunReport.Builder(config);
    }

    /** Runs the job to its end and reports how every rank ended. */
    public static JobResult run(JobConfig config) {
        return run(config, event -> {});
    }

    /**
     * Runs the job to its end and reports how every rank ended; {@code observer} is told every rank
     * event in the order the job's coordinator takes them, on the coordinator's thread (it must not
     * block).
     */
    public static JobResult run(JobConfig config, RankEventSink observer) {
        Job job = new Job(config);
        job.observer = observer;
        // The coordinator is a thread of its own, named, whose failures end the job with a result
        // instead of escaping to the caller while rank threads wait.
        AtomicReference<JobResult> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread coordinator = Thread.ofPlatform().name("rewind-coordinator").unstarted(() -> {
            try {
                result.set(job.execute());
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        coordinator.setContextClassLoader(Thread.currentThread().getContextClassLoader());
        coordinator.start();
        // The coordinator enforces the time limit itself; should it ever be stuck, the caller still
        // gets an answer, not a hang: past the limit plus the stop grace and a margin, the job is
        // aborted and, if the coordinator still does not return, reported with where it is stuck.
        long deadline = System.nanoTime()
                + config.limits().timeout().toNanos()
                + 2 * config.limits().stopGrace().toNanos()
                + COORDINATOR_MARGIN_NANOS;
        boolean interrupted = false;
        boolean aborted = false;
        while (coordinator.isAlive()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                if (aborted) {
                    break;
                }
                aborted = true;
                job.abort(-1, 1, "the job's coordinator did not end within its time limit");
                deadline = System.nanoTime() + config.limits().stopGrace().toNanos() + COORDINATOR_MARGIN_NANOS;
                continue;
            }
            try {
                coordinator.join(Duration.ofNanos(left));
            } catch (InterruptedException e) {
                interrupted = true;
                job.abort(-1, 1, "the job was interrupted");
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (coordinator.isAlive()) {
            throw new IllegalStateException("the job's coordinator is stuck" + whereStuck(coordinator));
        }
        if (failure.get() != null) {
            throw new IllegalStateException("the job's coordinator failed: " + failure.get(), failure.get());
        }
        return result.get();
    }

    /**
     * Runs one rank of a job whose ranks are processes, in this process: the rank's program in its own
     * class loader, on {@code transport}, with the job-level services reached through {@code services}
     * and {@code communicators}; crashes, checkpoints and the end are reported to {@code supervisor}.
     * Returns once the program has ended and the whole job has finished (a finished rank keeps
     * serving its peers until then), or the job was aborted. {@code protocolOpened} is handed the
     * rank's protocol before its program starts, for the process to sample its log for the run record
     * ({@link RankProtocol#heldLogBytes()}, {@link RankProtocol#heldLogMemoryBytes()}) from a thread
     * of its own.
     */
    public static RankOutcome runRankProcess(
            JobConfig config,
            RankProcessSetup setup,
            Transport transport,
            CommunicatorFactory communicators,
            ProtocolServices services,
            RankSupervisor supervisor,
            Consumer<RankProtocol> protocolOpened) {
        Job job = new Job(
                config.toBuilder().failures(setup.kills()).build(),
                transport,
                communicators,
                services,
                supervisor,
                setup.checkpoints());
        OutputRouter.install();
        InputRouter.install();
        job.startNanos = System.nanoTime();
        job.parentLoader = Job.class.getClassLoader();
        int r = setup.rank();
        // Untagged: the launcher prefixes the lines, and shows each once across incarnations.
        RankSlot slot = new RankSlot(
                r,
                new OutputRouter.RankOutput(r, false, OutputRouter.rawStdout(), rawStderr()),
                new InputRouter.RankInput(r, setup.input()));
        job.slots[r] = slot;
        Incarnation inc = job.prepare(
                slot,
                setup.incarnation(),
                setup.image(),
                job.config.faultTolerance().failures().kills());
        inc.catchUpTarget = setup.catchUpPoints();
        inc.catchUpOperations = setup.catchUpOperations();
        protocolOpened.accept(inc.protocol);
        // Rewind ends a rank process with Runtime.halt, which runs no shutdown hook: this one runs only
        // when the program calls System.exit (or the process is asked to terminate).
        Runtime.getRuntime()
                .addShutdownHook(Thread.ofPlatform()
                        .name("rewind-rank-" + r + "." + setup.incarnation() + "-exit")
                        .unstarted(() -> job.programExited(inc)));
        inc.thread.start();
        if (setup.incarnation() > 0) {
            job.maybeCaughtUp(inc, 0); // nothing to catch up (it died before the launcher heard of any progress)
        }
        Thread.ofPlatform()
                .name("rewind-rank-" + r + "." + setup.incarnation() + "-progress")
                .daemon(true)
                .start(() -> reportProgress(inc, supervisor));
        awaitGone(inc, Long.MAX_VALUE);
        slot.output.flush();
        job.protocol.close();
        return slot.outcome != null
                ? slot.outcome
                : new RankOutcome(r, RankOutcome.Status.ABORTED, "stopped when the job was aborted", null);
    }

    private static PrintStream rawStderr() {
        return new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    }

    JobConfig config() {
        return config;
    }

    /** This machine's checkpoint folder; null in a rank process that writes through its node's agent. */
    CheckpointStore store() {
        return store;
    }

    CheckpointWriter checkpoints() {
        return checkpoints;
    }

    Protocol protocol() {
        return protocol;
    }

    // ---------------------------------------------------------------------------------------------
    // Life cycle

    private JobResult execute() {
        OutputRouter.install();
        InputRouter.install();
        long start = System.nanoTime();
        startNanos = start;
        record = new RunRecordWriter(config, start);
        parentLoader = Thread.currentThread().getContextClassLoader();
        if (parentLoader == null) {
            parentLoader = Job.class.getClassLoader();
        }
        int n = config.ranks();
        JobInput input = JobInput.forJob(config);
        for (int r = 0; r < n; r++) {
            slots[r] = new RankSlot(
                    r,
                    new OutputRouter.RankOutput(
                            r,
                            config.output().tagOutput(),
                            config.output().out(),
                            config.output().err()),
                    new InputRouter.RankInput(r, input::read));
        }
        coordinator = new RecoveryCoordinator(
                protocol,
                lines,
                report,
                new ThreadCommands(),
                System::nanoTime,
                n,
                config.faultTolerance().failures().kills(),
                config.limits().stallTimeout(),
                config.recordFile() == null ? null : record);
        timers = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform()
                .daemon(true)
                .name("rewind-coordinator-timer")
                .unstarted(r));
        long resumeLine = ownCheckpointDir ? 0 : ResumePoint.prepare(config, store);
        if (resumeLine > 0) {
            resume(resumeLine);
        }
        // Every endpoint exists before any rank runs, so no early message is dropped: the threads start
        // once every rank is ready (see onReady).
        coordinator.startAll(resumeLine);
        scheduleTimeKills();
        sampleLogs(System.nanoTime());
        long deadline = start + config.limits().timeout().toNanos();
        boolean timedOut = coordinate(deadline);
        sampleLogs(System.nanoTime());
        finished = true;
        for (RankSlot s : slots) {
            LockSupport.unpark(s.current.thread);
        }
        if (timedOut) {
            describeWhereRanksWait("at the time limit");
            abort(-1, 1, "time limit of " + config.limits().timeout() + " exceeded");
        }
        JobAbortedException aborting = abort.get();
        if (aborting != null) {
            // Before the ends still queued are taken in: a rank going down now is over, not recovered.
            coordinator.abort(aborting.abortingRank(), aborting.errorCode(), aborting.getMessage());
        }
        // Ranks post their end just before their thread exits: give them that moment (and, after an
        // abort, the time to notice it). An incarnation made for a restart whose thread never started
        // (the job ended first) has nothing to wait for.
        long graceDeadline = graceDeadline();
        for (RankSlot s : slots) {
            if (!s.current.started()) {
                s.current.goneNow();
            }
            awaitGone(s.current, graceDeadline);
        }
        // Ranks that noticed an abort posted their end; take those notices in.
        Runnable task;
        while ((task = coordinatorQueue.poll()) != null) {
            runTask(task);
        }
        JobAbortedException a = abort.get();
        timers.shutdownNow();
        coordinator.reportKillsNotStruck();
        if (loggers != null) {
            java.util.Map<String, Object> record = new java.util.LinkedHashMap<>(protocol.runRecord());
            record.put("loggerNodes", loggers.runRecord());
            List<String> summary = new ArrayList<>(protocol.summary());
            summary.addAll(loggers.summary());
            report.protocolFigures(record, summary);
        } else {
            report.protocolFigures(protocol.runRecord(), protocol.summary());
        }
        List<RankOutcome> outcomes = new ArrayList<>(n);
        List<List<String>> output = new ArrayList<>(n);
        for (RankSlot s : slots) {
            s.output.flush();
            Incarnation inc = s.current;
            RankOutcome o = coordinator.outcome(s.rank);
            boolean alive = !inc.isGone();
            boolean abortedInTime = a != null && !timedOut;
            if (abortedInTime && alive) {
                o = new RankOutcome(
                        s.rank,
                        RankOutcome.Status.ABORTED,
                        "did not stop after the abort" + whereStuck(inc.thread),
                        null);
            } else if (abortedInTime && o == null) {
                // An incarnation stopped by the coordinator (a crash or a rollback) when the abort came.
                o = new RankOutcome(s.rank, RankOutcome.Status.ABORTED, "stopped when the job was aborted", null);
            } else if (o == null || alive) {
                o = new RankOutcome(
                        s.rank,
                        RankOutcome.Status.TIMED_OUT,
                        "still running at the time limit"
                                + (alive ? " (thread did not stop" + whereStuck(inc.thread) + ")" : ""),
                        null);
            }
            outcomes.add(o);
            output.add(s.output.lines());
            retire(inc);
        }
        transport.close();
        report.events(events.events(), events.bytes());
        protocol.close();
        if (loggers != null) {
            loggers.close();
        }
        cleanUpCheckpoints();
        int exit = 0;
        for (RankOutcome o : outcomes) {
            if (!o.ok()) {
                exit = 1;
            }
        }
        if (a != null) {
            exit = a.errorCode() != 0 ? a.errorCode() : 1;
        }
        if (timedOut) {
            exit = 124;
        }
        Duration wall = Duration.ofNanos(System.nanoTime() - start);
        RunReport built = report.build(wall);
        if (config.recordFile() != null) {
            record.write(config.recordFile(), built);
        }
        return new JobResult(
                exit, List.copyOf(outcomes), List.copyOf(output), wall, a == null ? null : a.getMessage(), built);
    }

    /** Runs coordinator tasks until every rank has ended; true if the time limit passed first. */
    private boolean coordinate(long deadline) {
        while (!coordinator.allEnded()) {
            if (abort.get() != null) {
                // Every rank stops on its own now; execute() gives them the grace and takes in their
                // ends. Waiting here for all of them would wait for ever for an incarnation that the
                // abort caught in the middle of a recovery: it will post no end.
                return false;
            }
            long now = System.nanoTime();
            long left = deadline - now;
            if (left <= 0) {
                return true;
            }
            if (now >= coordinator.nextTickNanos()) {
                reportRanks();
                coordinator.tick(now, coordinatorQueue.isEmpty());
            }
            Runnable task;
            try {
                task = coordinatorQueue.poll(
                        Math.min(left, Math.max(1, coordinator.nextTickNanos() - now)), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return true;
            }
            if (task != null) {
                runTask(task);
            }
        }
        return false;
    }

    /** A log sample for the run record now, from what the ranks hold. */
    private void sampleLogs(long now) {
        reportRanks();
        coordinator.sampleLogs(now);
    }

    /**
     * Coordinator: tells it what each rank's current incarnation holds in its log and how far it is, read
     * off the incarnations themselves (a rank process reports the same figures over its link). A rank
     * whose incarnation was released (crashed, rolled back) counts 0 until its next one exists; that one
     * starts with an empty log. A rank that computes, sleeps or polls is not parked in a wait.
     */
    private void reportRanks() {
        for (RankSlot s : slots) {
            Incarnation inc = s.current;
            if (inc == null) {
                continue;
            }
            boolean running = inc.state() == IncarnationState.RUNNING;
            long now = System.nanoTime();
            // What it sent is read at its end (retire), not sampled: null.
            take(new RankEvent.Progress(
                    s.rank,
                    inc.number,
                    now,
                    inc.engine.operations(),
                    inc.agent.points(),
                    running && inc.engine.inBlockingWait(),
                    null));
            if (inc.state() != IncarnationState.RETIRED) {
                take(new RankEvent.LogHeld(
                        s.rank, inc.number, now, inc.protocol.heldLogBytes(), inc.protocol.heldLogMemoryBytes()));
            }
        }
    }

    /**
     * In a rank process, on a daemon thread of its own until the rank's thread ends: tells the launcher
     * the rank's progress whenever it changed, every {@link #PROGRESS_REPORT_NANOS}, for the stall watch
     * the launcher keeps over all ranks (this process sees only its own).
     */
    private static void reportProgress(Incarnation inc, RankSupervisor supervisor) {
        long operations = -1;
        boolean waiting = false;
        while (!inc.isGone()) {
            if (inc.state() == IncarnationState.RUNNING) {
                long o = inc.engine.operations();
                boolean w = inc.engine.inBlockingWait();
                if (o != operations || w != waiting) {
                    operations = o;
                    waiting = w;
                    supervisor.emit(new RankEvent.Progress(
                            inc.rank,
                            inc.number,
                            System.nanoTime(),
                            o,
                            inc.agent.points(),
                            w,
                            inc.engine.traffic().snapshot()));
                }
            }
            LockSupport.parkNanos(PROGRESS_REPORT_NANOS);
        }
    }

    private static final long PROGRESS_REPORT_NANOS = 500_000_000L;

    /**
     * Runs one coordinator task behind an exception barrier: a failure while recovering (a checkpoint
     * that cannot be read, a bug) aborts the job with the reason, so every rank stops and the job
     * still ends with a result.
     */
    private void runTask(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | LinkageError e) {
            System.err.println("rewind: the coordinator failed: " + e);
            for (StackTraceElement el : e.getStackTrace()) {
                System.err.println("\tat " + el);
            }
            abort(-1, 1, "the coordinator failed: " + e);
        }
    }

    private void cleanUpCheckpoints() {
        if (!ownCheckpointDir) {
            return;
        }
        try (Stream<Path> files = Files.walk(checkpointDir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("rewind: could not remove " + checkpointDir + ": " + e.getMessage());
        }
    }

    /** When ranks told to stop now must have stopped. */
    private long graceDeadline() {
        return System.nanoTime() + config.limits().stopGrace().toNanos();
    }

    /**
     * Waits until {@code graceDeadline} for the incarnation's thread to end; if it still runs, aborts
     * the job with {@code failure} (such as "did not stop after its crash") and where it is stuck.
     */
    private boolean stoppedWithinGrace(Incarnation inc, long graceDeadline, String failure) {
        if (awaitGone(inc, graceDeadline)) {
            return true;
        }
        abort(inc.rank, 1, "rank " + inc.rank + " " + failure + whereStuck(inc.thread));
        return false;
    }

    /** Waits until {@code deadlineNanos} ({@link Long#MAX_VALUE}: for ever) for the incarnation to be gone. */
    private static boolean awaitGone(Incarnation inc, long deadlineNanos) {
        // An interrupt of the coordinator must not pass for a rank that did not stop: keep waiting out
        // the grace, then hand the interrupt back to whoever runs the job.
        boolean interrupted = false;
        try {
            while (!inc.isGone()) {
                try {
                    if (deadlineNanos == Long.MAX_VALUE) {
                        inc.gone.await();
                    } else {
                        long left = deadlineNanos - System.nanoTime();
                        if (left <= 0) {
                            break;
                        }
                        inc.gone.await(left, java.util.concurrent.TimeUnit.NANOSECONDS);
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return inc.isGone();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Incarnations

    /**
     * A resumed job: every rank starts from {@code line}, which every rank holds, as if it had just
     * written it (its output up to there was printed by the run that died).
     */
    private void resume(long line) {
        resumeImages = new CheckpointImage[slots.length];
        for (RankSlot s : slots) {
            CheckpointImage image =
                    store.loadWithChannelState(s.rank, line, why -> System.err.println("rewind: " + why));
            resumeImages[s.rank] = image;
            coordinator.resumedFrom(
                    s.rank, line, ResumePoint.frontiers(image), ResumePoint.events(image), ResumePoint.sent(image));
        }
    }

    /**
     * Creates an incarnation of a rank, with its queues restored from {@code image} if given, and makes
     * it reachable; its thread is created but not started. {@code kills}: the kills of the schedule its
     * program's operations, points and checkpoint writes fire.
     */
    private Incarnation prepare(RankSlot slot, int number, CheckpointImage image, List<FailureSchedule.Kill> kills) {
        int r = slot.rank;
        int n = config.ranks();
        Incarnation inc = new Incarnation(slot, r, number);
        inc.injector = new FailureInjector(this, new FailureSchedule(kills));
        if (coordinator != null) {
            inc.whenDown = gone -> coordinatorQueue.add(() -> onDown(gone));
        }
        inc.protocol = protocol.openRank(r, number);
        RankContext ctx = new RankContext(this, r, n);
        inc.engine = new RankEngine(r, n, transport, config.engine(), () -> checkAlive(inc), inc.protocol, number);
        inc.engine.setCommunicatorFactory(communicators);
        if (inc.injector.hasOperationKills() || number > 0) {
            inc.engine.setOperationHook(ops -> onOperation(inc, ops));
        }
        ctx.bind(inc.engine);
        inc.agent = new CheckpointAgent(this, inc, image);
        ctx.bind(inc.agent);
        if (number > 0 || image != null) {
            // What the rank printed after its restart point it prints again: shown once only (a
            // resumed job's first incarnation counts on from what the run that died printed).
            slot.output.rewindTo(image == null ? new long[2] : CheckpointAgent.outputPosition(image));
            // And it reads again the standard input it had read after that point.
            slot.input.rewindTo(image == null ? 0 : CheckpointAgent.inputPosition(image));
        }
        if (protocol.checkpoints() && inc.protocol.tracksArrivals()) {
            inc.engine
                    .mailbox()
                    .keepInTransitWith(new ChannelStateKeeper(
                            r,
                            number,
                            config.faultTolerance().keepLines(),
                            checkpoints(),
                            (line, upTo) -> onInTransitKept(inc, line, upTo)));
        }
        if (image != null) {
            EngineStateCodec.State state = EngineStateCodec.decode(image.section(CheckpointAgent.RUNTIME_SECTION));
            // The messages in transit across the line join the queues as if they had arrived right after it.
            MailboxSnapshot queues = ChannelState.withInTransit(state.mailbox(), image);
            inc.engine.restoreLine(queues, Math.toIntExact(image.line()));
            inc.restoredFrontiers = queues.frontiers();
            inc.protocol.restartedFrom(image.line());
            byte[] protocolState = image.sections().get(CheckpointAgent.PROTOCOL_SECTION);
            if (protocolState != null) {
                inc.protocol.restoreState(protocolState);
            }
        }
        // A program's System.exit goes to programExit: as threads of this JVM it must end its rank, not
        // the JVM; in a rank process it must carry its status to the launcher after MPI.Finalize too.
        inc.loader = new RankClassLoader(ctx, config.classPathUrls(), parentLoader);
        inc.thread = Thread.ofPlatform()
                .name("rank-" + r + (number > 0 ? "." + number : ""))
                .daemon(true)
                .unstarted(() -> runRank(inc));
        inc.thread.setContextClassLoader(inc.loader);
        slot.current = inc;
        inc.engine.attach();
        return inc;
    }

    private void runRank(Incarnation inc) {
        try {
            runProgram(inc);
        } finally {
            inc.goneNow();
        }
    }

    private void runProgram(Incarnation inc) {
        RankSlot s = inc.slot;
        // A crashed process prints nothing more: neither may a thread of a struck incarnation whose
        // program swallowed the error telling it so.
        OutputRouter.bind(s.output, inc::live);
        InputRouter.bind(s.input);
        int rank = inc.rank;
        RankOutcome outcome = null;
        try {
            inc.transition(IncarnationState.RUNNING, System.nanoTime(), "started");
            inc.engine.start();
            inc.protocol.onStart(inc.engine, inc.restoredFrontiers != null ? inc.restoredFrontiers : Map.of());
            Method main = findMain(inc.loader);
            main.invoke(null, (Object) config.program().args().toArray(new String[0]));
            if (inc.context().isInitialized() && !inc.context().isFinalized()) {
                outcome = new RankOutcome(
                        rank,
                        RankOutcome.Status.FAILED,
                        "returned from main after MPI.Init without calling MPI.Finalize",
                        null);
                abort(rank, 1, "rank " + rank + " returned from main without calling MPI.Finalize");
            } else {
                outcome = new RankOutcome(rank, RankOutcome.Status.COMPLETED, "", null);
            }
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (inc.exited.get()) {
                return; // System.exit: the rank's end was reported when its program called it
            }
            if (!isCrash(cause, inc)) {
                outcome = onRankThrew(rank, cause);
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            if (!isCrash(e, inc)) {
                outcome = new RankOutcome(
                        rank,
                        RankOutcome.Status.FAILED,
                        "cannot start " + config.program().mainClass() + ": " + e,
                        e);
                abort(rank, 1, "rank " + rank + " could not start: " + e.getMessage());
            }
        } catch (ReplayMismatch.ReplayMismatchError e) {
            outcome = onRankThrew(rank, e); // found while the restarted rank waited for its peers' answers
        } catch (RankKilledError e) {
            // a crash: outcome stays null
        } finally {
            if (outcome == null) {
                s.output.dropPartial(); // a crashed rank loses what it had not flushed
            } else {
                s.output.flush();
            }
            OutputRouter.unbind();
            InputRouter.unbind();
        }
        if (outcome == null) {
            if (inc.strike() == null) {
                markKilled(inc, "crashed", null, true);
            }
            if (supervisor != null) {
                // Struck before, on another thread of its program: a rank process goes no further.
                supervisor.emit(struck(inc, "crashed"));
            }
            return; // its end (runRank) reports it gone, struck
        }
        programEnded(inc, outcome);
    }

    /**
     * The rank's program has ended with {@code o}: reported, and if it ended well and the protocol
     * recovers, the rank serves its peers until the job ends. On the rank's thread, or on the shutdown
     * hook of a rank process whose program called {@code System.exit} after {@code MPI.Finalize}.
     */
    private void programEnded(Incarnation inc, RankOutcome o) {
        RankSlot s = inc.slot;
        inc.transition(IncarnationState.FINISHED, System.nanoTime(), o.status().name());
        if (inc.number > 0) {
            // At the latest when its program ends: the crash point is a count of operations, and a
            // re-execution may make fewer (polls that find nothing, which depend on timing), or it is
            // only as far as the launcher had heard of the rank before its process died.
            caughtUp(inc);
        }
        s.outcome = o;
        io.rewind.ft.log.LogStatistics stats = inc.protocol.logStatistics();
        long[] collectives = inc.protocol.collectiveLogFigures();
        rankEvents.emit(new RankEvent.Ended(
                inc.rank,
                inc.number,
                System.nanoTime(),
                o.status(),
                o.message(),
                inc.engine.operations(),
                new LogFigures(
                        stats == null ? 0 : stats.appendedEntries(),
                        stats == null ? 0 : stats.appendedBytes(),
                        stats == null ? 0 : stats.highWaterPayloadBytes(),
                        collectives[0],
                        collectives[1],
                        inc.protocol.determinantFigures()),
                inc.engine.traffic().snapshot()));
        if (o.ok() && protocol.recovers()) {
            serveUntilJobEnds(inc);
        }
    }

    /**
     * In a rank process's shutdown hook: its program called {@code System.exit}. After {@code
     * MPI.Finalize} that is how some programs end, and the rank ends as if its main had returned (its
     * end reported, its peers served until the job ends) before the process goes. Before it, nothing
     * is done here: the exit status reaches the launcher, which ends the job with it.
     */
    private void programExited(Incarnation inc) {
        if (inc.state() != IncarnationState.RUNNING || !inc.context().isFinalized()) {
            return;
        }
        endedByExit(inc, new RankOutcome(inc.rank, RankOutcome.Status.COMPLETED, "", null));
    }

    /**
     * The end of a rank whose program called {@code System.exit}: what it printed is shown, its end
     * posted, and it counts as gone (the coordinator takes the ends of the ranks gone in), whatever its
     * threads still do.
     */
    private void endedByExit(Incarnation inc, RankOutcome o) {
        inc.slot.output.flush();
        programEnded(inc, o);
        inc.goneNow();
    }

    /**
     * A rank that has finished keeps its log and keeps answering its peers until every rank has
     * finished: a peer that crashes now restarts and asks it for what it needs, as a rank process
     * would have to stay up for. Its thread makes the progress; a control message wakes it.
     */
    private void serveUntilJobEnds(Incarnation inc) {
        while (!finished
                && !inc.stopped()
                && abort.get() == null
                && (supervisor == null || !supervisor.jobFinished())) {
            inc.engine.progress();
            LockSupport.parkNanos(this, SERVE_SLICE_NANOS);
        }
    }

    /** A crash is the injected kill of this incarnation, however the program wrapped it. */
    private static boolean isCrash(Throwable t, Incarnation inc) {
        if (inc.state() == IncarnationState.KILLED) {
            return true;
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof RankKilledError) {
                return true;
            }
        }
        return false;
    }

    private RankOutcome onRankThrew(int rank, Throwable cause) {
        if (cause instanceof ReplayMismatch.ReplayMismatchError m) {
            // A recovery that went wrong, found where it did: one line, and the job ends.
            System.err.println("rewind: " + m.getMessage());
            abort(rank, 1, m.getMessage());
            return new RankOutcome(rank, RankOutcome.Status.FAILED, m.getMessage(), m);
        }
        JobAbortedException a = abort.get();
        if (cause instanceof JobAbortedException || (a != null && cause instanceof RewindException)) {
            return new RankOutcome(
                    rank, RankOutcome.Status.ABORTED, a != null ? a.getMessage() : cause.getMessage(), cause);
        }
        System.err.println("rank " + rank + " failed: " + cause);
        for (StackTraceElement el : cause.getStackTrace()) {
            System.err.println("\tat " + el);
        }
        abort(rank, 1, "rank " + rank + " failed: " + cause);
        return new RankOutcome(rank, RankOutcome.Status.FAILED, cause.toString(), cause);
    }

    private Method findMain(ClassLoader loader) throws ReflectiveOperationException {
        Class<?> c = Class.forName(config.program().mainClass(), true, loader);
        Method m = c.getMethod("main", String[].class);
        if (!Modifier.isStatic(m.getModifiers())) {
            throw new NoSuchMethodException(config.program().mainClass() + ".main is not static");
        }
        m.setAccessible(true);
        return m;
    }

    // ---------------------------------------------------------------------------------------------
    // Failures

    /**
     * Kills the incarnation on its own side (a kill of its schedule, its crash): it stops at its next
     * runtime call, and the coordinator hears of it at once, so that ranks struck together are planned
     * together. Of several strikes at the same time (a scheduled kill, a rollback, its own crash) the
     * first one is recorded; the others change nothing.
     *
     * @return whether this call struck it (false: something else struck it first)
     */
    boolean markKilled(Incarnation inc, String how) {
        return markKilled(inc, how, null, true);
    }

    /**
     * As {@link #markKilled(Incarnation, String)}; {@code onStruck} (may be null) runs only if this call
     * struck it, before the strike is reported (a rank process reports it and does not return).
     */
    boolean markKilled(Incarnation inc, String how, Runnable onStruck) {
        return markKilled(inc, how, onStruck, true);
    }

    /**
     * Strikes the incarnation. {@code report}: tell the coordinator (false when the coordinator itself
     * asked for the strike: a rollback, a kill at a time).
     */
    private boolean markKilled(Incarnation inc, String how, Runnable onStruck, boolean report) {
        long now = System.nanoTime();
        Strike s = new Strike(now, how, inc.agent.points(), inc.engine.operations());
        if (!inc.strike.compareAndSet(null, s)) {
            return false;
        }
        if (onStruck != null) {
            onStruck.run();
        }
        inc.transition(IncarnationState.KILLED, now, how);
        if (report) {
            // A rank process is killed from outside, as a real crash is: its emit does not return.
            rankEvents.emit(new RankEvent.Struck(inc.rank, inc.number, s.nanos(), how, s.points(), s.operations()));
        }
        inc.goneIfDone();
        return true;
    }

    /**
     * Coordinator: a rank event, taken by the coordinator (the observer told first). A rank thread
     * shares this JVM's clock, so the event is timed where it happened.
     */
    private void take(RankEvent event) {
        observer.emit(event);
        coordinator.step(event, event.at());
    }

    /** A kill of the schedule fired in the incarnation (a rank process tells its launcher). */
    void onKillFired(Incarnation inc, FailureSchedule.Kill kill) {
        rankEvents.emit(new RankEvent.KillFired(inc.rank, inc.number, System.nanoTime(), kill));
    }

    /** The incarnation struck ({@code how}) where it is now. */
    private static RankEvent.Struck struck(Incarnation inc, String how) {
        return new RankEvent.Struck(
                inc.rank, inc.number, System.nanoTime(), how, inc.agent.points(), inc.engine.operations());
    }

    private void checkAlive(Incarnation inc) {
        // Struck counts as dead from the moment the strike is recorded, before the state moves: a
        // thread of the incarnation that passed this check in between could send, numbering a frame
        // its successor numbers differently (seen with two non-blocking collectives in flight).
        if (inc.exited.get() && OutputRouter.boundTo(inc.slot.output)) {
            holdForGood(inc); // its program exited, caught the error that unwinds it, and called again
        }
        if (inc.stopped() || inc.strike() != null) {
            // Only the rank's own threads (its program's) are held; a runtime thread that calls in for
            // it is told each time.
            if (!inc.toldToStop.add(Thread.currentThread()) && OutputRouter.boundTo(inc.slot.output)) {
                holdForGood(inc); // the program caught the error and called again
            }
            throw new RankKilledError(
                    inc.rank,
                    inc.number,
                    inc.strike() == null ? "retired" : inc.strike().reason());
        }
        JobAbortedException a = abort.get();
        if (a == null && supervisor != null && (a = supervisor.jobAbort()) != null) {
            abort.compareAndSet(null, a);
        }
        if (a != null) {
            throw new JobAbortedException(a.abortingRank(), a.errorCode(), a.getMessage());
        }
    }

    /**
     * A thread of rank {@code context}'s program called {@code System.exit(status)} ({@link RankExit}). In a
     * rank process before {@code MPI.Finalize} the process exits with that status. Otherwise the first
     * call ends the rank as {@code mpirun} treats a process's end: status 0 after
     * {@code MPI.Finalize} is its normal end (it then serves its peers until the job ends); any other ends
     * the job with that status (1 for 0 before {@code MPI.Finalize}). The calling thread is then unwound;
     * a thread of the rank that goes on (having caught that) is held at its next runtime call. A thread of
     * an incarnation that crashed or was stopped is held at once. {@code halt}: the call was {@code
     * Runtime.halt}. Does not return.
     */
    void programExit(RankContext context, int status, boolean halt) {
        if (supervisor != null && !context.isFinalized()) {
            // A rank process before MPI.Finalize: the process ends with that status, as the program's own
            // call would end it, and its agent reports it; the launcher ends the job with it (a process
            // that ends itself is not a crash).
            if (halt) {
                Runtime.getRuntime().halt(status);
            }
            Runtime.getRuntime().exit(status);
        }
        Incarnation inc = slots[context.rank()].current;
        if (inc == null || inc.context() != context || !inc.live() || !inc.exited.compareAndSet(false, true)) {
            if (inc != null && inc.context() == context) {
                holdForGood(inc); // crashed, stopped, or exited before: a crash is recovered from here
            }
            parkForGood(); // a thread of an incarnation already replaced
        }
        int rank = context.rank();
        boolean normal = status == 0 && context.isFinalized();
        String how = "called System.exit(" + status + ")" + (context.isFinalized() ? "" : " before MPI.Finalize");
        if (!normal) {
            abort(rank, status == 0 ? 1 : status, "rank " + rank + " " + how);
        }
        endedByExit(
                inc,
                normal
                        ? new RankOutcome(rank, RankOutcome.Status.COMPLETED, "", null)
                        : new RankOutcome(rank, RankOutcome.Status.FAILED, how, null));
        throw new RankExit.ExitError(rank, status);
    }

    /**
     * A thread of a stopped incarnation called the runtime again after it was told to stop: its program
     * caught the {@link RankKilledError} (a {@code catch (Throwable t)} around its calls, say) and goes
     * on. A process would be dead by now, and no thread can be made to end from outside, so the thread
     * is held here for good, a daemon that does nothing more. Held in its program's own thread, the
     * incarnation counts as ended, and its crash is recovered as if that thread had ended. Never
     * returns.
     */
    private void holdForGood(Incarnation inc) {
        if (Thread.currentThread() == inc.thread && !inc.isGone()) {
            inc.slot.output.dropPartial();
            OutputRouter.unbind();
            InputRouter.unbind();
            if (inc.strike() != null && supervisor != null) {
                supervisor.emit(struck(inc, "crashed")); // a rank process goes no further
            }
            inc.goneNow();
        }
        parkForGood();
    }

    /** The calling thread does nothing more, a daemon parked until the JVM ends. */
    private void parkForGood() {
        while (true) {
            LockSupport.park(this);
        }
    }

    /**
     * Coordinator: an incarnation is gone, struck (its thread ended with the strike, or is held for
     * good): what it held is released, and the coordinator decides what follows.
     */
    private void onDown(Incarnation inc) {
        retire(inc);
        Strike strike = inc.strike();
        coordinator.down(inc.rank, inc.number, DownCause.crashed(strike == null ? "crashed" : strike.reason()));
    }

    /**
     * Coordinator: an incarnation made for a start is reachable; once no rank is still being made, the
     * threads of every ready one start together (so none sends to a peer that does not exist yet).
     */
    private void onReady(Incarnation inc) {
        if (!coordinator.ready(inc.rank, inc.number) || coordinator.anyStarting() || finished) {
            return;
        }
        for (RankSlot s : slots) {
            Incarnation next = s.current;
            if (coordinator.life(s.rank) != RankLife.READY) {
                continue;
            }
            coordinator.respawned(s.rank, next.number);
            coordinator.running(s.rank, next.number);
            next.thread.start();
            if (next.number > 0) {
                maybeCaughtUp(next, 0);
            }
        }
    }

    /** Arms the kills due at a time: each strikes the rank's incarnation running then. */
    private void scheduleTimeKills() {
        for (FailureSchedule.Kill k : coordinator.pendingKills()) {
            if (k.trigger() == FailureSchedule.Trigger.TIME) {
                timers.schedule(() -> coordinatorQueue.add(() -> timeKill(k)), k.value(), TimeUnit.MILLISECONDS);
            }
        }
    }

    /** A kill at a time that finds the rank between incarnations is tried again a moment later. */
    private void timeKill(FailureSchedule.Kill k) {
        if (!coordinator.timeKill(k)) {
            timers.schedule(() -> coordinatorQueue.add(() -> timeKill(k)), 1, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Strikes the incarnation for the coordinator, and aborts the job with {@code failure} (such as "did
     * not stop for the rollback") if it is not gone within the stop grace: a thread cannot be ended from
     * outside, and one that never calls the runtime again would be waited for for ever.
     */
    private void stopWithinGrace(Incarnation inc, String how, String failure) {
        markKilled(inc, how, null, false);
        LockSupport.unpark(inc.thread);
        if (!inc.started()) {
            inc.goneNow(); // made for a start, never run: nothing to wait for
            return;
        }
        timers.schedule(
                () -> coordinatorQueue.add(() -> {
                    if (!inc.isGone() && abort.get() == null) {
                        abort(inc.rank, 1, "rank " + inc.rank + " " + failure + whereStuck(inc.thread));
                    }
                }),
                config.limits().stopGrace().toNanos(),
                TimeUnit.NANOSECONDS);
    }

    /** The in-JVM job's side of the coordinator's commands. Coordinator thread only. */
    private final class ThreadCommands implements CoordinatorHost {
        @Override
        public void start(int rank, int incarnation, long line) {
            RankSlot s = slots[rank];
            CheckpointImage image = incarnation == 0 && resumeImages != null
                    ? resumeImages[rank]
                    : line > 0
                            ? store.loadWithChannelState(rank, line, why -> System.err.println("rewind: " + why))
                            : null;
            Incarnation inc = prepare(s, incarnation, image, coordinator.killsFiredBy(rank));
            inc.catchUpTarget = coordinator.catchUpPoints(rank);
            // From the beginning, where it crashed is counted in operations (a program without the
            // checkpoint API passes no point).
            inc.catchUpOperations = coordinator.catchUpOperations(rank);
            coordinatorQueue.add(() -> onReady(inc));
        }

        @Override
        public void stop(int rank, int incarnation) {
            Incarnation inc = slots[rank].current;
            if (inc.number == incarnation) {
                stopWithinGrace(inc, "rolled back", "did not stop for the rollback");
            }
        }

        @Override
        public void strike(int rank, int incarnation, FailureSchedule.Kill kill) {
            Incarnation inc = slots[rank].current;
            if (inc.number == incarnation) {
                String how = kill == null ? "crashed" : "killed at " + kill.value() + " ms (" + kill + ")";
                stopWithinGrace(inc, how, "did not stop after its crash");
            }
        }

        @Override
        public void peersChanged() {
            // A rank's endpoint goes with its incarnation (retire): what is sent to it meanwhile is
            // dropped, as a dead process's inbound traffic is.
        }

        @Override
        public void discardAfter(int rank, long line) {
            store.discardAfter(rank, line);
        }

        @Override
        public void keepFrom(long line) {
            if (line > 0) {
                store.keepFrom(line);
            }
        }

        @Override
        public void aborted(int rank, int errorCode, String reason) {
            abort(rank, errorCode, reason);
        }

        @Override
        public io.rewind.ft.logger.LoggerNodes.Rollback sendersToRollBack(Set<Integer> planned) {
            return loggers == null ? io.rewind.ft.logger.LoggerNodes.Rollback.NONE : loggers.sendersToRollBack(planned);
        }

        @Override
        public long newestCommonLine(java.util.Collection<Integer> ranks, long atMost) {
            return store.newestCommonLine(ranks, atMost, why -> System.err.println("rewind: " + why));
        }

        @Override
        public void pruning(boolean held) {
            if (held && !pruningHeld) {
                store.holdPruning();
            } else if (!held && pruningHeld) {
                store.allowPruning();
            }
            pruningHeld = held;
        }

        @Override
        public String describeWait(int rank) {
            Incarnation inc = slots[rank].current;
            return describe(inc);
        }

        @Override
        public void note(String line) {
            System.err.println(line);
        }
    }

    /**
     * At the time limit or a stall ({@code when} says which), before the abort: where each rank that has
     * not ended is (its incarnation, its queues, the top of its thread's stack), so that a job that
     * stopped making progress says where.
     */
    private void describeWhereRanksWait(String when) {
        for (RankSlot s : slots) {
            Incarnation inc = s.current;
            if (inc == null || coordinator.outcome(s.rank) != null || inc.thread == null || inc.isGone()) {
                continue;
            }
            System.err.println("rewind: " + when + ", " + describe(inc));
        }
    }

    /** Where an incarnation is: its state, its queues, the top of its thread's stack. */
    private static String describe(Incarnation inc) {
        StringBuilder b = new StringBuilder("rank ")
                .append(inc.rank)
                .append(" (incarnation ")
                .append(inc.number)
                .append(", ")
                .append(inc.state())
                .append(", ")
                .append(inc.engine.operations())
                .append(" operations, ")
                .append(inc.engine.mailbox().postedCount())
                .append(" receives posted, ")
                .append(inc.engine.mailbox().unexpectedCount())
                .append(" messages queued:")
                .append(inc.engine.mailbox().describeQueues(TIME_LIMIT_ENVELOPES))
                .append(") is at:");
        StackTraceElement[] stack = inc.thread.getStackTrace();
        for (int i = 0; i < Math.min(stack.length, TIME_LIMIT_FRAMES); i++) {
            b.append("\n\tat ").append(stack[i]);
        }
        return b.toString();
    }

    /** Posted receives and queued frames of each rank printed at the time limit. */
    private static final int TIME_LIMIT_ENVELOPES = 6;

    /** Frames of each rank's stack printed at the time limit. */
    private static final int TIME_LIMIT_FRAMES = 14;

    /** Releases what an incarnation held: endpoint, queues, payload log. */
    private void retire(Incarnation inc) {
        if (!inc.transition(IncarnationState.RETIRED, System.nanoTime(), "released")) {
            return; // retired before
        }
        report.traffic(inc.rank, inc.engine.traffic(), inc.engine.operations());
        if (transport instanceof InJvmTransport local) {
            local.detach(inc.rank, inc.engine.mailbox());
        }
        inc.engine.mailbox().close();
        if (coordinator != null && inc.number > 0) {
            // Known when it ends: a replay may go on after the rank caught up. On the coordinator's
            // thread, so taken at once, before a next incarnation makes this one's stale.
            Mailbox mailbox = inc.engine.mailbox();
            long now = System.nanoTime();
            take(new RankEvent.Released(
                    inc.rank,
                    inc.number,
                    now,
                    inc.protocol.replayedToThisRank(),
                    mailbox.peakUnexpectedCount(),
                    mailbox.peakUnexpectedBytes()));
        }
        report.finalLog(inc.rank, inc.protocol.logStatistics());
        long[] collectives = inc.protocol.collectiveLogFigures();
        report.collectiveLog(collectives[0], collectives[1]);
        report.determinants(inc.protocol.determinantFigures());
        inc.protocol.close();
        inc.loader.close();
    }

    // ---------------------------------------------------------------------------------------------
    // Callbacks from checkpoint agents (rank threads)

    void onRestored(Incarnation inc, long line, long nanos) {
        rankEvents.emit(new RankEvent.Restored(inc.rank, inc.number, System.nanoTime(), line, nanos));
    }

    void onPoint(Incarnation inc, long points) {
        maybeCaughtUp(inc, points);
    }

    /** Called at every communication operation of an incarnation that needs it (on its threads). */
    private void onOperation(Incarnation inc, long operations) {
        if (inc.catchUpOperations > 0 && !inc.caughtUp && operations >= inc.catchUpOperations) {
            caughtUp(inc);
        }
        inc.injector.atOperation(inc, operations);
    }

    private void maybeCaughtUp(Incarnation inc, long points) {
        if (inc.catchUpOperations == 0 && points >= inc.catchUpTarget) {
            caughtUp(inc);
        }
    }

    private void caughtUp(Incarnation inc) {
        // Entered once (phases only move forward); the flag spares later operations the lock.
        if (inc.caughtUp) {
            return;
        }
        inc.caughtUp = true;
        if (inc.number == 0) {
            return; // not a restart
        }
        Mailbox mailbox = inc.engine.mailbox();
        long replayed = inc.protocol.replayedToThisRank();
        int peak = mailbox.peakUnexpectedCount();
        long peakBytes = mailbox.peakUnexpectedBytes();
        rankEvents.emit(new RankEvent.CaughtUp(inc.rank, inc.number, System.nanoTime(), replayed, peak, peakBytes));
    }

    void onCheckpoint(
            Incarnation inc,
            long line,
            Map<Long, Long> frontiers,
            Map<Long, Long> sent,
            long[] events,
            long bytes,
            long nanos) {
        if (inc.state() == IncarnationState.KILLED) {
            return; // crashed or being rolled back: a plan made meanwhile restarts it from an older line
        }
        long at = System.nanoTime();
        if (supervisor != null) {
            // A rank process's own view of the job's lines (its launcher's coordinator keeps the job's).
            lines.published(inc.rank, line, frontiers, events, sent);
            protocol.onCheckpoint(inc.rank, line, frontiers);
        }
        inc.protocol.wroteLine(line);
        inc.protocol.afterCheckpoint();
        // The coordinator counts the line, unless a plan made before it heard of it rolls the rank back
        // (RecoveryCoordinator.countsLinesOf). The others trim their logs only by what it counts.
        rankEvents.emit(new RankEvent.Checkpointed(
                inc.rank, inc.number, at, line, frontiers, sent, events, bytes, nanos, List.of(), new long[0]));
    }

    /**
     * The incarnation keeps, durably with {@code line}, the messages in transit across it up to these
     * sequence numbers per channel. What a rank being rolled back reports no longer counts, as with its
     * lines.
     */
    void onInTransitKept(Incarnation inc, long line, Map<Long, Long> upTo) {
        if (inc.state() == IncarnationState.KILLED) {
            return;
        }
        if (supervisor != null) {
            lines.keptInTransit(inc.rank, line, upTo); // the process's own view, as with its lines
        }
        rankEvents.emit(new RankEvent.KeptInTransit(inc.rank, inc.number, System.nanoTime(), line, upTo));
    }

    // ---------------------------------------------------------------------------------------------
    // Abort

    /**
     * Where a rank thread that should have stopped is, for the report: the top of its stack, or its
     * state if it has none (it ended, or never started, between the wait and this call).
     */
    private static String whereStuck(Thread thread) {
        StackTraceElement[] stack = thread.getStackTrace();
        if (stack.length == 0) {
            return " (thread " + thread.getName() + " is " + thread.getState() + ")";
        }
        StringBuilder b = new StringBuilder(", at");
        for (int i = 0; i < Math.min(STUCK_FRAMES, stack.length); i++) {
            b.append(i == 0 ? " " : " <- ").append(stack[i]);
        }
        return b.toString();
    }

    /** The first abort wins; every rank's waits notice it within one park slice, sooner if woken. */
    void abort(int rank, int errorCode, String reason) {
        if (abort.compareAndSet(null, new JobAbortedException(rank, errorCode, reason))) {
            // Wakes the coordinator, which then stops coordinating; what it decides from now on (a rank
            // going down is over, not recovered) knows of the abort.
            if (rank < 0) {
                coordinatorQueue.add(() -> coordinator.abort(rank, errorCode, reason)); // this host's own
            } else {
                Incarnation inc = slots[rank] == null ? null : slots[rank].current;
                rankEvents.emit(new RankEvent.AbortRequested(
                        rank, inc == null ? 0 : inc.number, System.nanoTime(), errorCode, reason));
            }
            for (RankSlot s : slots) {
                if (s != null && s.current != null && s.current.thread != null) {
                    LockSupport.unpark(s.current.thread);
                }
            }
        }
    }

    /** One rank across its incarnations. */
    private static final class RankSlot {
        final int rank;
        final OutputRouter.RankOutput output;
        final InputRouter.RankInput input;
        volatile Incarnation current;
        /** How the rank of a rank process ended (an in-JVM job's coordinator keeps its ranks' outcomes). */
        volatile RankOutcome outcome;

        RankSlot(int rank, OutputRouter.RankOutput output, InputRouter.RankInput input) {
            this.rank = rank;
            this.output = output;
            this.input = input;
        }
    }

    /** One life of a rank: from its start (or respawn) to its end or crash. */
    static final class Incarnation {
        final RankSlot slot;
        final int rank;
        final int number;
        RankEngine engine;
        RankProtocol protocol;
        CheckpointAgent agent;
        /** The kills of the schedule this incarnation fires itself. */
        FailureInjector injector;
        /** Told once the incarnation is gone and struck (null: nobody, in a rank process). */
        Consumer<Incarnation> whenDown;

        private final java.util.concurrent.atomic.AtomicBoolean downTold =
                new java.util.concurrent.atomic.AtomicBoolean();
        RankClassLoader loader;
        Thread thread;
        Map<Long, Long> restoredFrontiers;
        /** The current state, since when and why; replaced whole by {@link #transition}. */
        private final AtomicReference<StateEntry> state =
                new AtomicReference<>(new StateEntry(IncarnationState.STARTING, System.nanoTime(), "prepared"));
        /** How it was struck, set once (the first strike wins) before it enters KILLED. */
        private final AtomicReference<Strike> strike = new AtomicReference<>();
        /**
         * Counted down when the incarnation's thread has ended, or has been held for good after its
         * program swallowed the error that told it it had crashed ({@link #holdForGood}).
         */
        final java.util.concurrent.CountDownLatch gone = new java.util.concurrent.CountDownLatch(1);
        /** Threads of the incarnation already told that it crashed or was stopped. */
        final Set<Thread> toldToStop = java.util.concurrent.ConcurrentHashMap.newKeySet();
        /** Its program called {@code System.exit} ({@link RankExit}): it has ended, whatever its threads do. */
        final java.util.concurrent.atomic.AtomicBoolean exited = new java.util.concurrent.atomic.AtomicBoolean();
        /** For a restart from the beginning: the operation count at which it is back where it crashed. */
        long catchUpOperations;

        long catchUpTarget;
        volatile boolean caughtUp;

        Incarnation(RankSlot slot, int rank, int number) {
            this.slot = slot;
            this.rank = rank;
            this.number = number;
        }

        RankContext context() {
            return loader.context();
        }

        IncarnationState state() {
            return state.get().state();
        }

        /** How it was struck, or null if it was not. */
        Strike strike() {
            return strike.get();
        }

        /** Whether it was killed or retired: its threads must stop. */
        boolean stopped() {
            return state().stopped();
        }

        /** Whether its program's thread has ended, or is held for good. */
        boolean isGone() {
            return gone.getCount() == 0;
        }

        /** Whether its thread was started (one made for a restart the job ended before may never be). */
        boolean started() {
            return thread.getState() != Thread.State.NEW;
        }

        /** Its program's thread has ended, or is held for good. */
        void goneNow() {
            gone.countDown();
            goneIfDone();
        }

        /**
         * Once it is both gone and struck (in either order: a finished rank serving its peers may be
         * struck after its program's thread ended), {@link #whenDown} is told, once.
         */
        void goneIfDone() {
            if (isGone() && strike() != null && whenDown != null && downTold.compareAndSet(false, true)) {
                whenDown.accept(this);
            }
        }

        /** Whether it may still act: neither struck nor stopped. What it prints after that is not shown. */
        boolean live() {
            return strike() == null && !stopped() && !exited.get();
        }

        /**
         * The one way its state changes: to {@code next} if the current state allows it (by compare
         * and set, so of two threads striking at once exactly one wins), recording when and why.
         * False if the move is not allowed (it is already there, or past it).
         */
        boolean transition(IncarnationState next, long nowNanos, String reason) {
            StateEntry entry = new StateEntry(next, nowNanos, reason);
            while (true) {
                StateEntry current = state.get();
                if (!current.state().canMoveTo(next)) {
                    return false;
                }
                if (state.compareAndSet(current, entry)) {
                    return true;
                }
            }
        }

        /** Where the rank prints, across its incarnations. */
        OutputRouter.RankOutput output() {
            return slot.output;
        }

        InputRouter.RankInput input() {
            return slot.input;
        }

        @Override
        public String toString() {
            StateEntry e = state.get();
            return "rank " + rank + "." + number + " " + e.state() + " (" + e.reason() + ")";
        }
    }

    /** A state an incarnation entered, when ({@code System.nanoTime()}) and why. */
    record StateEntry(IncarnationState state, long sinceNanos, String reason) {}
}
