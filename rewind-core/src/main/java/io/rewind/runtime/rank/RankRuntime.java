package io.rewind.runtime.rank;

import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointStore;
import io.rewind.checkpoint.CheckpointWriter;
import io.rewind.engine.CommunicatorFactory;
import io.rewind.engine.Liveness;
import io.rewind.engine.Mailbox;
import io.rewind.engine.MailboxSnapshot;
import io.rewind.engine.RankEngine;
import io.rewind.engine.ReplayMismatch;
import io.rewind.engine.RewindException;
import io.rewind.engine.Transport;
import io.rewind.ft.Protocol;
import io.rewind.ft.log.LogStatistics;
import io.rewind.notice.RuntimeNotices;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.InputRouter;
import io.rewind.runtime.JobAbortedException;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.OutputRouter;
import io.rewind.runtime.RankOutcome;
import io.rewind.runtime.coordinator.Strike;
import io.rewind.runtime.watch.CheckpointEvent;
import io.rewind.runtime.watch.MpiActivityEvent;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs the incarnations of a job's ranks, whatever hosts them: builds an incarnation (its engine, its
 * protocol's side, its checkpoint agent, its class loader), runs its program, applies the rules of
 * {@code System.exit}, strikes it, catches it up after a restart and reports what happens as {@link
 * RankEvent}s to one sink. The in-JVM job runs every rank of the job on one of these, as threads, and
 * hands the events to its coordinator's queue; a rank process runs its one rank on one and sends the
 * events over its link. What the two hosts do differently is asked of the {@link RankHost}.
 */
public final class RankRuntime {
    /** Frames of a stuck rank thread shown in the message that reports it. */
    private static final int STUCK_FRAMES = 12;
    /** Posted receives and queued frames of a rank described where it waits. */
    private static final int DESCRIBED_ENVELOPES = 6;
    /** Frames of a rank's stack described where it waits. */
    private static final int DESCRIBED_FRAMES = 14;

    private final JobConfig config;
    private final Transport transport;
    private final CommunicatorFactory communicators;
    private final Protocol protocol;
    private final CheckpointWriter checkpoints;
    private final CheckpointStore store;
    private final ClassLoader parentLoader;
    /** The bytes of the classes every rank defines, read once for the job ({@link RankClassLoader}). */
    private final Map<String, byte[]> classBytes = new java.util.concurrent.ConcurrentHashMap<>();

    private final RankEventSink events;
    private final RankHost host;
    private final RankSlot[] slots;
    private final AtomicReference<JobAbortedException> abort = new AtomicReference<>();

    /**
     * @param protocol    the job's protocol, started
     * @param checkpoints where the ranks write their checkpoints
     * @param store       this machine's checkpoint folder, for a kill that strikes a checkpoint being
     *                    written (null: the checkpoints go to a node's agent)
     * @param events      where every rank event goes
     */
    public RankRuntime(
            JobConfig config,
            Transport transport,
            CommunicatorFactory communicators,
            Protocol protocol,
            CheckpointWriter checkpoints,
            CheckpointStore store,
            ClassLoader parentLoader,
            RankEventSink events,
            RankHost host) {
        this.config = config;
        this.transport = transport;
        this.communicators = communicators;
        this.protocol = protocol;
        this.checkpoints = checkpoints;
        this.store = store;
        this.parentLoader = parentLoader;
        this.events = events;
        this.host = host;
        this.slots = new RankSlot[config.ranks()];
    }

    /** Sends a rank's event to its job (notify mode's calls). */
    void emit(RankEvent event) {
        events.emit(event);
    }

    JobConfig config() {
        return config;
    }

    Protocol protocol() {
        return protocol;
    }

    CheckpointWriter checkpoints() {
        return checkpoints;
    }

    CheckpointStore store() {
        return store;
    }

    /** Where rank {@code rank} prints and reads across its incarnations: made once, before its first. */
    public RankSlot open(int rank, OutputRouter.RankOutput output, InputRouter.RankInput input) {
        RankSlot slot = new RankSlot(rank, output, input);
        slots[rank] = slot;
        return slot;
    }

    /** The rank's slot (null if it was not opened here). */
    public RankSlot slot(int rank) {
        return slots[rank];
    }

    // ---------------------------------------------------------------------------------------------
    // Incarnations

