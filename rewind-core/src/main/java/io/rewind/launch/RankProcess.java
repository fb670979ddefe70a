package io.rewind.launch;

import io.rewind.checkpoint.CheckpointException;
import io.rewind.checkpoint.CheckpointImage;
import io.rewind.engine.Communicator;
import io.rewind.engine.CommunicatorFactory;
import io.rewind.engine.EngineConfig;
import io.rewind.engine.FaultTolerance;
import io.rewind.ft.ControlMessageCodec;
import io.rewind.ft.EventLogClient;
import io.rewind.ft.EventLogger;
import io.rewind.ft.ProtocolServices;
import io.rewind.ft.RankProtocol;
import io.rewind.ft.RecoveryLines;
import io.rewind.notice.RuntimeNotices;
import io.rewind.runtime.CommunicatorRegistry;
import io.rewind.runtime.InputRouter;
import io.rewind.runtime.JobAbortedException;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.OutputRouter;
import io.rewind.runtime.RankOutcome;
import io.rewind.runtime.rank.Incarnation;
import io.rewind.runtime.rank.RankEvent;
import io.rewind.runtime.rank.RankHost;
import io.rewind.runtime.rank.RankRuntime;
import io.rewind.runtime.rank.RankSlot;
import io.rewind.runtime.watch.JobRecording;
import io.rewind.transport.JobSecret;
import io.rewind.transport.RoutedTransport;
import io.rewind.transport.shm.ShmFolder;
import io.rewind.transport.shm.ShmOptions;
import io.rewind.transport.shm.ShmTransport;
import io.rewind.transport.tcp.TcpOptions;
import io.rewind.transport.tcp.TcpTransport;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * One rank as a process of its own, started by its node's agent: it introduces itself to the
 * launcher, gets the job and its part of it, listens for its peers on TCP, waits until every peer
 * can reach it, runs the program, and stays to serve its peers until the job has finished. If the
 * launcher goes away, the process ends at once: a rank never outlives its job.
 */
public final class RankProcess implements RankHost {
    /**
     * The exit status of a rank process that failed in the runtime rather than in its program (it could
     * not start or restore, or lost the launcher): a crash to recover, where a process its program
     * ended with another status ends the job.
     */
    static final int COULD_NOT_RUN = 125;

    /** How long a struck rank waits to be killed from outside before it ends itself. */
    private static final long KILL_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** How often a rank's progress is looked at, and told to the launcher if it changed. */
    private static final long PROGRESS_REPORT_NANOS = 500_000_000L;
    /** How long a rank waits for its setup and for the start signal. */
    private static final long SETUP_WAIT_SECONDS = 120;

    private final int rank;
    private final int incarnation;
    private final Link link;
    private final Requests requests;
    private final CompletableFuture<Messages.Setup> setup = new CompletableFuture<>();
    private final CompletableFuture<Void> go = new CompletableFuture<>();
    private volatile RecoveryLines lines;
    private volatile RoutedTransport transport;
    private volatile NodeStorageClient storage;
    private volatile EventLoggerConnection eventLogger;
    private volatile boolean finished;
    private volatile JobAbortedException aborted;
    /** The job's protocol as this process holds it (its view of the lines is this process's own). */
    private volatile io.rewind.ft.Protocol jobProtocol;
    /** The rank's protocol once open: its log's figures are reported from it. */
    private volatile RankProtocol protocol;
    /** How often the log's figures are reported (0: never); from the setup. */
    private volatile long logReportEveryNanos;
    /** The figures last reported, {payload, memory}; guarded by {@code this}. */
    private final long[] logReported = {-1, -1};

    private RankProcess(int rank, int incarnation, Link link) {
        this.rank = rank;
        this.incarnation = incarnation;
        this.link = link;
        this.requests = new Requests(link);
    }

    /**
     * {@code --head HOST:PORT --rank R --incarnation K --secret-file FILE --store HOST:PORT}: the launcher,
     * and the checkpoint service of this node's agent.
     */
    /** This process's JFR recording (null: none, or written already). */
    private static jdk.jfr.Recording recording;

