package io.rewind.launch;

import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointStore;
import io.rewind.ft.EventLogger;
import io.rewind.ft.Protocol;
import io.rewind.ft.RecoveryLines;
import io.rewind.launch.liveness.PeerWatch;
import io.rewind.runtime.CommunicatorRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobEnd;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.OutputRouter;
import io.rewind.runtime.RankOutcome;
import io.rewind.runtime.ResumePoint;
import io.rewind.runtime.RunRecordWriter;
import io.rewind.runtime.RunReport;
import io.rewind.runtime.coordinator.Command;
import io.rewind.runtime.coordinator.DownCause;
import io.rewind.runtime.coordinator.RankLife;
import io.rewind.runtime.coordinator.RecoveryCoordinator;
import io.rewind.runtime.coordinator.StoredLines;
import io.rewind.runtime.rank.CheckpointAgent;
import io.rewind.runtime.rank.RankEvent;
import io.rewind.runtime.rank.RankEventSink;
import io.rewind.runtime.rank.RankImage;
import io.rewind.runtime.watch.Announcer;
import io.rewind.runtime.watch.JobObserver;
import io.rewind.runtime.watch.WaitReport;
import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs a job whose ranks are processes: the launcher. It starts one agent per node, has each rank's
 * process started by the agent of the node it is placed on, serves the job-level services (event
 * logger, recovery lines, communicator creation) over the control links, and coordinates recovery:
 * a rank process that dies (SIGKILL, a crash, its node lost) is detected by its agent at once, the
 * protocol plans the recovery ({@link Protocol#plan}), and the ranks it names are killed if still
 * running and started again from their recovery line, while the others keep their state and serve
 * replay to them over TCP.
 *
 * <p>Everything the coordinator decides runs in one thread, {@code rewind-launcher}, taking the
 * tasks the link readers post; only the service requests are answered in the readers themselves.
 */
public final class ProcessJob {
    private static final long AGENT_START_SECONDS = 60;
    /** Times the event logger process may die before the job is given up. */
    private static final int MAX_EVENT_LOGGER_RESTARTS = 5;

    private final JobConfig config;
    private final Launch launch;
    /** Told every rank event the coordinator takes, before it does, and of every failure and recovery. */
    private JobObserver observer = JobObserver.NONE;

    private final Protocol protocol;
    /** The event logger process (null: the protocol records no determinants), and its address. */
    private Process eventLogger;
    /** The job's logger processes (none without --loggers), their addresses once they said hello. */
    private final List<Process> loggerProcesses = new ArrayList<>();

    private Messages.LoggerAt[] loggerAt = new Messages.LoggerAt[0];
    private Link[] loggerLinks = new Link[0];
    private Requests[] loggerRequests = new Requests[0];
    private boolean[] loggerDead = new boolean[0];
    /** Per rank, the destinations of its messages only dead loggers held (its process said so). */
    private final Map<Integer, int[]> lostAtLoggers = new java.util.TreeMap<>();
    /** Per rank, the dump figures of each incarnation that reported them. */
    private final Map<Integer, List<long[]>> dumpWords = new java.util.TreeMap<>();

    private final List<String> loggerDeaths = new ArrayList<>();
    private final List<Map<String, Object>> senderRollbacks = new ArrayList<>();

    private Messages.EventLoggerAt eventLoggerAt;
    private int eventLoggerRestarts;
    private volatile Requests eventLoggerRequests;
    private long[] eventLoggerFigures;
    private final RecoveryLines lines;
    private final CommunicatorRegistry communicators = new CommunicatorRegistry();
    private final RunReport.Builder report;
    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    /** The event logger's journal lives here; null for a protocol without one, so nothing is created. */
    private final Path jobDir;

    private final JobSecret secret;
    /** The checkpoint folder every node shares (null: each node keeps its own, with partner copies). */
    private final Path sharedCheckpointDir;

    private final HeldLines held;
    /** The job's standard input, which rank 0 reads through this launcher. */
    private final io.rewind.runtime.JobInput input;

    private final JobSpec spec;
    private final Slot[] slots;
    /** Set once the agents are told to shut down: the heartbeat thread stops watching them. */
    private volatile boolean agentsReleased;

    /** Filled once, by startAgents; read by link readers and the heartbeat thread too. */
    private final List<Agent> agents = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The kills of the schedule, node losses and freezes among them. */
    private final List<FailureSchedule.Kill> kills;

    private LinkServer server;
    private long startNanos;
    private RunRecordWriter record;
    /** Every decision on the ranks: what this launcher carries out. */
    private RecoveryCoordinator coordinator;

    private int peersEpoch;
    private final Set<Integer> awaitingPeers = new HashSet<>();
    private boolean timedOut;

    private ProcessJob(JobConfig given, Launch launch) throws IOException {
        this.launch = launch;
        this.protocol = given.faultTolerance().protocol().create();
        // Option values that depend on placement (one cluster per node, say) are fixed at the start,
        // from the first placement, and travel to every rank process as fixed.
        this.config = given.toBuilder()
                .protocolOptions(given.faultTolerance()
                        .protocol()
                        .placed(given.faultTolerance().protocolOptions(), () -> launch.place(given.ranks())))
                .build();
        this.lines = new RecoveryLines(config.ranks(), config.faultTolerance().keepLines());
        // The protocol's ranks reach the event logger process; the launcher records nothing.
        protocol.start(
                config.protocolServices(new EventLogger(config.ranks())::clientFor, lines, protocol::onReport, null));
        this.report = new RunReport.Builder(config);
        this.jobDir = protocol.logsDeterminants() ? Files.createTempDirectory("rewind-job-") : null;
        this.secret = JobSecret.generate();
        this.sharedCheckpointDir = config.faultTolerance().checkpointDir() == null
                ? null
                : Files.createDirectories(config.faultTolerance().checkpointDir())
                        .toAbsolutePath();
        this.held = new HeldLines(config.ranks(), config.faultTolerance().keepLines(), sharedCheckpointDir != null);
        this.input = io.rewind.runtime.JobInput.forJob(config);
        this.spec = JobSpec.of(config);
        this.slots = new Slot[config.ranks()];
        int[] nodeOf = launch.place(config.ranks());
        for (int r = 0; r < slots.length; r++) {
            slots[r] = new Slot(
                    r,
                    nodeOf[r],
                    new OutputRouter.RankOutput(
                            r,
                            config.output().tagOutput(),
                            config.output().out(),
                            config.output().err()));
        }
        this.kills = new ArrayList<>(config.faultTolerance().failures().kills());
        kills.addAll(launch.nodeLoss().kills());
        kills.addAll(launch.nodeFreeze().kills());
    }

    /**
     * A job given a shared folder: starts afresh there, or, resuming a run that died whole, has every
     * rank start from the newest line all of them hold, as if each had just written it.
     */
    private long resumeFrom(CheckpointStore store) {
        long line = ResumePoint.prepare(config, store);
        if (line == 0) {
            return 0;
        }
        for (Slot s : slots) {
            CheckpointImage image =
                    store.loadWithChannelState(s.rank, line, why -> System.err.println("rewind: " + why));
            Map<Long, Long> frontiers = RankImage.frontiers(image);
            long[] output = CheckpointAgent.outputPosition(image);
            held.written(s.rank, line, List.of(), output);
            coordinator.resumedFrom(s.rank, line, frontiers, RankImage.events(image), RankImage.sent(image));
            s.output.rewindTo(output);
        }
        return line;
    }

    // ---------------------------------------------------------------------------------------------
    // The event logger process

    /**
     * Agents and logger processes map the rank processes' class-data archive when there is one, and
     * never write it: they are ended by force at the end of a job, which could cut a write short.
     */
    private static List<String> mappedArchive() {
        return ClassDataArchive.of(JvmCommand.java(), JvmCommand.classPath()).mapOptions();
    }

    /** Starts (or, after it died, starts again on the same journal) the job's event logger process. */
    private void startEventLogger() {
        List<String> cmd = new ArrayList<>(
                JvmCommand.of(JvmCommand.java(), JvmCommand.classPath(), EventLoggerProcess.class, mappedArchive()));
        cmd.addAll(List.of(
                "--head",
                launch.mode().launcherHost() + ":" + server.port(),
                "--secret-file",
                "-",
                "--ranks",
                Integer.toString(config.ranks()),
                "--journal",
                jobDir.resolve("events.journal").toString(),
                "--bind",
                launch.mode().listenAddress() != null ? "local" : "all"));
        try {
            Process p = start(cmd);
            eventLogger = p;
            eventLoggerAt = null;
            p.onExit().thenRun(() -> tasks.add(() -> onEventLoggerExit(p)));
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the event logger: " + e.getMessage(), e);
        }
    }

    private void onEventLoggerHello(Link link, Messages.EventLoggerHello h) {
        if (eventLogger == null || eventLogger.pid() != h.pid()) {
            link.close(); // not the process this launcher started last
            return;
        }
        boolean restarted = eventLoggerAt == null && eventLoggerRestarts > 0;
        eventLoggerRequests = new Requests(link);
        // Ranks reach it as they reach this launcher: on this host, by the name they were given.
        eventLoggerAt = new Messages.EventLoggerAt(launch.mode().reachedAs(h.host()), h.port());
        if (restarted) {
            System.err.println("rewind: event logger restarted as process " + h.pid() + " (read back " + h.recovered()
                    + " entries from its journal)");
            broadcast(eventLoggerAt);
        }
    }

    /** The event logger died: another takes over its journal, and the ranks send it what waited. */
    private void onEventLoggerExit(Process p) {
        if (p != eventLogger || coordinator.aborted() || coordinator.allEnded()) {
            return;
        }
        if (++eventLoggerRestarts > MAX_EVENT_LOGGER_RESTARTS) {
            abort(-1, 1, "the event logger died " + eventLoggerRestarts + " times");
            return;
        }
        System.err.println("rewind: the event logger (process " + p.pid() + ") died with status " + p.exitValue()
                + "; starting another on its journal");
        eventLoggerRequests = null;
        startEventLogger();
    }

    /** The event logger's entries and bytes, for the report (zeros without one, or if it cannot say). */
    private long[] eventLogFigures() {
        if (eventLoggerFigures != null) {
            return eventLoggerFigures;
        }
        long[] figures = new long[2];
        Requests r = eventLoggerRequests;
        if (r != null && eventLogger != null && eventLogger.isAlive()) {
            try {
                figures = (long[]) r.send(new Messages.EventLogFigures()).get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                System.err.println("rewind: the event logger did not report its figures: " + e);
            }
        }
        eventLoggerFigures = figures;
        return figures;
    }

    // ---------------------------------------------------------------------------------------------
    // Logger processes

    /**
     * Starts the job's logger processes on this host (like the event logger; ranks on other hosts reach
     * them by this host's name). A logger that dies is not replaced: what it held is lost, and the ranks
     * that sent it roll back with a rank that needs it.
     */
    private void startLoggers() {
        io.rewind.ft.logger.LoggerConfig c = config.logging().loggers();
        int k = c.loggers();
        loggerAt = new Messages.LoggerAt[k];
        loggerLinks = new Link[k];
        loggerRequests = new Requests[k];
        loggerDead = new boolean[k];
        for (int i = 0; i < k; i++) {
            List<String> logger = new ArrayList<>(
                    JvmCommand.of(JvmCommand.java(), JvmCommand.classPath(), LoggerProcess.class, mappedArchive()));
            logger.addAll(List.of(
                    "--head",
                    launch.mode().launcherHost() + ":" + server.port(),
                    "--secret-file",
                    "-",
                    "--index",
                    Integer.toString(i),
                    "--capacity",
                    Long.toString(c.capacityBytes()),
                    "--die-at",
                    Long.toString(c.dieAtDump(i)),
                    "--folder",
                    c.folderOf(i) == null ? "-" : c.folderOf(i).toString()));
            String host = loggerHost(i);
            List<String> cmd = launch.mode().onNode(host, logger, "rewind-logger-" + i);
            try {
                Process p = start(cmd);
                loggerProcesses.add(p);
                int index = i;
                p.onExit().thenRun(() -> tasks.add(() -> onLoggerExit(index, p)));
            } catch (IOException e) {
                throw new IllegalStateException("cannot start logger " + i + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Where logger {@code i} runs with ranks on several hosts: the hosts named for loggers in turn, else
     * the nodes of the launch from the last one backwards (ranks fill the first nodes first).
     */
    private String loggerHost(int i) {
        List<String> hosts = config.logging().loggers().hosts();
        if (!hosts.isEmpty()) {
            return hosts.get(i % hosts.size());
        }
        List<Launch.Node> nodes = launch.nodes();
        return nodes.get(nodes.size() - 1 - (i % nodes.size())).name();
    }

    private void onLoggerHello(Link link, Messages.LoggerHello h) {
        int i = h.index();
        // On this machine the process is the one started; over ssh or srun that is the remote shell, so
        // the first hello for the index counts.
        boolean ours = i >= 0
                && i < loggerAt.length
                && loggerLinks[i] == null
                && (!launch.mode().ownsNodeProcesses() || loggerProcesses.get(i).pid() == h.pid());
        if (!ours) {
            link.close();
            return;
        }
        loggerLinks[i] = link;
        loggerRequests[i] = new Requests(link);
        loggerAt[i] = new Messages.LoggerAt(i, launch.mode().reachedAs(h.host()), h.port());
    }

    private void onLoggerExit(int i, Process p) {
        if (coordinator.aborted() || coordinator.allEnded() || loggerDead[i]) {
            return;
        }
        loggerDead[i] = true;
        String what = "logger " + i + " (process " + p.pid() + ") died with status " + p.exitValue();
        loggerDeaths.add(what);
        System.err.println("rewind: " + what + "; the ranks keep running, and what it alone held is sent again "
                + "by its senders if a rank that needs it fails");
        if (loggerAt[i] == null) {
            loggerAt[i] = new Messages.LoggerAt(i, "0.0.0.0", 0); // never came up: ranks find it dead
        }
    }

    /** The run record's {@code loggerNodes} object: what the ranks and the loggers reported. */
    private Map<String, Object> loggerRecord() {
        List<List<long[]>> words = new ArrayList<>();
        for (int r = 0; r < config.ranks(); r++) {
            words.add(dumpWords.getOrDefault(r, List.of()));
        }
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (int i = 0; i < loggerAt.length; i++) {
            long[] figures = null;
            if (!loggerDead[i] && loggerRequests[i] != null) {
                try {
                    figures = (long[])
                            loggerRequests[i].send(new Messages.LoggerFigures()).get(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    System.err.println("rewind: logger " + i + " did not report its figures: " + e);
                }
            }
            nodes.add(io.rewind.ft.logger.BlockStore.record(i, loggerDead[i] ? "DEAD" : "RUNNING", figures));
        }
        int lost = 0;
        for (int[] d : lostAtLoggers.values()) {
            lost += d.length;
        }
        return io.rewind.ft.logger.LoggerNodes.record(
                config.logging().loggers(), words, nodes, loggerDeaths, senderRollbacks, lost);
    }

    /** Runs the job to its end and reports how every rank ended, as {@code Job.run} does for threads. */
    public static JobResult run(JobConfig config, Launch launch) {
        return run(config, launch, event -> {});
    }

    /**
     * Runs the job to its end, as {@link #run(JobConfig, Launch)} does; {@code observer} is told every
     * rank event in the order the coordinator takes them, on the coordinator's thread (it must not
     * block), as {@code Job.run} tells it for threads; a {@link JobObserver} also hears of every failure
     * and recovery, and of the job's start and end.
     */
    public static JobResult run(JobConfig config, Launch launch, RankEventSink observer) {
        ProcessJob job;
        try {
            job = new ProcessJob(config, launch);
        } catch (IOException e) {
            throw new IllegalStateException("cannot prepare the job's folder: " + e.getMessage(), e);
        }
        job.observer = JobObserver.of(observer);
        try {
            return job.execute();
        } finally {
            job.cleanUp();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Life cycle

    private JobResult execute() {
        startNanos = System.nanoTime();
        record = new RunRecordWriter(config, startNanos);
        coordinator = new RecoveryCoordinator(
                protocol,
                lines,
                report,
                new NodeStorage(),
                System::nanoTime,
                slots.length,
                kills,
                config.limits().stallTimeout(),
                config.limits().stopGrace(),
                config.recordFile() == null ? null : record);
        observer = new Announcer(observer, slots.length, startNanos);
        coordinator.observe(observer);
        if (config.faultTolerance().notifies()) {
            coordinator.reportFailures(config.faultTolerance().spares());
        }
        observer.started(slots.length, startNanos);
        long resumeLine = sharedCheckpointDir == null
                ? 0
                : resumeFrom(new CheckpointStore(
                        sharedCheckpointDir, config.faultTolerance().keepLines()));
        long deadline = startNanos + config.limits().timeout().toNanos();
        try {
            // Agents on other hosts must reach the launcher: all interfaces unless everything is local.
            server = LinkServer.start(
                    "launcher",
                    launch.mode().listenAddress(),
                    secret,
                    Link.CONTROL_MESSAGE_BYTES,
                    LinkServer.readingWith(
                            this::onLinkMessage, (link, why) -> tasks.add(() -> onLinkClosed(link, why))));
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen for the job's processes: " + e.getMessage(), e);
        }
        startAgents();
        // Its own thread, not a task of the coordinator: a coordinator busy with a recovery must not make
        // the launcher look silent to the agents, nor hold up its judgement of them.
        Thread.ofPlatform().name("rewind-launcher-heartbeat").daemon(true).start(this::watchAgents);
        if (protocol.logsDeterminants()) {
            startEventLogger();
        }
        if (config.logging().loggers().enabled() && protocol.logsPayloads()) {
            startLoggers();
        }
        long agentDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AGENT_START_SECONDS);
        while ((agents.stream().anyMatch(a -> a.link == null)
                        || (eventLogger != null && eventLoggerAt == null)
                        || java.util.Arrays.stream(loggerAt).anyMatch(java.util.Objects::isNull))
                && !coordinator.aborted()) {
            if (!runOneTask(Math.min(deadline, agentDeadline))) {
                abort(
                        -1,
                        1,
                        "the node agents, the event logger and the loggers did not all start within "
                                + AGENT_START_SECONDS + " s");
            }
        }
        if (!coordinator.aborted()) {
            assignPartners();
            coordinator.startAll(resumeLine);
            carryOutCommands();
        }
        while (!coordinator.allEnded() && !coordinator.aborted()) {
            if (!runOneTask(deadline)) {
                timedOut = true;
                abort(-1, 1, "time limit of " + config.limits().timeout() + " exceeded");
            }
        }
        return finish();
    }

    /**
     * Runs the next task, waiting until {@code deadline}; false if the deadline passed first. Adds a log
     * sample to the run record whenever one is due.
     */
    private boolean runOneTask(long deadline) {
        long now = System.nanoTime();
        // The launcher's stall watch counts on the ranks' reports alone: idle or not, it is the same.
        coordinator.tick(now, true);
        carryOutCommands();
        long left = deadline - now;
        if (left <= 0) {
            return false;
        }
        Runnable task;
        try {
            task = tasks.poll(Math.min(left, Math.max(1, coordinator.nextTickNanos() - now)), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abort(-1, 1, "the job was interrupted");
            return true;
        }
        if (task != null) {
            try {
                task.run();
                carryOutCommands();
            } catch (RuntimeException e) {
                System.err.println("rewind: the launcher failed: " + e);
                e.printStackTrace();
                abort(-1, 1, "the launcher failed: " + e);
            }
        }
        return true;
    }

    /**
     * Coordinator: an event of a rank process, as its rank emitted it. The process's clock is not this
     * one's: the event is timed by its arrival. What this host keeps beside the coordinator (where lines
     * are held, the report's figures of a rank's end, what it sent so far) is taken here.
     */
    private void onRankEvent(RankEvent event) {
        long now = System.nanoTime();
        observer.emit(event);
        switch (event) {
            case RankEvent.Checkpointed c -> onCheckpointed(c, now);
            case RankEvent.Unrestorable u -> {
                System.err.println("rewind: rank " + u.rank() + "." + u.incarnation() + " cannot restart from line "
                        + u.line() + " (" + u.reason() + "): that line is not used again");
                held.unusable(u.rank(), u.line());
            }
            case RankEvent.Ended e -> onEnded(e, now);
            case RankEvent.Progress p -> {
                // A rank's progress as its current incarnation last reported it (an earlier one's is stale).
                coordinator.step(p, now);
                if (coordinator.isCurrent(p.rank(), p.incarnation())) {
                    slots[p.rank()].sentHeard = p.sent();
                }
            }
            default -> coordinator.step(event, now);
        }
    }

    /** Ends the job: every rank told, given the grace to end, then killed; the agents shut down. */
    private JobResult finish() {
        // The figures as the programs ended (each rank reports them with its end), before any process exits.
        coordinator.sampleLogs(System.nanoTime());
        if (coordinator.aborted()) {
            broadcast(new Messages.Aborted(
                    coordinator.abortingRank(), coordinator.abortCode(), coordinator.abortReason()));
        } else {
            broadcast(new Messages.Finished());
        }
        long grace = System.nanoTime() + config.limits().stopGrace().toNanos();
        while (anyProcessLeft() && System.nanoTime() < grace) {
            runOneTask(grace);
        }
        for (Slot s : slots) {
            if (coordinator.life(s.rank).exists()) {
                killProcess(s);
            }
        }
        // Told to shut down, an agent stops heartbeating while it waits for its ranks to go: it is not
        // to be judged from then on.
        agentsReleased = true;
        for (Agent a : agents) {
            if (a.link != null) {
                a.link.send(new Messages.Shutdown());
            }
        }
        for (Agent a : agents) {
            waitForExit(a.process, config.limits().stopGrace());
        }
        coordinator.reportKillsNotStruck();
        JobEnd.protocolFigures(report, protocol, loggerAt.length > 0 ? loggerRecord() : null);
        report.events(eventLogFigures()[0], eventLogFigures()[1]);
        List<RankOutcome> outcomes = new ArrayList<>();
        List<List<String>> output = new ArrayList<>();
        for (Slot s : slots) {
            s.output.flush();
            RankOutcome o = coordinator.outcome(s.rank);
            if (o == null) {
                o = timedOut
                        ? new RankOutcome(s.rank, RankOutcome.Status.TIMED_OUT, "still running at the time limit", null)
                        : new RankOutcome(s.rank, RankOutcome.Status.ABORTED, "stopped when the job was aborted", null);
            }
            outcomes.add(o);
            output.add(s.output.lines());
        }
        JobResult result = JobEnd.result(
                config,
                report,
                record,
                startNanos,
                outcomes,
                output,
                coordinator.abortReason(),
                coordinator.abortCode(),
                timedOut);
        observer.ended(result.ok());
        return result;
    }

    private boolean anyProcessLeft() {
        for (Slot s : slots) {
            if (coordinator.life(s.rank).exists()) {
                return true;
            }
        }
        return false;
    }

    private void cleanUp() {
        if (server != null) {
            server.close();
        }
        if (eventLogger != null) {
            eventLogger.destroyForcibly();
        }
        for (Process p : loggerProcesses) {
            p.destroyForcibly();
        }
        for (Agent a : agents) {
            if (a.process.isAlive()) {
                a.process.destroyForcibly();
            }
        }
        if (jobDir != null) {
            removeFolder(jobDir);
        }
        if (launch.sharedMemory() && launch.mode().ownsNodeProcesses()) {
            // The ranks' memory files on this host (other hosts' agents remove their own).
            io.rewind.transport.shm.ShmFolder.removeFolder(io.rewind.transport.shm.ShmFolder.root(), secret);
        }
        for (Agent a : agents) {
            if (a.lost) {
                removeLostFolder(a);
            }
        }
    }

    private static void removeFolder(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("rewind: could not remove " + folder + ": " + e.getMessage());
        }
    }

    /**
     * A lost node's folder goes with it: on this machine (agents as local processes) it is removed, as
     * the disk of a dead node would be out of reach; elsewhere it stays on that host until the next agent
     * there removes it ({@link NodeAgent}: a folder no live agent holds).
     */
    private void removeLostFolder(Agent a) {
        if (launch.mode().ownsNodeProcesses() && sharedCheckpointDir == null && a.folder != null) {
            Path folder = Path.of(a.folder);
            if (Files.exists(folder)) {
                removeFolder(folder);
            }
        }
    }

    private static void waitForExit(Process p, Duration grace) {
        try {
            if (!p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Agents and links

    /**
     * Starts the node agents, as the launch's mode places them (processes of this machine, over ssh one
     * per host, or with one srun across the allocation). Remote agents read the job's secret from their standard input, which this
     * process writes and closes: it never appears on a command line.
     */
    private void startAgents() {
        String head = launch.mode().launcherHost() + ":" + server.port();
        List<String> agentCommand =
                JvmCommand.of(JvmCommand.java(), JvmCommand.classPath(), NodeAgent.class, mappedArchive());
        List<String> common = new ArrayList<>(List.of(
                "--head",
                head,
                "--java",
                JvmCommand.java(),
                "--class-path",
                JvmCommand.classPath(),
                "--keep-lines",
                Integer.toString(config.faultTolerance().keepLines()),
                "--heartbeat-millis",
                Long.toString(launch.heartbeatTimeout().toMillis()),
                "--suspicion-threshold",
                Double.toString(launch.suspicionThreshold())));
        if (!launch.rankJvm().isEmpty()) {
            // One word on the agent's command line: it reaches an agent over ssh or srun unchanged.
            common.addAll(List.of("--rank-jvm", launch.rankJvm().encoded()));
        }
        if (observer.rankRecordings() != null) {
            common.addAll(List.of("--jfr-folder", observer.rankRecordings().toString()));
        }
        if (sharedCheckpointDir != null) {
            common.addAll(List.of("--checkpoint-dir", sharedCheckpointDir.toString()));
        } else if (launch.nodeCheckpointRoot() != null) {
            common.addAll(List.of("--node-checkpoint-root", launch.nodeCheckpointRoot()));
        }
        try {
            List<Process> started = launch.mode()
                    .startAgents(
                            launch.nodes(),
                            node -> {
                                List<String> cmd = new ArrayList<>(agentCommand);
                                cmd.addAll(common);
                                cmd.addAll(List.of("--node", node, "--secret-file", "-"));
                                return cmd;
                            },
                            this::start);
            for (int i = 0; i < started.size(); i++) {
                agents.add(new Agent(i, launch.nodes().get(i).name(), started.get(i)));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the node agents: " + e.getMessage(), e);
        }
    }

    /**
     * Starts a process of the job (an agent, directly or through ssh or srun, the event logger, a logger
     * process) and hands it the job's secret on its standard input: the secret is never in a file, so
     * nothing is left to read when a process of the job, the launcher included, is killed.
     */
    private Process start(List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        secret.handTo(p);
        return p;
    }

    /** In a link's reader: service requests are answered here, everything else goes to the coordinator. */
    private void onLinkMessage(Link link, Object m) {
        if (m instanceof Messages.Heartbeat) {
            return; // the link noted when it heard from the other end: that is all a heartbeat says
        }
        if (m instanceof Messages.Answer a) {
            // The services this launcher asks anything of: the event logger, and the loggers for figures.
            for (int i = 0; i < loggerLinks.length; i++) {
                if (loggerLinks[i] == link && loggerRequests[i] != null) {
                    loggerRequests[i].answered(a);
                    return;
                }
            }
            Requests r = eventLoggerRequests;
            if (r != null) {
                r.answered(a);
            }
            return;
        }
        if (m instanceof Messages.Request r) {
            serve(link, r);
        } else {
            if (m instanceof Messages.AgentHello h) {
                watch(link, h);
            }
            tasks.add(() -> handle(link, m));
        }
    }

    private void serve(Link link, Messages.Request r) {
        switch (r.body()) {
            case Messages.ProtocolReport p -> {
                long[] answer = protocol.onReport(p.rank(), p.incarnation(), p.words());
                link.send(new Messages.Answer(r.id(), answer, null));
            }
            case Messages.CreateCommunicator c -> communicators
                    .arrive(c.request())
                    .whenComplete((created, error) -> link.send(new Messages.Answer(
                            r.id(),
                            error == null ? new Messages.CommunicatorCreated(created) : null,
                            error == null ? null : error.getMessage())));
            case Messages.ReadInput in -> input.readAsync(in.offset(), in.max())
                    .thenAccept(bytes -> link.send(new Messages.Answer(r.id(), bytes, null)));
            default -> link.send(new Messages.Answer(r.id(), null, "unknown request " + r.body()));
        }
    }

    /** Coordinator: one message from an agent or a rank. */
    private void handle(Link link, Object m) {
        switch (m) {
            case Messages.EventLoggerHello h -> onEventLoggerHello(link, h);
            case Messages.LoggerHello h -> onLoggerHello(link, h);
            case Messages.LostAtLoggers l -> {
                if (coordinator.isCurrent(l.rank(), l.incarnation())) {
                    if (l.destinations().length == 0) {
                        lostAtLoggers.remove(l.rank());
                    } else {
                        lostAtLoggers.put(l.rank(), l.destinations());
                    }
                }
            }
            case Messages.DumpFigures d -> dumpWords
                    .computeIfAbsent(d.rank(), r -> new ArrayList<>())
                    .add(d.words());
            case Messages.AgentHello h -> {
                for (Agent a : agents) {
                    if (a.name.equals(h.node()) && a.link == null) {
                        a.host = h.host();
                        a.pid = h.pid();
                        a.storageHost = h.storageHost();
                        a.storagePort = h.storagePort();
                        a.folder = h.folder();
                        a.link = link;
                        break;
                    }
                }
            }
            case Messages.Spawned s -> {
                Slot slot = slots[s.rank()];
                if (coordinator.isCurrent(s.rank(), s.incarnation())) {
                    if (slot.pid > 0) {
                        System.err.println("rewind: rank " + slot.rank + ": process " + slot.pid
                                + " replaced by process " + s.pid() + " on " + agents.get(slot.node).name
                                + " (incarnation " + s.incarnation() + ")");
                    }
                    slot.pid = s.pid();
                    coordinator.respawned(s.rank(), s.incarnation());
                }
            }
            case Messages.Output o -> slots[o.rank()].output.write(
                    o.err(),
                    (o.line() + "\n").getBytes(StandardCharsets.UTF_8),
                    0,
                    o.line().length() + 1);
            case Messages.Exited e -> onExited(e);
            case Messages.RankHello h -> onRankHello(link, h);
            case Messages.Listening l -> onListening(l);
            case Messages.PeersApplied p -> {
                if (p.epoch() == peersEpoch && coordinator.isCurrent(p.rank(), p.incarnation())) {
                    awaitingPeers.remove(p.rank());
                    maybeGo();
                }
            }
            case RankEvent e -> onRankEvent(e);
            case Messages.Diagnostic d -> System.err.println("[" + d.rank() + "." + d.incarnation() + "] " + d.text());
            default -> System.err.println("rewind: launcher: unexpected message " + m);
        }
    }

    /**
     * In the reader of an agent's link, as it introduces itself: from now on the heartbeat thread
     * heartbeats and watches it. Not left to the coordinator, which may be busy starting the job: the
     * agent counts the launcher's silence from the moment it connected.
     */
    private void watch(Link link, Messages.AgentHello hello) {
        for (Agent a : agents) {
            if (a.name.equals(hello.node()) && a.watched == null) {
                a.pid = hello.pid();
                PeerWatch w = new PeerWatch(launch.watchSettings(), System::nanoTime);
                link.watchWith(w);
                a.watch = w;
                a.watched = link;
                link.send(new Messages.Heartbeat());
                return;
            }
        }
    }

    /**
     * The heartbeat thread: tells every live agent the launcher is here, five times a timeout, and judges
     * each by what its link hears ({@link PeerWatch}): a node whose heartbeats are late for their rhythm
     * is probed, and one silent past the timeout, or unanswering to its probe, is taken for lost (a host
     * that hangs, or that the network cut off, says nothing; only its silence tells). The loss itself
     * goes the way every lost node's goes: its link closes, and the coordinator hears it from the reader.
     */
    private void watchAgents() {
        PeerWatch.Settings settings = launch.watchSettings();
        long every = settings.checkEvery().toNanos();
        long beatEvery = settings.heartbeat().toNanos();
        long nextBeat = System.nanoTime();
        while (!server.isClosed() && !agentsReleased) {
            boolean beat = System.nanoTime() - nextBeat >= 0;
            if (beat) {
                nextBeat += beatEvery;
                if (System.nanoTime() - nextBeat >= 0) {
                    nextBeat = System.nanoTime() + beatEvery; // held up past a beat: no burst to catch up
                }
            }
            for (Agent a : agents) {
                Link link = a.watched;
                if (link == null || a.lost) {
                    continue;
                }
                if (beat) {
                    link.send(new Messages.Heartbeat());
                }
                PeerWatch.Verdict v = a.watch.check();
                switch (v.action()) {
                    case PROBE -> {
                        System.err.println("rewind: node " + a.name + " suspected: " + v.why() + ": probing");
                        link.probe(v.probe());
                    }
                    case LOST -> loseSilentNode(a, link, v.why());
                    case NONE -> {}
                }
            }
            java.util.concurrent.locks.LockSupport.parkNanos(every);
        }
    }

    private void loseSilentNode(Agent a, Link link, String why) {
        System.err.println("rewind: node " + a.name + " taken for lost: " + why);
        if (launch.mode().ownsNodeProcesses()) {
            // On this machine its processes can still be ended; on another host the agent ends
            // its ranks itself once it finds the launcher silent or gone.
            ProcessHandle.of(a.pid).ifPresent(agent -> {
                agent.descendants().forEach(ProcessHandle::destroyForcibly);
                agent.destroyForcibly();
            });
        }
        link.close(); // its reader reports the close, which loses the node (onLinkClosed)
    }

    private void onLinkClosed(Link link, String why) {
        for (Slot s : slots) {
            if (s.link == link && !coordinator.aborted() && Link.brokeOnMessage(why)) {
                // Not a death: the rank and the launcher disagree on a message. A new process would
                // send it again, so restarting would go round for ever; end the job and say why.
                abort(s.rank, 1, "rank " + s.rank + ": the launcher " + why);
                return;
            }
        }
        for (Agent a : agents) {
            if (a.link == link && !coordinator.aborted() && !coordinator.allEnded()) {
                // The node is gone, and with it every rank it ran: they restart on the other nodes.
                System.err.println("rewind: lost the agent of " + a.name + " (" + why + ")");
                a.lost = true;
                held.nodeLost(a.name);
                removeLostFolder(a);
                assignPartners();
                // Every rank of the node is down before anything is planned: their logs went together,
                // so they recover together.
                List<Integer> lost = new ArrayList<>();
                for (Slot s : slots) {
                    if (s.node == a.index && coordinator.life(s.rank).exists()) {
                        ProcessHandle.of(s.pid).ifPresent(ProcessHandle::destroyForcibly);
                        awaitingPeers.remove(s.rank);
                        lost.add(s.rank);
                    }
                }
                coordinator.downTogether(lost, "its node " + a.name + " was lost");
            }
        }
    }

    private void broadcast(Serializable m) {
        for (Slot s : slots) {
            if (s.link != null && coordinator.life(s.rank).exists()) {
                s.link.send(m);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Rank life cycle

    /**
     * Starts the rank's current incarnation: on its node, unless that node is lost or does not hold the
     * line it restarts from; then on a live node that holds it. Before that, the lines of the rank's
     * dead incarnations past that line are discarded by the nodes' checkpoint services.
     */
    private void spawn(Slot s, Command.Start start) {
        int incarnation = start.incarnation();
        long line = start.line();
        s.starting = start;
        Agent a = agents.get(s.node);
        if (a.lost || !held.canRestore(s.rank, line, a.name)) {
            a = agentFor(s.rank, line);
            s.node = a.index;
        }
        if (incarnation > 0) {
            held.discardAfter(s.rank, line);
            Messages.Discard discard = new Messages.Discard(s.rank, line, incarnation);
            if (sharedCheckpointDir != null) {
                a.link.send(discard); // one folder: its writer from now on discards, before the spawn
            } else {
                for (Agent o : agents) {
                    if (!o.lost && o.link != null) {
                        o.link.send(discard);
                    }
                }
            }
            lostAtLoggers.remove(s.rank); // its new incarnation sends again whatever it sent
            if (s.sentHeard != null) {
                // The incarnation died (or was stopped) without ending: what it sent as far as it last
                // reported, as an in-JVM job counts every incarnation's traffic.
                report.traffic(s.rank, s.sentHeard);
                s.sentHeard = null;
            }
            s.output.rewindTo(held.output(s.rank, line));
        }
        s.link = null;
        a.link.send(new Messages.Spawn(s.rank, incarnation));
    }

    /** The live node with the fewest ranks among those that can restart {@code rank} from {@code line}. */
    private Agent agentFor(int rank, long line) {
        Agent best = null;
        int bestCount = Integer.MAX_VALUE;
        for (Agent a : agents) {
            if (!a.lost && a.link != null && held.canRestore(rank, line, a.name)) {
                int count = 0;
                for (Slot s : slots) {
                    count += s.node == a.index ? 1 : 0;
                }
                if (count < bestCount) {
                    best = a;
                    bestCount = count;
                }
            }
        }
        if (best == null) {
            throw new IllegalStateException("no live node holds line " + line + " of rank " + rank);
        }
        return best;
    }

    /**
     * Gives every live node a partner for its checkpoint copies: the next live node in the nodes'
     * order, so a node's lines and their copies are never lost together with one node. With a shared
     * folder, or one node left, there is none.
     */
    private void assignPartners() {
        List<Agent> live = new ArrayList<>();
        for (Agent a : agents) {
            if (!a.lost && a.link != null) {
                live.add(a);
            }
        }
        boolean copies = sharedCheckpointDir == null && live.size() > 1;
        for (int i = 0; i < live.size(); i++) {
            Agent partner = live.get((i + 1) % live.size());
            live.get(i)
                    .link
                    .send(
                            copies
                                    ? new Messages.Partner(partner.name, partner.storageHost, partner.storagePort)
                                    : new Messages.Partner(null, null, 0));
        }
        if (!copies && sharedCheckpointDir == null && agents.size() > 1 && live.size() == 1) {
            System.err.println("rewind: one node left (" + live.getFirst().name
                    + "): its checkpoints have no copy on another node from now on");
        }
    }

    private void onRankHello(Link link, Messages.RankHello h) {
        Slot s = slots[h.rank()];
        if (!coordinator.isCurrent(h.rank(), h.incarnation()) || coordinator.life(h.rank()) != RankLife.STARTING) {
            link.close(); // a process of an incarnation that is no longer wanted
            return;
        }
        s.link = link;
        // Ranks that share this rank's cores: those of every node agent on the same host (several
        // agents run on one host with --launch local, or a hostfile naming one host twice).
        String host = agents.get(s.node).host;
        int ranksOnHost = 0;
        for (Slot o : slots) {
            ranksOnHost += java.util.Objects.equals(agents.get(o.node).host, host) ? 1 : 0;
        }
        link.send(new Messages.Setup(
                spec,
                s.starting.line(),
                s.starting.catchUpPoints(),
                s.starting.catchUpOperations(),
                new FailureSchedule(s.starting.kills()),
                ranksOnHost,
                eventLoggerAt,
                config.recordFile() == null ? 0 : RunRecordWriter.SAMPLE_EVERY_NANOS,
                launch.sharedMemory(),
                List.of(loggerAt),
                s.starting.replacement()));
        for (int r = 0; r < slots.length; r++) {
            for (RecoveryLines.Line l : lines.lines(r)) {
                link.send(new Messages.Lines(r, l.number(), l.frontiers(), l.events()));
            }
        }
    }

    private void onListening(Messages.Listening l) {
        if (!coordinator.ready(l.rank(), l.incarnation())) {
            return;
        }
        Slot s = slots[l.rank()];
        s.host = l.host();
        s.port = l.port();
        s.shmDomain = l.shmDomain();
    }

    /** Tells every rank process where every rank's current incarnation listens, and waits for all to apply it. */
    private void broadcastPeers() {
        peersEpoch++;
        Map<Integer, Messages.Address> table = new HashMap<>();
        for (Slot s : slots) {
            RankLife life = coordinator.life(s.rank);
            int incarnation = coordinator.incarnation(s.rank);
            int dead = life == RankLife.STARTING ? incarnation - 1 : incarnation;
            table.put(
                    s.rank,
                    life.reachable()
                            ? new Messages.Address(incarnation, s.host, s.port, s.shmDomain)
                            : new Messages.Address(dead, null, 0, null));
        }
        awaitingPeers.clear();
        Messages.Peers peers = new Messages.Peers(peersEpoch, table);
        for (Slot s : slots) {
            if (s.link != null && table.get(s.rank).host() != null) {
                awaitingPeers.add(s.rank);
                s.link.send(peers);
            }
        }
        maybeGo();
    }

    private void maybeGo() {
        if (!awaitingPeers.isEmpty()) {
            return;
        }
        for (Slot s : slots) {
            if (coordinator.life(s.rank) == RankLife.READY) {
                coordinator.running(s.rank, coordinator.incarnation(s.rank));
                s.link.send(new Messages.Go());
            }
        }
    }

    private void onCheckpointed(RankEvent.Checkpointed c, long now) {
        if (!coordinator.countsLinesOf(c.rank(), c.incarnation())) {
            return; // see RecoveryCoordinator.countsLinesOf
        }
        // A holder lost since it acknowledged the line holds nothing any more.
        List<String> live = new ArrayList<>();
        for (String holder : c.holders()) {
            if (agents.stream().anyMatch(a -> a.name.equals(holder) && !a.lost)) {
                live.add(holder);
            }
        }
        held.written(c.rank(), c.line(), live, c.output());
        coordinator.step(c, now);
        broadcast(new Messages.Lines(c.rank(), c.line(), c.frontiers(), c.events()));
    }

    private void onEnded(RankEvent.Ended e, long now) {
        if (!coordinator.step(e, now)) {
            // A rank being stopped for a rollback may end its program before the stop reaches it: it
            // runs again from its line, so this end is not its outcome.
            return;
        }
        Slot s = slots[e.rank()];
        report.operations(s.rank, e.operations());
        report.traffic(s.rank, e.sent());
        s.sentHeard = null; // counted
        report.finalLog(
                s.rank,
                e.log().appendedEntries(),
                e.log().appendedBytes(),
                e.log().highWaterBytes());
        report.collectiveLog(e.log().collectiveEntries(), e.log().collectiveBytes());
        report.determinants(e.log().determinants());
    }

    /** A rank's process is gone: how, as the coordinator needs to know. */
    private void onExited(Messages.Exited e) {
        if (!coordinator.isCurrent(e.rank(), e.incarnation())) {
            return;
        }
        awaitingPeers.remove(e.rank());
        int status = e.status();
        // Not killed (a signal's death is 128 + its number) but ended by its program, with System.exit
        // say (unless the process could not run it at all).
        boolean byProgram = status >= 0 && status < 128 && status != RankProcess.COULD_NOT_RUN;
        String how = status == 137
                ? "its process was killed (SIGKILL)"
                : status > 128 && status < 160
                        ? "its process died of signal " + (status - 128)
                        : "its process exited with status " + status;
        coordinator.down(e.rank(), e.incarnation(), new DownCause(how, byProgram, status));
    }

    private void killProcess(Slot s) {
        Agent a = agents.get(s.node);
        if (a.link != null && !a.lost) {
            a.link.send(new Messages.Kill(s.rank, coordinator.incarnation(s.rank)));
        } else if (s.pid > 0) {
            ProcessHandle.of(s.pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /** Carries out the commands the coordinator decided since they were last taken. Coordinator thread only. */
    private void carryOutCommands() {
        for (Command c : coordinator.commands()) {
            carryOut(c);
        }
    }

    private void carryOut(Command command) {
        switch (command) {
            case Command.Start c -> spawn(slots[c.rank()], c);
            case Command.Stop c -> killProcess(slots[c.rank()]);
            case Command.Crash c -> strike(slots[c.rank()], c.kill());
            case Command.StopOverdue c -> {
                // A process told to stop is killed with SIGKILL by its node's agent: its exit, or the
                // loss of its node, comes as an event whatever its program was doing.
            }
            case Command.Failed c -> broadcast(new Messages.Failure(c));
            case Command.Revoke c -> {
                for (int r : c.members()) {
                    if (slots[r].link != null) {
                        slots[r].link.send(new Messages.Failure(c));
                    }
                }
            }
            case Command.Decided c -> {
                for (int r : c.to()) {
                    if (slots[r].link != null) {
                        slots[r].link.send(new Messages.Failure(c));
                    }
                }
            }
            case Command.PeersChanged c -> broadcastPeers();
            case Command.StartTogether c -> broadcastPeers(); // one table for all of them; they go once all applied it
            case Command.DiscardAfter c -> {
                held.discardAfter(c.rank(), c.line());
                broadcast(new Messages.Lines(c.rank(), c.line(), null, null));
            }
            case Command.KeepFrom c -> {
                held.keepFrom(c.line());
                for (Agent a : agents) {
                    if (!a.lost && a.link != null) {
                        a.link.send(new Messages.KeepFrom(c.line()));
                    }
                }
            }
            case Command.Abort c -> broadcast(new Messages.Aborted(c.rank(), c.errorCode(), c.reason()));
            case Command.Note c -> System.err.println(c.line());
            case Command.DescribeWaits c -> {
                // A process's stack is not seen from here: where it waits is "inside MPI", with its process
                // id for jcmd PID Thread.print.
                List<WaitReport.Wait> waits = new ArrayList<>();
                for (int r : c.ranks()) {
                    waits.add(new WaitReport.Wait(
                            r, coordinator.incarnation(r), coordinator.operations(r), slots[r].pid, "inside MPI"));
                }
                WaitReport.lines(c.prefix(), waits).forEach(System.err::println);
            }
        }
    }

    /** The lines the nodes hold and what the logger nodes lost, as the coordinator reads them. */
    private final class NodeStorage implements StoredLines {
        @Override
        public io.rewind.ft.logger.LoggerNodes.Rollback sendersToRollBack(Set<Integer> planned) {
            if (lostAtLoggers.isEmpty()) {
                return io.rewind.ft.logger.LoggerNodes.Rollback.NONE;
            }
            io.rewind.ft.logger.LoggerNodes.Rollback senders =
                    io.rewind.ft.logger.LoggerNodes.chain(planned, lostAtLoggers);
            if (!senders.senders().isEmpty()) {
                senderRollbacks.add(senders.record(planned));
            }
            return senders;
        }

        @Override
        public void holdPruning(boolean hold) {
            // Nodes prune no line a recovery may pick: they keep every line from the newest one complete
            // for all ranks (keepFrom), which is as old as any plan goes.
        }

        @Override
        public long newestCommonLine(java.util.Collection<Integer> ranks, long atMost) {
            return held.newestCommonLine(ranks, atMost);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Kills at a time, and aborts

    /** Loses a node as a power cut would: its agent and every rank process on it die at once. */
    private void loseNode(Agent a) {
        // The agent's own process (reported in its hello) and everything it started: on this machine.
        ProcessHandle agent = ProcessHandle.of(a.pid).orElse(null);
        if (agent != null && agent.isAlive()) {
            System.err.println("rewind: losing node " + a.name + " (its agent and rank processes killed with SIGKILL)");
            agent.descendants().forEach(ProcessHandle::destroyForcibly);
            agent.destroyForcibly();
        } else {
            System.err.println("rewind: cannot lose node " + a.name + ": its agent is not a process of this machine");
        }
    }

    /**
     * Silences a node as a hung host would be: its agent and every rank process on it stopped with
     * SIGSTOP, their connections open but answering nothing.
     */
    private void freezeNode(Agent a) {
        ProcessHandle agent = ProcessHandle.of(a.pid).orElse(null);
        if (agent == null || !agent.isAlive()) {
            System.err.println("rewind: cannot freeze node " + a.name + ": its agent is not a process of this machine");
            return;
        }
        System.err.println("rewind: freezing node " + a.name + " (its agent and rank processes stopped with SIGSTOP)");
        List<String> cmd = new ArrayList<>(List.of("kill", "-STOP"));
        agent.descendants().forEach(p -> cmd.add(Long.toString(p.pid())));
        cmd.add(Long.toString(agent.pid()));
        try {
            Process kill = new ProcessBuilder(cmd).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                System.err.println("rewind: kill -STOP of node " + a.name + " failed");
            }
        } catch (IOException e) {
            System.err.println("rewind: cannot run kill -STOP: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Strikes a rank's process, or its whole node if the kill that struck is a node loss or freeze. */
    private void strike(Slot s, FailureSchedule.Kill kill) {
        if (kill != null && launch.nodeLoss().kills().contains(kill)) {
            loseNode(agents.get(s.node));
        } else if (kill != null && launch.nodeFreeze().kills().contains(kill)) {
            freezeNode(agents.get(s.node));
        } else {
            killProcess(s);
        }
    }

    private void abort(int rank, int errorCode, String reason) {
        coordinator.abort(rank, errorCode, reason);
        carryOutCommands();
    }

    // ---------------------------------------------------------------------------------------------
    // State

    /** One rank's process, as the launcher knows it; where it is in its life, the coordinator knows. */
    private static final class Slot {
        final int rank;
        final OutputRouter.RankOutput output;
        int node;
        Link link;
        long pid;
        String host;
        int port;
        /** The shared-memory domain of the current incarnation (null: none). */
        String shmDomain;
        /** How the coordinator started its current incarnation. */
        Command.Start starting;
        /** What its current incarnation had sent, as it last reported; null once counted. */
        io.rewind.engine.TrafficCounters.Sent sentHeard;

        Slot(int rank, int node, OutputRouter.RankOutput output) {
            this.rank = rank;
            this.node = node;
            this.output = output;
        }
    }

    /** One node's agent. */
    private static final class Agent {
        final int index;
        final String name;
        final Process process;
        /** Set by the coordinator once it took the agent's introduction. */
        Link link;
        /** The same link, as the heartbeat thread knows it: set by the link's reader at the introduction. */
        volatile Link watched;
        /** How the heartbeat thread judges the agent; set before {@link #watched}. */
        volatile PeerWatch watch;

        String host;
        volatile long pid;
        String storageHost;
        int storagePort;
        /** The node's checkpoint folder, on its host. */
        String folder;

        volatile boolean lost;

        Agent(int index, String name, Process process) {
            this.index = index;
            this.name = name;
            this.process = process;
        }
    }
}