    /**
     * Creates an incarnation of a rank, with its queues restored from {@code image} if given, and makes
     * it reachable; its thread is created but not started. {@code kills}: the kills of the schedule its
     * program's operations, points and checkpoint writes fire. {@code catchUpPoints} and {@code
     * catchUpOperations}: where its predecessor crashed, in checkpoint points, and for a restart from
     * the beginning in communication operations (0: by points).
     */
    public Incarnation prepare(
            RankSlot slot,
            int number,
            CheckpointImage image,
            List<FailureSchedule.Kill> kills,
            long catchUpPoints,
            long catchUpOperations) {
        int r = slot.rank();
        int n = config.ranks();
        Incarnation inc = new Incarnation(slot, number);
        inc.injector = new FailureInjector(this, new FailureSchedule(kills));
        inc.whenDown = host::down;
        inc.catchUpTarget = catchUpPoints;
        inc.catchUpOperations = catchUpOperations;
        inc.protocol = protocol.openRank(r, number);
        RankContext ctx = new RankContext(this, r, n);
        inc.engine = new RankEngine(r, n, transport, config.engine(), livenessOf(inc), inc.protocol, number);
        inc.engine.setCommunicatorFactory(communicators);
        if (inc.injector.hasOperationKills() || number > 0) {
            inc.engine.setOperationHook(ops -> onOperation(inc, ops));
        }
        boolean notifies = config.faultTolerance().notifies();
        if (notifies) {
            inc.engine.peerFailures().enable();
        }
        ctx.bind(inc.engine);
        inc.agent = new CheckpointAgent(this, inc, image);
        ctx.bind(inc.agent);
        if ((number > 0 || image != null) && !notifies) {
            // What the rank printed after its restart point it prints again: shown once only (a
            // resumed job's first incarnation counts on from what the run that died printed).
            slot.output().rewindTo(image == null ? new long[2] : CheckpointAgent.outputPosition(image));
            // And it reads again the standard input it had read after that point.
            slot.input().rewindTo(image == null ? 0 : CheckpointAgent.inputPosition(image));
        }
        if (protocol.checkpoints() && inc.protocol.tracksArrivals()) {
            inc.channelState = new ChannelStateKeeper(
                    r,
                    number,
                    config.faultTolerance().keepLines(),
                    checkpoints,
                    (line, upTo) -> onInTransitKept(inc, line, upTo));
            inc.engine.mailbox().keepInTransitWith(inc.channelState);
        }
        if (image != null && !notifies) {
            EngineStateCodec.State state = EngineStateCodec.decode(image.section(CheckpointAgent.RUNTIME_SECTION));
            // The messages in transit across the line join the queues as if they had arrived right after it.
            MailboxSnapshot queues = ChannelState.withInTransit(state.mailbox(), image);
            inc.engine.restoreLine(queues, Math.toIntExact(image.line()));
            if (inc.channelState != null) {
                inc.channelState.lineWritten(image.line()); // what crosses the line from here on is kept with it
            }
            inc.restoredFrontiers = queues.frontiers();
            inc.protocol.restartedFrom(image.line());
            byte[] protocolState = image.sections().get(CheckpointAgent.PROTOCOL_SECTION);
            if (protocolState != null) {
                inc.protocol.restoreState(protocolState);
            }
        }
        // A program's System.exit goes to programExit: as threads of one JVM it must end its rank, not
        // the JVM; in a rank process it must carry its status to the launcher after MPI.Finalize too.
        inc.loader = new RankClassLoader(ctx, config.classPathUrls(), parentLoader, classBytes);
        inc.thread = Thread.ofPlatform()
                .name("rank-" + r + (number > 0 ? "." + number : ""))
                .daemon(true)
                .unstarted(() -> runRank(inc));
        inc.thread.setContextClassLoader(inc.loader);
        slot.current(inc);
        inc.engine.attach();
        return inc;
    }

    /**
     * A replacement (notify mode): before its program runs, its world communicator becomes the one its
     * survivors asked for, and it knows its peers' incarnations and the failures so far.
     */
    public void replacing(Incarnation inc, io.rewind.runtime.coordinator.Command.Replacement r) {
        inc.engine.peerFailures().startKnowing(r.incarnations(), r.failed());
        inc.engine.worldContext(r.worldContext());
    }