    /** Writes this process's JFR recording, once. */
    private static synchronized void stopRecording() {
        JobRecording.stopInRank(recording);
        recording = null;
    }

    public static void main(String[] args) {
        Map<String, String> a = Args.parse(args, "--head", "--rank", "--incarnation", "--secret-file", "--store");
        int rank = Integer.parseInt(a.get("--rank"));
        int incarnation = Integer.parseInt(a.get("--incarnation"));
        int status;
        // Recorded with JFR when the job is (rewind run --jfr): written as the process ends well; a
        // process killed by a crash loses it.
        if (a.containsKey("--jfr-folder")) {
            recording = JobRecording.startInRank(
                    Path.of(a.get("--jfr-folder"), "rank-" + rank + "." + incarnation + ".jfr"));
        }
        try {
            JobSecret secret = JobSecret.fromArgument(a.get("--secret-file"));
            Link link = Link.connect(Args.address(a.get("--head")), secret, "rank-" + rank + "." + incarnation);
            status = new RankProcess(rank, incarnation, link).run(secret, Args.address(a.get("--store")));
        } catch (IOException | RuntimeException e) {
            System.err.println("rewind: rank " + rank + "." + incarnation + " could not run: " + e);
            status = COULD_NOT_RUN;
        }
        stopRecording();
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(status);
    }

