package io.rewind.runtime;

import io.rewind.checkpoint.CheckpointImage;
import io.rewind.engine.Mailbox;
import io.rewind.engine.RankEngine;
import io.rewind.engine.Transport;
import io.rewind.ft.EventLogger;
import io.rewind.ft.Protocol;
import io.rewind.ft.RankProtocol;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.logger.LoggerNodes;
import io.rewind.runtime.coordinator.Command;
import io.rewind.runtime.coordinator.DownCause;
import io.rewind.runtime.coordinator.RecoveryCoordinator;
import io.rewind.runtime.coordinator.Strike;
import io.rewind.runtime.rank.Incarnation;
import io.rewind.runtime.rank.RankEvent;
import io.rewind.runtime.rank.RankEventSink;
import io.rewind.runtime.rank.RankHost;
import io.rewind.runtime.rank.RankRuntime;
import io.rewind.runtime.rank.RankSlot;
import io.rewind.runtime.watch.Announcer;
import io.rewind.runtime.watch.JobObserver;
import io.rewind.runtime.watch.WaitReport;
import io.rewind.transport.local.InJvmTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one SPMD job in this JVM: every rank is a platform thread named {@code rank-N} running the
 * program's {@code main} in its own class loader, on the job's {@link RankRuntime}. The job ends when
 * every rank has returned, or when it is aborted (a rank failed, called {@code abort}, or the time
 * limit passed).
 *
 * <p>This is the thread host: its coordinator thread takes the ranks' events off one queue and
 * carries out the {@link RecoveryCoordinator}'s commands on the ranks' incarnations. A crashed rank
 * loses everything it held (its queues, its payload log, its heap state: a new incarnation gets a new
 * class loader) and is respawned. Which ranks restart, from which recovery line, and whether the
 * others replay messages to them is the protocol's decision ({@link Protocol#plan}); the job carries
 * it out.
 */
public final class Job {
    /** What the caller of {@link #run} waits beyond the job's limits for a coordinator that is stuck. */
    private static final long COORDINATOR_MARGIN_NANOS = 30_000_000_000L;

    private final JobConfig config;
    private final Transport transport;
    private final LinkedBlockingQueue<Runnable> coordinatorQueue = new LinkedBlockingQueue<>();
    /** The ranks' side: every rank of this job runs on it, as a thread of this JVM. */
    private final RankRuntime ranks;
    /**
     * Told every rank event this job's coordinator takes, in the order it takes them, before it does
     * (set before the coordinator starts; {@link #run(JobConfig, RankEventSink)}).
     */
    private JobObserver observer = JobObserver.NONE;

    private final Protocol protocol;
    /** The job's event logger: outlives every rank, as a process of its own would. */
    private final EventLogger events;
    /** The job's logger nodes (null: none). */
    private final LoggerNodes loggers;
    /** What every rank's kept recovery lines hold, published as ranks checkpoint. */
    private final RecoveryLines lines;
    /** This machine's checkpoint folder. */
    private final LocalCheckpoints checkpoints;

    private final RunReport.Builder report;
    private RunRecordWriter record;
    /** Every decision on the ranks; this job carries out its commands ({@link #carryOut}). */
    private RecoveryCoordinator coordinator;
    /** Set once every rank has finished: finished ranks stop serving their peers. */
    private volatile boolean finished;

    private Job(JobConfig config) {
        this.config = config;
        this.transport = new InJvmTransport(config.ranks());
        this.protocol = config.faultTolerance().protocol().create();
        this.events = new EventLogger(config.ranks());
        this.lines = new RecoveryLines(config.ranks(), config.faultTolerance().keepLines());
        // A job whose protocol logs no payloads has nothing to dump (the baseline of a recovery check).
        this.loggers = config.logging().loggers().enabled() && protocol.logsPayloads()
                ? new LoggerNodes(config.logging().loggers(), config.ranks())
                : null;
        protocol.start(config.protocolServices(events::clientFor, lines, protocol::onReport, loggers));
        this.checkpoints = new LocalCheckpoints(config, loggers);
        this.report = new RunReport.Builder(config);
        ClassLoader parent = Thread.currentThread().getContextClassLoader();
        this.ranks = new RankRuntime(
                config,
                transport,
                new CommunicatorRegistry(),
                protocol,
                checkpoints.store(),
                checkpoints.store(),
                parent != null ? parent : Job.class.getClassLoader(),
                event -> coordinatorQueue.add(() -> take(event)),
                new ThreadHost());
    }