    /** Starts the incarnation's program; a restart with nothing to catch up is caught up at once. */
    public void start(Incarnation inc) {
        inc.thread.start();
        if (inc.number > 0 && !config.faultTolerance().notifies()) {
            maybeCaughtUp(inc, 0);
        }
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
        OutputRouter.bind(s.output(), inc::live);
        InputRouter.bind(s.input());
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
                s.output().dropPartial(); // a crashed rank loses what it had not flushed
            } else {
                s.output().flush();
            }
            OutputRouter.unbind();
            InputRouter.unbind();
        }
        if (outcome == null) {
            if (inc.strike() == null) {
                markKilled(inc, "crashed", null, true);
            }
            host.crashed(inc); // struck before, on another thread of its program: a process goes no further
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
        inc.transition(IncarnationState.FINISHED, System.nanoTime(), o.status().name());
        if (inc.number > 0) {
            // At the latest when its program ends: the crash point is a count of operations, and a
            // re-execution may make fewer (polls that find nothing, which depend on timing), or it is
            // only as far as the launcher had heard of the rank before its process died.
            caughtUp(inc);
        }
        inc.slot.outcome(o);
        LogStatistics stats = inc.protocol.logStatistics();
        long[] collectives = inc.protocol.collectiveLogFigures();
        events.emit(new RankEvent.Ended(
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
     * The program called {@code System.exit} and the process it runs in is going (a rank process's
     * shutdown hook). After {@code MPI.Finalize} that is how some programs end, and the rank ends as if
     * its main had returned (its end reported, its peers served until the job ends) before the process
     * goes. Before it, nothing is done here: the exit status reaches the launcher, which ends the job
     * with it.
     */
    public void processExiting(Incarnation inc) {
        if (inc.state() != IncarnationState.RUNNING || !inc.context().isFinalized()) {
            return;
        }
        endedByExit(inc, new RankOutcome(inc.rank, RankOutcome.Status.COMPLETED, "", null));
    }

    /**
     * The end of a rank whose program called {@code System.exit}: what it printed is shown, its end
     * posted, and it counts as gone (its host takes the ends of the ranks gone in), whatever its threads
     * still do.
     */
    private void endedByExit(Incarnation inc, RankOutcome o) {
        inc.slot.output().flush();
        programEnded(inc, o);
        inc.goneNow();
    }

    /**
     * A rank that has finished keeps its log and keeps answering its peers until every rank has
     * finished: a peer that crashes now restarts and asks it for what it needs, as a rank process would
     * have to stay up for. Its thread makes the progress; a control message wakes it.
     */
    private void serveUntilJobEnds(Incarnation inc) {
        while (!host.jobFinished() && !inc.stopped() && aborted() == null) {
            inc.engine.progress();
            inc.engine.parkWhileServing(this);
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
            RuntimeNotices.print("rewind: " + m.getMessage());
            abort(rank, 1, m.getMessage());
            return new RankOutcome(rank, RankOutcome.Status.FAILED, m.getMessage(), m);
        }
        JobAbortedException a = aborted();
        if (cause instanceof JobAbortedException || (a != null && cause instanceof RewindException)) {
            return new RankOutcome(
                    rank, RankOutcome.Status.ABORTED, a != null ? a.getMessage() : cause.getMessage(), cause);
        }
        // One line as it happens; the job's end prints the failure once with its stack, the ranks it
        // struck grouped (JobResult.describeFailures), so many ranks failing alike do not print many traces.
        StackTraceElement[] at = cause.getStackTrace();
        RuntimeNotices.print(
                "rewind: rank " + rank + " failed: " + cause + (at.length > 0 ? " (at " + at[0] + ")" : ""));
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
    // Strikes

    /**
     * Kills the incarnation on its own side (a kill of its schedule, its crash): it stops at its next
     * runtime call, and the coordinator hears of it at once, so that ranks struck together are planned
     * together. Of several strikes at the same time (a scheduled kill, a rollback, its own crash) the
     * first one is recorded; the others change nothing. {@code onStruck} (may be null) runs only if this
     * call struck it, before the strike is reported (a rank process reports it and does not return).
     *
     * @return whether this call struck it (false: something else struck it first)
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
        if (!inc.strikeFirst(s)) {
            return false;
        }
        if (onStruck != null) {
            onStruck.run();
        }
        inc.transition(IncarnationState.KILLED, now, how);
        if (report) {
            // A rank process is killed from outside, as a real crash is: its emit does not return.
            events.emit(new RankEvent.Struck(inc.rank, inc.number, s.nanos(), how, s.points(), s.operations()));
        }
        inc.goneIfDone();
        return true;
    }

    /**
     * Strikes the incarnation because its host's coordinator says so (a rollback, a kill at a time,
     * {@code how}), and wakes its thread, which stops at its next runtime call. One made for a start
     * that never ran is gone at once.
     */
    public void stop(Incarnation inc, String how) {
        markKilled(inc, how, null, false);
        LockSupport.unpark(inc.thread);
        inc.goneIfNeverStarted();
    }

    /** A kill of the schedule fired in the incarnation. */
    void onKillFired(Incarnation inc, FailureSchedule.Kill kill) {
        events.emit(new RankEvent.KillFired(inc.rank, inc.number, System.nanoTime(), kill));
    }

    /** The incarnation struck ({@code how}) where it is now. */
    public static RankEvent.Struck struck(Incarnation inc, String how) {
        return new RankEvent.Struck(
                inc.rank, inc.number, System.nanoTime(), how, inc.agent.points(), inc.engine.operations());
    }

    private Liveness livenessOf(Incarnation inc) {
        return new Liveness() {
            @Override
            public void check() {
                checkAlive(inc);
            }

            @Override
            public boolean ended() {
                return inc.stopped() || inc.strike() != null || aborted() != null || host.jobFinished();
            }
        };
    }

    private void checkAlive(Incarnation inc) {
        // Struck counts as dead from the moment the strike is recorded, before the state moves: a thread
        // of the incarnation that passed this check in between could send, numbering a frame its
        // successor numbers differently (seen with two non-blocking collectives in flight).
        if (inc.exited.get() && OutputRouter.boundTo(inc.slot.output())) {
            holdForGood(inc); // its program exited, caught the error that unwinds it, and called again
        }
        if (inc.stopped() || inc.strike() != null) {
            // Only the rank's own threads (its program's) are held; a runtime thread that calls in for it
            // is told each time.
            if (!inc.toldToStop.add(Thread.currentThread()) && OutputRouter.boundTo(inc.slot.output())) {
                holdForGood(inc); // the program caught the error and called again
            }
            throw new RankKilledError(
                    inc.rank,
                    inc.number,
                    inc.strike() == null ? "retired" : inc.strike().reason());
        }
        JobAbortedException a = aborted();
        if (a != null) {
            throw new JobAbortedException(a.abortingRank(), a.errorCode(), a.getMessage());
        }
    }

    /**
     * A thread of rank {@code context}'s program called {@code System.exit(status)} ({@link RankExit}).
     * Before {@code MPI.Finalize} its host may end the process with that status ({@link
     * RankHost#exitBeforeFinalize}). Otherwise the first call ends the rank as {@code mpirun} treats a
     * process's end: status 0 after {@code MPI.Finalize} is its normal end (it then serves its peers
     * until the job ends); any other ends the job with that status (1 for 0 before {@code
     * MPI.Finalize}). The calling thread is then unwound; a thread of the rank that goes on (having
     * caught that) is held at its next runtime call. A thread of an incarnation that crashed or was
     * stopped is held at once. {@code halt}: the call was {@code Runtime.halt}. Does not return.
     */
    void programExit(RankContext context, int status, boolean halt) {
        if (!context.isFinalized()) {
            host.exitBeforeFinalize(status, halt);
        }
        Incarnation inc = slots[context.rank()].current();
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
            inc.slot.output().dropPartial();
            OutputRouter.unbind();
            InputRouter.unbind();
            if (inc.strike() != null) {
                host.crashed(inc); // a process goes no further
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

    // ---------------------------------------------------------------------------------------------
    // Callbacks from checkpoint agents and engines (rank threads)

    void onRestored(Incarnation inc, long line, long nanos) {
        events.emit(new RankEvent.Restored(inc.rank, inc.number, System.nanoTime(), line, nanos));
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
        events.emit(new RankEvent.CaughtUp(inc.rank, inc.number, System.nanoTime(), replayed, peak, peakBytes));
    }

    void onCheckpoint(
            Incarnation inc,
            long line,
            Map<Long, Long> frontiers,
            Map<Long, Long> sent,
            long[] figures,
            long bytes,
            long nanos) {
        if (inc.state() == IncarnationState.KILLED) {
            return; // crashed or being rolled back: a plan made meanwhile restarts it from an older line
        }
        RankEvent.Checkpointed written = new RankEvent.Checkpointed(
                inc.rank,
                inc.number,
                System.nanoTime(),
                line,
                frontiers,
                sent,
                figures,
                bytes,
                nanos,
                List.of(),
                new long[0]);
        if (io.rewind.ft.FlightRecording.started()) { // asked here: loading the event class would start JFR
            CheckpointEvent.emit(inc.rank, inc.number, line, bytes, nanos);
        }
        host.lineWritten(written);
        inc.protocol.wroteLine(line);
        inc.protocol.afterCheckpoint();
        // The coordinator counts the line, unless a plan made before it heard of it rolls the rank back
        // (RecoveryCoordinator.countsLinesOf). The others trim their logs only by what it counts.
        events.emit(written);
    }

    /**
     * The incarnation keeps, durably with {@code line}, the messages in transit across it up to these
     * sequence numbers per channel. What a rank being rolled back reports no longer counts, as with its
     * lines.
     */
    private void onInTransitKept(Incarnation inc, long line, Map<Long, Long> upTo) {
        if (inc.state() == IncarnationState.KILLED) {
            return;
        }
        RankEvent.KeptInTransit kept = new RankEvent.KeptInTransit(inc.rank, inc.number, System.nanoTime(), line, upTo);
        host.inTransitKept(kept);
        events.emit(kept);
    }

    // ---------------------------------------------------------------------------------------------
    // What a host reads of its incarnations

    /**
     * The incarnation's progress now; {@code withTraffic}: with what it has sent so far (a host that
     * reads that at its end leaves it out).
     */
    public RankEvent.Progress progress(Incarnation inc, boolean withTraffic) {
        boolean running = inc.state() == IncarnationState.RUNNING;
        RankEvent.Progress p = new RankEvent.Progress(
                inc.rank,
                inc.number,
                System.nanoTime(),
                inc.engine.operations(),
                inc.agent.points(),
                running && inc.engine.inBlockingWait(),
                withTraffic ? inc.engine.traffic().snapshot() : null);
        if (running && io.rewind.ft.FlightRecording.started()) {
            MpiActivityEvent.emit(p.rank(), p.incarnation(), p.operations(), p.points(), p.waiting());
        }
        return p;
    }

    /** Whether its program runs (not yet started, finished, struck or released: false). */
    public static boolean running(Incarnation inc) {
        return inc.state() == IncarnationState.RUNNING;
    }

    /** What the incarnation holds in its log now; null once it was released. */
    public RankEvent.LogHeld logHeld(Incarnation inc) {
        if (inc.state() == IncarnationState.RETIRED) {
            return null;
        }
        return new RankEvent.LogHeld(
                inc.rank,
                inc.number,
                System.nanoTime(),
                inc.protocol.heldLogBytes(),
                inc.protocol.heldLogMemoryBytes());
    }

    /** Where an incarnation is: its state, its queues, the top of its thread's stack. */
    public static String describe(Incarnation inc) {
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
                .append(inc.engine.mailbox().describeQueues(DESCRIBED_ENVELOPES))
                .append(") is at:");
        StackTraceElement[] stack = inc.thread.getStackTrace();
        for (int i = 0; i < Math.min(stack.length, DESCRIBED_FRAMES); i++) {
            b.append("\n\tat ").append(stack[i]);
        }
        return b.toString();
    }

    /**
     * Where a rank thread that should have stopped is, for the report: the top of its stack, or its
     * state if it has none (it ended, or never started, between the wait and this call).
     */
    public static String whereStuck(Thread thread) {
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

    // ---------------------------------------------------------------------------------------------
    // Abort

    /** The job's abort, as these ranks know it (theirs, their host's, or one heard of elsewhere), or null. */
    public JobAbortedException aborted() {
        JobAbortedException a = abort.get();
        if (a == null && (a = host.jobAbort()) != null) {
            abort.compareAndSet(null, a);
            a = abort.get();
        }
        return a;
    }

    /**
     * A rank aborts the job (its program's {@code MPI.Abort}, a failure of its program): the first abort
     * wins, is emitted for the coordinator, and every rank's waits notice it within one park slice,
     * sooner if woken.
     */
    public void abort(int rank, int errorCode, String reason) {
        if (!abort.compareAndSet(null, new JobAbortedException(rank, errorCode, reason))) {
            return;
        }
        Incarnation inc = slots[rank] == null ? null : slots[rank].current();
        events.emit(
                new RankEvent.AbortRequested(rank, inc == null ? 0 : inc.number, System.nanoTime(), errorCode, reason));
        wakeAll();
    }

    /**
     * The job's abort as its coordinator decided it (or its host: the time limit, a failure of the
     * coordinator): every rank's waits notice it, and nothing is emitted (the coordinator knows). The
     * first abort wins; true if this was it.
     */
    public boolean markAborted(int rank, int errorCode, String reason) {
        if (!abort.compareAndSet(null, new JobAbortedException(rank, errorCode, reason))) {
            return false;
        }
        wakeAll();
        return true;
    }

    /** Wakes every rank's current thread (it looks again at the job's state). */
    public void wakeAll() {
        for (RankSlot s : slots) {
            Incarnation inc = s == null ? null : s.current();
            if (inc != null && inc.thread != null) {
                LockSupport.unpark(inc.thread);
            }
        }
    }
}