    private int run(JobSecret secret, InetSocketAddress store) throws IOException {
        // What the runtime has to say goes to the launcher's log, not into the program's output (this
        // process's standard error is the rank's); once the link is gone, to standard error after all.
        RuntimeNotices.sendTo(text -> {
            if (!link.send(new Messages.Diagnostic(rank, incarnation, text))) {
                System.err.println(text);
            }
        });
        eventLogger = new EventLoggerConnection("rank-" + rank + "." + incarnation + "-events", secret);
        link.startReader(this::onMessage, why -> {
            if (!finished) {
                // The launcher is gone (or refused us): nobody would ever stop this rank.
                System.err.println("rewind: rank " + rank + "." + incarnation + ": lost the launcher (" + why + ")");
                Runtime.getRuntime().halt(COULD_NOT_RUN);
            }
        });
        link.send(new Messages.RankHello(
                rank, incarnation, ProcessHandle.current().pid()));
        Messages.Setup s = await(setup, "its setup");
        logReportEveryNanos = s.logReportEveryNanos();
        // A waiting rank polls (spinning, then yielding its core) only if every rank of the host can
        // have a core. While it polls it reads and writes its sockets itself (the transport's poll), so
        // its I/O thread needs no core then.
        JobConfig config = s.job().toConfig(EngineConfig.forRankProcesses(s.ranksOnHost()));
        storage = NodeStorageClient.connect(store, secret, rank, incarnation);
        CheckpointImage image = null;
        if (s.line() > 0) {
            try {
                image = storage.load(s.line());
            } catch (CheckpointException e) {
                // The launcher must not send this rank (or any other) back to that line again.
                link.send(new RankEvent.Unrestorable(rank, incarnation, System.nanoTime(), s.line(), e.getMessage()));
                throw e;
            }
        }
        // Listen on the interface that reaches the launcher: the peers reach this one the same way.
        InetSocketAddress bind = new InetSocketAddress(link.localAddress(), 0);
        // What the transport has to say goes to the launcher's log, not into the program's output.
        java.util.function.Consumer<String> diagnostics = RuntimeNotices::print;
        TcpOptions options = TcpOptions.defaults().withLog(diagnostics);
        TcpTransport tcp = TcpTransport.open(
                rank, incarnation, config.ranks(), bind, secret, ControlMessageCodec.INSTANCE, options);
        ShmTransport shm = null;
        if (s.sharedMemory()) {
            // The ranks of this host that share the job's folder of memory files talk through it.
            try {
                ShmFolder folder = ShmFolder.open(ShmFolder.root(), secret);
                shm = ShmTransport.open(
                        rank,
                        incarnation,
                        config.ranks(),
                        folder,
                        ControlMessageCodec.INSTANCE,
                        ShmOptions.forRanksOnHost(s.ranksOnHost()).withLog(diagnostics));
            } catch (IOException | RuntimeException e) {
                diagnostics.accept("rewind: shm: rank " + rank + "." + incarnation
                        + " talks over TCP only: no shared memory (" + e.getMessage() + ")");
            }
        }
        transport = new RoutedTransport(rank, config.ranks(), tcp, shm, diagnostics);
        InetSocketAddress listening = transport.localAddress();
        link.send(new Messages.Listening(
                rank, incarnation, listening.getAddress().getHostAddress(), listening.getPort(), transport.domain()));
        await(go, "the start signal");
        io.rewind.ft.logger.LoggerNodes loggers = null;
        if (config.logging().loggers().enabled()
                && s.loggers() != null
                && !s.loggers().isEmpty()) {
            // The job's logger processes, reached over links of this rank's own; a death it notices is
            // told to the launcher, which plans recoveries.
            String owner = "rank-" + rank + "." + incarnation;
            loggers = new io.rewind.ft.logger.LoggerNodes(
                    config.logging().loggers(),
                    config.ranks(),
                    (i, job) -> new RemoteLoggerNode(i, s.loggers().get(i), secret, owner, job));
            loggers.onLostChange((r, to) -> link.send(new Messages.LostAtLoggers(rank, incarnation, to)));
        }
        ProtocolServices services = config.protocolServices(r -> new RemoteEventLog(r), lines, this::report, loggers);
        RankOutcome outcome = runRank(config, image, s, services);
        if (loggers != null) {
            link.send(new Messages.DumpFigures(rank, incarnation, loggers.figureWords(rank)));
        }
        // Whatever the protocol, the process stays until the launcher says the job is over: were it to
        // exit at once, its exit (reported by its agent over another link) could reach the launcher
        // before its end did, and pass for a crash.
        while (!finished && aborted == null) {
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(10));
        }
        finished = true;
        transport.close();
        storage.close();
        eventLogger.close();
        if (loggers != null) {
            loggers.close();
        }
        link.close();
        return outcome.ok() ? 0 : 1;
    }

    /**
     * Runs the rank in this process on a {@link RankRuntime} of its own: its program in its own class
     * loader, its events sent over the link. Returns once the program has ended and the whole job has
     * finished (a finished rank keeps serving its peers until then), or the job was aborted.
     */
    private RankOutcome runRank(JobConfig config, CheckpointImage image, Messages.Setup s, ProtocolServices services) {
        jobProtocol = config.faultTolerance().protocol().create();
        jobProtocol.start(services);
        RankRuntime ranks = new RankRuntime(
                config,
                transport,
                new RemoteCommunicators(),
                jobProtocol,
                storage,
                null,
                RankProcess.class.getClassLoader(),
                this::emit,
                this);
        OutputRouter.install();
        InputRouter.install();
        // Untagged: the launcher prefixes the lines, and shows each once across incarnations.
        RankSlot slot = ranks.open(
                rank,
                new OutputRouter.RankOutput(rank, false, OutputRouter.rawStdout(), rawStderr()),
                new InputRouter.RankInput(rank, this::readInput));
        Incarnation inc =
                ranks.prepare(slot, incarnation, image, s.kills().kills(), s.catchUpPoints(), s.catchUpOperations());
        protocolOpened(inc.protocol());
        if (s.replacement() != null) {
            ranks.replacing(inc, s.replacement());
        }
        current = inc;
        for (io.rewind.runtime.coordinator.Command news; (news = earlyNews.poll()) != null; ) {
            applyNews(inc, news);
        }
        // Rewind ends a rank process with Runtime.halt, which runs no shutdown hook: this one runs only
        // when the program calls System.exit (or the process is asked to terminate).
        Runtime.getRuntime()
                .addShutdownHook(Thread.ofPlatform()
                        .name("rewind-rank-" + rank + "." + incarnation + "-exit")
                        .unstarted(() -> ranks.processExiting(inc)));
        ranks.start(inc);
        Thread.ofPlatform()
                .name("rewind-rank-" + rank + "." + incarnation + "-progress")
                .daemon(true)
                .start(() -> reportProgress(ranks, inc));
        inc.awaitGone(Long.MAX_VALUE);
        slot.output().flush();
        jobProtocol.close();
        return slot.outcome() != null
                ? slot.outcome()
                : new RankOutcome(rank, RankOutcome.Status.ABORTED, "stopped when the job was aborted", null);
    }

    private static PrintStream rawStderr() {
        return new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    }

    /**
     * On a daemon thread of its own until the rank's thread ends: tells the launcher the rank's progress
     * whenever it changed, every {@link #PROGRESS_REPORT_NANOS}, for the stall watch the launcher keeps
     * over all ranks (this process sees only its own).
     */
    private void reportProgress(RankRuntime ranks, Incarnation inc) {
        long operations = -1;
        boolean waiting = false;
        while (!inc.isGone()) {
            if (RankRuntime.running(inc)) {
                RankEvent.Progress p = ranks.progress(inc, true);
                if (p.operations() != operations || p.waiting() != waiting) {
                    operations = p.operations();
                    waiting = p.waiting();
                    emit(p);
                }
            }
            LockSupport.parkNanos(PROGRESS_REPORT_NANOS);
        }
    }

    /**
     * The rank's protocol is open: if the launcher keeps a run record, a daemon thread of this process
     * reports the log's figures to it as often as it samples them, until the job is over.
     */
    private void protocolOpened(RankProtocol p) {
        protocol = p;
        long every = logReportEveryNanos;
        if (every <= 0) {
            return;
        }
        Thread.ofPlatform()
                .name("rewind-rank-" + rank + "." + incarnation + "-log-report")
                .daemon(true)
                .start(() -> {
                    while (!finished && aborted == null) {
                        reportLog();
                        LockSupport.parkNanos(this, every);
                    }
                });
    }

    /** Sends the log's figures to the launcher if they changed since last sent (tiny, but not for nothing). */
    private synchronized void reportLog() {
        RankProtocol p = protocol;
        if (p == null || logReportEveryNanos <= 0) {
            return;
        }
        long payload = p.heldLogBytes();
        long memory = p.heldLogMemoryBytes();
        if (payload != logReported[0] || memory != logReported[1]) {
            logReported[0] = payload;
            logReported[1] = memory;
            link.send(new RankEvent.LogHeld(rank, incarnation, System.nanoTime(), payload, memory));
        }
    }

    private <T> T await(CompletableFuture<T> f, String what) {
        try {
            return f.get(SETUP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("no " + what + " from the launcher within " + SETUP_WAIT_SECONDS + " s");
        } catch (ExecutionException | InterruptedException e) {
            throw new IllegalStateException("waiting for " + what + ": " + e, e);
        }
    }

    /** Messages from the launcher, in the link's reader thread. */
    private void onMessage(Object m) {
        switch (m) {
            case Messages.Setup s -> {
                // Before the setup is handed on: the lines the launcher sends right after it land here.
                lines = new RecoveryLines(s.job().ranks(), s.job().keepLines());
                if (s.eventLogger() != null) {
                    eventLogger.moveTo(s.eventLogger());
                }
                setup.complete(s);
            }
            case Messages.Peers p -> {
                RoutedTransport t = transport;
                for (Map.Entry<Integer, Messages.Address> e : p.addresses().entrySet()) {
                    Messages.Address a = e.getValue();
                    if (a.host() == null) {
                        t.peerGone(e.getKey(), a.incarnation());
                    } else {
                        t.peer(e.getKey(), a.incarnation(), new InetSocketAddress(a.host(), a.port()), a.shmDomain());
                    }
                }
                link.send(new Messages.PeersApplied(rank, incarnation, p.epoch()));
            }
            case Messages.Go g -> go.complete(null);
            case Messages.Failure f -> {
                Incarnation inc = current;
                if (inc == null) {
                    earlyNews.add(f.news());
                    inc = current;
                    if (inc == null || !earlyNews.remove(f.news())) {
                        return;
                    }
                }
                applyNews(inc, f.news());
            }
            case Messages.EventLoggerAt at -> eventLogger.moveTo(at);
            case Messages.Lines l -> {
                if (l.frontiers() != null) {
                    lines.published(l.rank(), l.line(), l.frontiers(), l.events());
                } else {
                    lines.discardAfter(l.rank(), l.line());
                }
            }
            case Messages.Aborted a -> aborted = new JobAbortedException(a.rank(), a.errorCode(), a.reason());
            case Messages.Finished f -> finished = true;
            case Messages.Answer a -> requests.answered(a);
            default -> RuntimeNotices.print("rewind: rank " + rank + ": unexpected message " + m);
        }
    }

    /** The incarnation this process runs, once prepared. */
    private volatile Incarnation current;
    /** News of failures that came before the incarnation was prepared. */
    private final java.util.concurrent.ConcurrentLinkedQueue<io.rewind.runtime.coordinator.Command> earlyNews =
            new java.util.concurrent.ConcurrentLinkedQueue<>();

    /** A failure, a revocation or a decision (notify mode), for this rank's engine. */
    private static void applyNews(Incarnation inc, io.rewind.runtime.coordinator.Command news) {
        switch (news) {
            case io.rewind.runtime.coordinator.Command.Failed c -> inc.engine()
                    .peerFailures()
                    .failed(c.rank(), c.incarnation());
            case io.rewind.runtime.coordinator.Command.Revoke c -> inc.engine()
                    .peerFailures()
                    .revoked(c.context());
            case io.rewind.runtime.coordinator.Command.Decided c -> inc.engine()
                    .peerFailures()
                    .decided(c.decision());
            default -> {}
        }
    }

    /**
     * Sends the rank's event to the launcher. A {@link RankEvent.Struck} does not return: the process
     * dies in here, killed from outside, or halts itself if nobody does.
     */
    private void emit(RankEvent event) {
        switch (event) {
            case RankEvent.Checkpointed c -> {
                // Which nodes keep the line, and how far the rank's output was then, are this process's
                // to add: its node's checkpoint service acknowledged the line to it.
                NodeStorageClient.Written w = storage.written(c.line());
                link.send(new RankEvent.Checkpointed(
                        c.rank(),
                        c.incarnation(),
                        c.at(),
                        c.line(),
                        Map.copyOf(c.frontiers()),
                        Map.copyOf(c.sent()),
                        c.events(),
                        c.bytes(),
                        c.nanos(),
                        w.holders(),
                        w.output()));
            }
            case RankEvent.KeptInTransit k -> link.send(
                    new RankEvent.KeptInTransit(k.rank(), k.incarnation(), k.at(), k.line(), Map.copyOf(k.upTo())));
            case RankEvent.Ended e -> {
                // The log as the program ended, ahead of the end: the launcher samples it before the job is over.
                reportLog();
                // The JFR recording too: written before the launcher hears of the end, so that it is whole
                // when the launcher puts the job's recording together (the process may be killed after).
                stopRecording();
                link.send(e);
            }
            case RankEvent.Struck s -> {
                System.out.flush();
                link.send(s);
                awaitKill();
            }
            default -> link.send(event);
        }
    }

    /** A struck rank process waits to be killed from outside, as a real crash leaves it; it ends itself if nobody does. */
    private void awaitKill() {
        long deadline = System.nanoTime() + KILL_WAIT_NANOS;
        while (System.nanoTime() < deadline) {
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(100));
        }
        RuntimeNotices.print("rewind: rank " + rank + "." + incarnation + " was not killed; ending itself");
        Runtime.getRuntime().halt(137);
    }

    // --- RankHost ---------------------------------------------------------------------------------

    @Override
    public boolean jobFinished() {
        return finished;
    }

    @Override
    public JobAbortedException jobAbort() {
        return aborted;
    }

    @Override
    public void down(Incarnation inc) {
        // Its death is seen from outside: the node's agent reports the process's exit.
    }

    @Override
    public void crashed(Incarnation inc) {
        emit(RankRuntime.struck(inc, "crashed")); // does not return
    }

    @Override
    public void exitBeforeFinalize(int status, boolean halt) {
        // The process ends with that status, as the program's own call would end it, and its agent
        // reports it; the launcher ends the job with it (a process that ends itself is not a crash).
        if (halt) {
            Runtime.getRuntime().halt(status);
        }
        Runtime.getRuntime().exit(status);
    }

    @Override
    public void lineWritten(RankEvent.Checkpointed c) {
        // This process's own view of the job's lines (its launcher's coordinator keeps the job's).
        lines.published(c.rank(), c.line(), c.frontiers(), c.events(), c.sent());
        jobProtocol.onCheckpoint(c.rank(), c.line(), c.frontiers());
    }

    @Override
    public void inTransitKept(RankEvent.KeptInTransit k) {
        lines.keptInTransit(k.rank(), k.line(), k.upTo()); // the process's own view, as with its lines
    }

    /** The event logger process: a record returns once it holds it in its journal. */
    private final class RemoteEventLog implements EventLogClient {
        private final int of;

        RemoteEventLog(int of) {
            this.of = of;
        }

        @Override
        public void recordWildcard(long index, FaultTolerance.ForcedMatch match) {
            eventLogger.call(new Messages.RecordWildcard(of, index, match.source(), match.tag(), match.sequence()));
        }

        @Override
        public void recordPoll(long index, long[] outcome) {
            eventLogger.call(new Messages.RecordPoll(of, index, outcome.clone()));
        }

        @Override
        public Determinants fetch() {
            return EventLogger.determinants((EventLogger.Records) eventLogger.call(new Messages.FetchDeterminants(of)));
        }
    }

    /** A report for the launcher's protocol: returns once the launcher has taken it in. */
    private long[] report(int of, int inc, long[] words) {
        try {
            return (long[]) requests.send(new Messages.ProtocolReport(of, inc, words.clone()))
                    .get(REPORT_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reporting to the launcher", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the launcher did not take a protocol report in: " + e, e);
        }
    }

    /** How long a protocol report may wait for the launcher (it answers at once unless it is gone). */
    private static final long REPORT_WAIT_SECONDS = 60;

    /** Communicator creation through the launcher's registry; waits as long as peers take to arrive. */
    /**
     * Rank 0's standard input: bytes of the job's input at {@code offset}, asked of the launcher, which
     * reads its own standard input as far as they go. Waits as long as the launcher does for them (a
     * terminal may take its time); a launcher gone ends the wait with an error.
     */
    private int readInput(long offset, byte[] b, int off, int len) throws java.io.IOException {
        byte[] bytes;
        try {
            bytes = (byte[]) requests.send(new Messages.ReadInput(offset, len)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting for standard input");
        } catch (java.util.concurrent.ExecutionException e) {
            throw new java.io.IOException(
                    "standard input from the launcher: " + e.getCause().getMessage(), e);
        }
        return io.rewind.runtime.JobInput.copyInto(bytes, b, off);
    }

    private final class RemoteCommunicators implements CommunicatorFactory {
        @Override
        public Created create(Communicator parent, long creationIndex, int color, int key, int[] explicitGroup) {
            return ask(CommunicatorRegistry.Request.of(parent, creationIndex, color, key, explicitGroup), parent);
        }

        @Override
        public Created createFromGroup(Communicator parent, int[] group, int tag, long occurrence) {
            return ask(CommunicatorRegistry.Request.ofSubgroup(parent, group, tag, occurrence), parent);
        }

        @Override
        public Created createInter(Communicator local, long creationIndex, InterLink link) {
            return ask(CommunicatorRegistry.Request.ofInter(local, creationIndex, link), local);
        }

        private Created ask(CommunicatorRegistry.Request request, Communicator member) {
            CompletableFuture<Serializable> answer = requests.send(new Messages.CreateCommunicator(request));
            return CommunicatorRegistry.await(
                    answer.thenApply(a -> ((Messages.CommunicatorCreated) a).created()), member);
        }
    }
}