    /** Runs the job to its end and reports how every rank ended. */
    public static JobResult run(JobConfig config) {
        return run(config, event -> {});
    }

    /**
     * Runs the job to its end and reports how every rank ended; {@code observer} is told every rank
     * event in the order the job's coordinator takes them, on the coordinator's thread (it must not
     * block). A {@link JobObserver} also hears of every failure and recovery, and of the job's start and
     * end.
     */
    public static JobResult run(JobConfig config, RankEventSink observer) {
        Job job = new Job(config);
        job.observer = JobObserver.of(observer);
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
            throw new IllegalStateException("the job's coordinator is stuck" + RankRuntime.whereStuck(coordinator));
        }
        if (failure.get() != null) {
            throw new IllegalStateException("the job's coordinator failed: " + failure.get(), failure.get());
        }
        return result.get();
    }

    // ---------------------------------------------------------------------------------------------
    // Life cycle

    private JobResult execute() {
        OutputRouter.install();
        InputRouter.install();
        long start = System.nanoTime();
        record = new RunRecordWriter(config, start);
        int n = config.ranks();
        JobInput input = JobInput.forJob(config);
        for (int r = 0; r < n; r++) {
            ranks.open(
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
                checkpoints,
                System::nanoTime,
                n,
                config.faultTolerance().failures().kills(),
                config.limits().stallTimeout(),
                config.limits().stopGrace(),
                config.recordFile() == null ? null : record);
        observer = new Announcer(observer, n, start);
        coordinator.observe(observer);
        if (config.faultTolerance().notifies()) {
            coordinator.reportFailures(config.faultTolerance().spares());
        }
        observer.started(n, start);
        long resumeLine = checkpoints.resume(coordinator);
        // Every endpoint exists before any rank runs, so no early message is dropped: the threads start
        // once every rank is ready (Command.StartTogether).
        runTask(() -> coordinator.startAll(resumeLine));
        sampleLogs(System.nanoTime());
        long deadline = start + config.limits().timeout().toNanos();
        boolean timedOut = coordinate(deadline);
        sampleLogs(System.nanoTime());
        finished = true;
        ranks.wakeAll();
        if (timedOut) {
            describeWhereRanksWait("at the time limit");
            abort(-1, 1, "time limit of " + config.limits().timeout() + " exceeded");
        }
        JobAbortedException aborting = ranks.aborted();
        if (aborting != null) {
            // Before the ends still queued are taken in: a rank going down now is over, not recovered.
            runTask(() -> coordinator.abort(aborting.abortingRank(), aborting.errorCode(), aborting.getMessage()));
        }
        // Ranks post their end just before their thread exits: give them that moment (and, after an
        // abort, the time to notice it). An incarnation made for a restart whose thread never started
        // (the job ended first) has nothing to wait for.
        long graceDeadline = graceDeadline();
        for (int r = 0; r < n; r++) {
            Incarnation inc = ranks.slot(r).current();
            inc.goneIfNeverStarted();
            inc.awaitGone(graceDeadline);
        }
        // Ranks that noticed an abort posted their end; take those notices in.
        Runnable task;
        while ((task = coordinatorQueue.poll()) != null) {
            runTask(task);
        }
        JobAbortedException a = ranks.aborted();
        coordinator.reportKillsNotStruck();
        JobEnd.protocolFigures(report, protocol, loggers == null ? null : loggers.runRecord());
        List<RankOutcome> outcomes = new ArrayList<>(n);
        List<List<String>> output = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            RankSlot s = ranks.slot(r);
            s.output().flush();
            Incarnation inc = s.current();
            RankOutcome o = coordinator.outcome(r);
            boolean alive = !inc.isGone();
            boolean abortedInTime = a != null && !timedOut;
            if (abortedInTime && alive) {
                o = new RankOutcome(
                        r,
                        RankOutcome.Status.ABORTED,
                        "did not stop after the abort" + RankRuntime.whereStuck(inc.thread()),
                        null);
            } else if (abortedInTime && o == null) {
                // An incarnation stopped by the coordinator (a crash or a rollback) when the abort came.
                o = new RankOutcome(r, RankOutcome.Status.ABORTED, "stopped when the job was aborted", null);
            } else if (o == null || alive) {
                o = new RankOutcome(
                        r,
                        RankOutcome.Status.TIMED_OUT,
                        "still running at the time limit"
                                + (alive ? " (thread did not stop" + RankRuntime.whereStuck(inc.thread()) + ")" : ""),
                        null);
            }
            outcomes.add(o);
            output.add(s.output().lines());
            retire(inc);
        }
        transport.close();
        report.events(events.events(), events.bytes());
        protocol.close();
        if (loggers != null) {
            loggers.close();
        }
        checkpoints.close();
        JobResult result = JobEnd.result(
                config,
                report,
                record,
                start,
                outcomes,
                output,
                a == null ? null : a.getMessage(),
                a == null ? 0 : a.errorCode(),
                timedOut);
        observer.ended(result.ok());
        return result;
    }

    /** Runs coordinator tasks until every rank has ended; true if the time limit passed first. */
    private boolean coordinate(long deadline) {
        while (!coordinator.allEnded()) {
            if (ranks.aborted() != null) {
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
                boolean idle = coordinatorQueue.isEmpty();
                runTask(() -> {
                    reportRanks();
                    coordinator.tick(now, idle);
                });
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
        for (int r = 0; r < config.ranks(); r++) {
            Incarnation inc = ranks.slot(r).current();
            if (inc == null) {
                continue;
            }
            take(ranks.progress(inc, false)); // what it sent is read at its end (retire), not sampled
            RankEvent.LogHeld held = ranks.logHeld(inc);
            if (held != null) {
                take(held);
            }
        }
    }

    /**
     * Runs one coordinator task, then carries out the commands it led the coordinator to, behind an
     * exception barrier: a failure while recovering (a checkpoint that cannot be read, a bug) aborts the
     * job with the reason, so every rank stops and the job still ends with a result.
     */
    private void runTask(Runnable task) {
        try {
            task.run();
            for (Command c : coordinator.commands()) {
                carryOut(c);
            }
        } catch (RuntimeException | LinkageError e) {
            System.err.println("rewind: the coordinator failed: " + e);
            for (StackTraceElement el : e.getStackTrace()) {
                System.err.println("\tat " + el);
            }
            abort(-1, 1, "the coordinator failed: " + e);
        }
    }

    /** When ranks told to stop now must have stopped. */
    private long graceDeadline() {
        return System.nanoTime() + config.limits().stopGrace().toNanos();
    }

    /**
     * Coordinator: a rank event, taken by the coordinator (the observer told first). A rank thread
     * shares this JVM's clock, so the event is timed where it happened.
     */
    private void take(RankEvent event) {
        observer.emit(event);
        coordinator.step(event, event.at());
    }

    /**
     * Coordinator: an incarnation is gone, struck (its thread ended with the strike, or is held for
     * good): what it held is released, and the coordinator decides what follows.
     */
    private void onDown(Incarnation inc) {
        retire(inc);
        Strike strike = inc.strike();
        coordinator.down(inc.rank(), inc.number(), DownCause.crashed(strike == null ? "crashed" : strike.reason()));
    }

    /**
     * Coordinator: the ranks started together once none is still being made (so none sends to a peer
     * that does not exist yet); none after every rank has finished.
     */
    private void startTogether(Command.StartTogether c) {
        if (finished) {
            return;
        }
        for (Command.StartTogether.Ready r : c.ranks()) {
            coordinator.respawned(r.rank(), r.incarnation());
            coordinator.running(r.rank(), r.incarnation());
            ranks.start(ranks.slot(r.rank()).current());
        }
    }

    /** Carries out one of the coordinator's commands on the ranks' incarnations. Coordinator thread only. */
    private void carryOut(Command command) {
        switch (command) {
            case Command.Start c -> start(c);
            case Command.StartTogether c -> startTogether(c);
            case Command.Stop c -> stopIfCurrent(c.rank(), c.incarnation(), "rolled back");
            case Command.Crash c -> stopIfCurrent(
                    c.rank(),
                    c.incarnation(),
                    c.kill() == null ? "crashed" : "killed at " + c.kill().value() + " ms (" + c.kill() + ")");
            case Command.StopOverdue c -> {
                Incarnation inc = ranks.slot(c.rank()).current();
                if (inc.number() == c.incarnation() && !inc.isGone() && ranks.aborted() == null) {
                    abort(c.rank(), 1, "rank " + c.rank() + " " + c.failure() + RankRuntime.whereStuck(inc.thread()));
                }
            }
            case Command.Failed c -> {
                for (int r = 0; r < config.ranks(); r++) {
                    Incarnation inc = ranks.slot(r).current();
                    if (r != c.rank() && inc != null && !inc.isGone()) {
                        inc.engine().peerFailures().failed(c.rank(), c.incarnation());
                    }
                }
            }
            case Command.Revoke c -> {
                for (int r : c.members()) {
                    Incarnation inc = ranks.slot(r).current();
                    if (inc != null && !inc.isGone()) {
                        inc.engine().peerFailures().revoked(c.context());
                    }
                }
            }
            case Command.Decided c -> {
                for (int r : c.to()) {
                    Incarnation inc = ranks.slot(r).current();
                    if (inc != null && !inc.isGone()) {
                        inc.engine().peerFailures().decided(c.decision());
                    }
                }
            }
            case Command.PeersChanged c -> {
                // A rank's endpoint goes with its incarnation (retire): what is sent to it meanwhile is
                // dropped, as a dead process's inbound traffic is.
            }
            case Command.DiscardAfter c -> checkpoints.discardAfter(c.rank(), c.line());
            case Command.KeepFrom c -> checkpoints.keepFrom(c.line());
            case Command.Abort c -> ranks.markAborted(c.rank(), c.errorCode(), c.reason());
            case Command.Note c -> System.err.println(c.line());
            case Command.DescribeWaits c -> {
                List<WaitReport.Wait> waits = new ArrayList<>();
                for (int r : c.ranks()) {
                    Incarnation inc = ranks.slot(r).current();
                    StackTraceElement[] stack = inc.thread() == null
                            ? new StackTraceElement[0]
                            : inc.thread().getStackTrace();
                    waits.add(new WaitReport.Wait(
                            r, inc.number(), inc.engine().operations(), 0, WaitReport.where(stack)));
                }
                WaitReport.lines(c.prefix(), waits).forEach(System.err::println);
            }
        }
    }

    /** Prepares the incarnation the coordinator starts; its thread starts once every starting rank is ready. */
    private void start(Command.Start c) {
        CheckpointImage image = checkpoints.imageFor(c.rank(), c.incarnation(), c.line());
        Incarnation inc = ranks.prepare(
                ranks.slot(c.rank()), c.incarnation(), image, c.kills(), c.catchUpPoints(), c.catchUpOperations());
        if (c.replacement() != null) {
            ranks.replacing(inc, c.replacement());
        }
        coordinatorQueue.add(() -> coordinator.ready(inc.rank(), inc.number()));
    }

    /**
     * Strikes the incarnation for the coordinator, if it is still the rank's current one: it stops at
     * its next runtime call (the coordinator watches that it is down within the stop grace).
     */
    private void stopIfCurrent(int rank, int incarnation, String how) {
        Incarnation inc = ranks.slot(rank).current();
        if (inc.number() == incarnation) {
            ranks.stop(inc, how);
        }
    }

    /** The ranks' side of this job as their runtime asks for it: every rank is a thread of this JVM. */
    private final class ThreadHost implements RankHost {
        @Override
        public boolean jobFinished() {
            return finished;
        }

        @Override
        public JobAbortedException jobAbort() {
            return null; // every abort of this job is the ranks' own or this job's (ranks.abort)
        }

        @Override
        public void down(Incarnation inc) {
            coordinatorQueue.add(() -> onDown(inc));
        }

        @Override
        public void crashed(Incarnation inc) {
            // The thread ends; its end reports the incarnation gone, struck (down).
        }

        @Override
        public void exitBeforeFinalize(int status, boolean halt) {
            // A thread of this JVM must end its rank, not the JVM: the runtime ends it and aborts the job.
        }

        @Override
        public void lineWritten(RankEvent.Checkpointed line) {
            // This job's coordinator publishes the line when it takes the event.
        }

        @Override
        public void inTransitKept(RankEvent.KeptInTransit kept) {
            // As with its lines.
        }
    }

    /**
     * At the time limit or a stall ({@code when} says which), before the abort: where each rank that has
     * not ended is (its incarnation, its queues, the top of its thread's stack), so that a job that
     * stopped making progress says where.
     */
    private void describeWhereRanksWait(String when) {
        for (int r = 0; r < config.ranks(); r++) {
            Incarnation inc = ranks.slot(r).current();
            if (inc == null || coordinator.outcome(r) != null || inc.thread() == null || inc.isGone()) {
                continue;
            }
            System.err.println("rewind: " + when + ", " + RankRuntime.describe(inc));
        }
    }

    /** Releases what an incarnation held: endpoint, queues, payload log. */
    private void retire(Incarnation inc) {
        if (!inc.retire()) {
            return; // retired before
        }
        RankEngine engine = inc.engine();
        RankProtocol p = inc.protocol();
        report.traffic(inc.rank(), engine.traffic(), engine.operations());
        if (transport instanceof InJvmTransport local) {
            local.detach(inc.rank(), engine.mailbox());
        }
        Mailbox mailbox = engine.mailbox();
        mailbox.close();
        if (inc.number() > 0) {
            // Known when it ends: a replay may go on after the rank caught up. On the coordinator's
            // thread, so taken at once, before a next incarnation makes this one's stale.
            take(new RankEvent.Released(
                    inc.rank(),
                    inc.number(),
                    System.nanoTime(),
                    p.replayedToThisRank(),
                    mailbox.peakUnexpectedCount(),
                    mailbox.peakUnexpectedBytes()));
        }
        report.finalLog(inc.rank(), p.logStatistics());
        long[] collectives = p.collectiveLogFigures();
        report.collectiveLog(collectives[0], collectives[1]);
        report.determinants(p.determinantFigures());
        inc.close();
    }

    /**
     * Aborts the job (the first abort wins): every rank's waits notice it within one park slice, sooner
     * if woken. A rank's abort reaches the coordinator as its event; this job's own (the time limit, a
     * failure of its coordinator: {@code rank < 0}) is queued for it here.
     */
    private void abort(int rank, int errorCode, String reason) {
        if (rank >= 0) {
            ranks.abort(rank, errorCode, reason);
        } else if (ranks.markAborted(rank, errorCode, reason)) {
            // Wakes the coordinator, which then stops coordinating; what it decides from now on (a rank
            // going down is over, not recovered) knows of the abort.
            coordinatorQueue.add(() -> coordinator.abort(rank, errorCode, reason));
        }
    }
}
