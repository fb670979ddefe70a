package io.rewind.runtime.coordinator;

import io.rewind.ft.Protocol;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.RecoveryView;
import io.rewind.ft.logger.LoggerNodes;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.RankOutcome;
import io.rewind.runtime.RecoveryPhase;
import io.rewind.runtime.RunRecordWriter;
import io.rewind.runtime.RunReport;
import io.rewind.runtime.StallWatch;
import io.rewind.runtime.rank.RankEvent;
import io.rewind.runtime.watch.JobObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The job's recovery coordinator: what it knows of every rank, and every decision taken on it. It is
 * fed events (a rank started, ended, went down, was struck, wrote a line; a node was lost; a kill is
 * due; time passed) and answers with {@link Command}s, values its host takes after each call ({@link
 * #commands}) and carries out: start an incarnation from a line, stop one, strike one, abort. What it
 * needs of storage to plan it reads through a view handed in ({@link StoredLines}), never by asking
 * the host. Which ranks roll back and to which line is the protocol's
 * plan ({@link Protocol#plan}); the coordinator makes sure the plan is carried out whole: every rank
 * it names is down before any is started again, and a failure meanwhile is planned anew with the
 * others.
 *
 * <p>Kill accounting and the kills due at a time, the stall watch, log sampling for the run record and
 * the recovery timeline of every failure live here too, so they are the same whatever runs the ranks.
 *
 * <p>Single-threaded: every method is called on the host's coordinator thread. Nothing here waits or
 * does I/O; the clock is given, so a test drives it as a script of events.
 */
public final class RecoveryCoordinator {
    /** Incarnations of one rank that may go down in a row before they are reachable, before the job is given up. */
    static final int MAX_FAILED_STARTS = 3;
    /** How soon a kill due at a time that found its rank between incarnations tries again. */
    static final long TIME_KILL_RETRY_NANOS = 5_000_000L;

    private final Protocol protocol;
    private final RecoveryLines lines;
    private final RunReport.Builder report;
    private final StoredLines storage;
    /** The commands decided since the host last took them ({@link #commands}). */
    private final List<Command> commands = new ArrayList<>();
    /** The kills due at a time, by when each is next tried; armed when the ranks first start. */
    private final Map<FailureSchedule.Kill, Long> timeKillsDue = new LinkedHashMap<>();

    private final LongSupplier clock;
    private final RankRecord[] ranks;
    private final List<FailureSchedule.Kill> pendingKills;
    private final StallWatch stallWatch;
    /** How long an incarnation told to stop or crash may take to go down before the job is aborted. */
    private final long stopGraceNanos;
    /** Where log samples go (null: no run record). */
    private final RunRecordWriter record;

    private final long startNanos;
    private final RecoveryView view = new View();

    private RecoveryPlan pendingPlan;
    /** Told of every failure and recovery as it happens (set by the host before the job starts). */
    private JobObserver observer = JobObserver.NONE;

    private long nextSampleNanos;
    /** The line storage was last told to hold back from ({@link Command.KeepFrom}). */
    private long keepFromSent;

    /** The fault-tolerant collectives, when failures are reported to the program; null: they are recovered. */
    private FailureCalls failureCalls;
    /** Replacements the job may still make (-1: any number). */
    private int sparesLeft = -1;
    /** Replacement decisions waiting for their new incarnations to run, with the ranks they go to. */
    private final List<Command.Decided> awaitingReplacements = new ArrayList<>();

    private boolean allEnded;
    private String abortReason;
    private int abortCode;
    private int abortingRank;

    /**
     * @param kills   the kills of the schedule this coordinator strikes or accounts for: those due at a
     *                time, and those the ranks fire themselves (reported by {@link #killFired})
     * @param storage what the job's storage holds, read while a recovery is planned
     * @param record  where log samples go (null: no run record)
     */
    public RecoveryCoordinator(
            Protocol protocol,
            RecoveryLines lines,
            RunReport.Builder report,
            StoredLines storage,
            LongSupplier clock,
            int rankCount,
            List<FailureSchedule.Kill> kills,
            Duration stallTimeout,
            Duration stopGrace,
            RunRecordWriter record) {
        this.protocol = protocol;
        this.lines = lines;
        this.report = report;
        this.storage = storage;
        this.clock = clock;
        this.ranks = new RankRecord[rankCount];
        for (int r = 0; r < rankCount; r++) {
            ranks[r] = new RankRecord(r);
        }
        this.pendingKills = new ArrayList<>(kills);
        this.stallWatch = new StallWatch(stallTimeout);
        this.stopGraceNanos = stopGrace.toNanos();
        this.record = record;
        this.startNanos = clock.getAsLong();
    }

    /**
     * The job reports failures to its program instead of recovering them ({@code --on-failure notify}):
     * no rank rolls back, every rank is told of each failure, and the fault-tolerant collectives are
     * decided here. {@code spares}: how many replacements the job may make (-1: any number). Before
     * the job starts.
     */
    public void reportFailures(int spares) {
        this.failureCalls = new FailureCalls(this::goneFrom);
        this.sparesLeft = spares;
    }

    /** Whether failures are reported to the program ({@link #reportFailures}). */
    public boolean reportsFailures() {
        return failureCalls != null;
    }

    /** Whether incarnation {@code incarnation} of {@code rank} can no longer take part in a call. */
    private boolean goneFrom(int rank, int incarnation) {
        RankRecord s = ranks[rank];
        return s.incarnation > incarnation
                || (s.incarnation == incarnation
                        && (s.life == RankLife.DOWN || s.life == RankLife.EXITED || s.life == RankLife.ENDED));
    }

    /** Who is told of every failure once its recovery is planned, and of every recovery once it is over. */
    public void observe(JobObserver observer) {
        this.observer = observer;
    }

    // ---------------------------------------------------------------------------------------------
    // What the host asks

    /** The rank's current incarnation. */
    public int incarnation(int rank) {
        return ranks[rank].incarnation;
    }

    public RankLife life(int rank) {
        return ranks[rank].life;
    }

    /** Whether {@code incarnation} is the rank's current one (an earlier one's news are stale). */
    public boolean isCurrent(int rank, int incarnation) {
        return ranks[rank].incarnation == incarnation;
    }

    /** The communication operations the rank's current incarnation last reported. */
    public long operations(int rank) {
        return ranks[rank].operationsHeard();
    }

    /** For a restart from the beginning, the operations at which it is back there (0: count points). */
    public long catchUpOperations(int rank) {
        return ranks[rank].catchUpOperations;
    }

    /** How the rank ended (null: it has not, or runs again). */
    public RankOutcome outcome(int rank) {
        return ranks[rank].outcome;
    }

    /** The kills of the schedule that have not struck (yet). */
    public List<FailureSchedule.Kill> pendingKills() {
        return List.copyOf(pendingKills);
    }

    /** The kills of the schedule the rank's incarnations fire themselves (not those due at a time). */
    public List<FailureSchedule.Kill> killsFiredBy(int rank) {
        List<FailureSchedule.Kill> out = new ArrayList<>();
        for (FailureSchedule.Kill k : pendingKills) {
            if (k.rank() == rank && k.trigger() != FailureSchedule.Trigger.TIME) {
                out.add(k);
            }
        }
        return out;
    }

    /** Whether every rank has ended its program. */
    public boolean allEnded() {
        return allEnded;
    }

    public boolean aborted() {
        return abortReason != null;
    }

    /** Why the job was aborted (null: it was not). */
    public String abortReason() {
        return abortReason;
    }

    public int abortCode() {
        return abortCode;
    }

    public int abortingRank() {
        return abortingRank;
    }

    /** When the coordinator next wants {@link #tick}: its host waits for events no longer than that. */
    public long nextTickNanos() {
        long next = nextSampleNanos;
        for (long due : timeKillsDue.values()) {
            next = Math.min(next, due);
        }
        for (RankRecord s : ranks) {
            if (s.stopDeadline != 0) {
                next = Math.min(next, s.stopDeadline);
            }
        }
        return next;
    }

    /**
     * The commands decided since the last call, in the order decided, for the host to carry out now; the
     * host takes them after every call that may decide something (an event, a tick, a start).
     */
    public List<Command> commands() {
        if (commands.isEmpty()) {
            return List.of();
        }
        List<Command> out = List.copyOf(commands);
        commands.clear();
        return out;
    }

    private void command(Command c) {
        commands.add(c);
    }

    private void note(String line) {
        command(new Command.Note(line));
    }

    /** Tells the host to stop the rank's incarnation (a rollback), which must be down within the grace. */
    private void stop(RankRecord s) {
        command(new Command.Stop(s.rank, s.incarnation));
        watchStop(s, "did not stop for the rollback");
    }

    /** Tells the host to crash the rank's incarnation ({@code kill}: why, or null), as for {@link #stop}. */
    private void crash(RankRecord s, FailureSchedule.Kill kill) {
        command(new Command.Crash(s.rank, s.incarnation, kill));
        watchStop(s, "did not stop after its crash");
    }

    private void watchStop(RankRecord s, String failure) {
        s.stopDeadline = Math.max(1, clock.getAsLong() + stopGraceNanos);
        s.stopFailure = failure;
    }

    /** What the protocol may look at to plan a recovery. */
    public RecoveryView view() {
        return view;
    }

    // ---------------------------------------------------------------------------------------------
    // Events: the life of an incarnation

    // ---------------------------------------------------------------------------------------------
    // Events: the ranks'

    /**
     * One event of a rank's incarnation, heard at {@code at} on this coordinator's clock (a host that
     * shares the rank's clock passes {@link RankEvent#at()}; one that does not, the event's arrival).
     * True if it counted: it came from the rank's current incarnation and was taken (a line written by
     * a rank being rolled back does not count, nor does the end of a program being stopped for a
     * rollback; see {@link #countsLinesOf}).
     */
    public boolean step(RankEvent event, long at) {
        return switch (event) {
            case RankEvent.Restored e -> {
                restored(e.rank(), e.incarnation(), e.nanos(), at);
                yield true;
            }
            case RankEvent.Checkpointed e -> checkpointed(
                    e.rank(), e.incarnation(), e.line(), e.frontiers(), e.sent(), e.events(), e.bytes(), e.nanos());
            case RankEvent.KeptInTransit e -> inTransitKept(e.rank(), e.incarnation(), e.line(), e.upTo());
            case RankEvent.Unrestorable e -> false; // the host's storage is told; the plan learns it from there
            case RankEvent.CaughtUp e -> {
                caughtUp(e.rank(), e.incarnation(), e.replayed(), e.peakUnmatched(), e.peakUnmatchedBytes(), at);
                yield true;
            }
            case RankEvent.Released e -> {
                replayFigures(e.rank(), e.incarnation(), e.replayed(), e.peakUnmatched(), e.peakUnmatchedBytes());
                yield true;
            }
            case RankEvent.KillFired e -> {
                killFired(e.rank(), e.incarnation(), e.kill());
                yield true;
            }
            case RankEvent.Struck e -> {
                struck(e.rank(), e.incarnation(), e.reason(), e.points(), e.operations(), at);
                yield true;
            }
            case RankEvent.Ended e -> ended(e.rank(), e.incarnation(), e.outcome());
            case RankEvent.Progress e -> {
                progress(e.rank(), e.incarnation(), e.operations(), e.points(), e.waiting());
                yield true;
            }
            case RankEvent.LogHeld e -> {
                logHeld(e.rank(), e.incarnation(), e.payloadBytes(), e.memoryBytes());
                yield true;
            }
            case RankEvent.Revoked e -> {
                if (current(e.rank(), e.incarnation()) == null || failureCalls == null) {
                    yield false;
                }
                command(new Command.Revoke(
                        e.context(), Arrays.stream(e.members()).boxed().toList()));
                yield true;
            }
            case RankEvent.FailureCall e -> {
                if (current(e.rank(), e.incarnation()) == null || failureCalls == null) {
                    yield false;
                }
                failureCalls.join(e);
                decideFailureCalls();
                yield true;
            }
            case RankEvent.AbortRequested e -> {
                abort(e.rank(), e.errorCode(), e.reason());
                yield true;
            }
        };
    }

    /**
     * Starts every rank's first incarnation, from {@code line} (0: the beginning; more: a resumed job),
     * and arms the kills due at a time (counted from the coordinator's start).
     */
    public void startAll(long line) {
        for (RankRecord s : ranks) {
            s.restartLine = line;
            s.lineReached = line;
            s.transition(RankLife.STARTING);
            command(new Command.Start(s.rank, s.incarnation, line, killsFiredBy(s.rank), 0, 0));
        }
        for (FailureSchedule.Kill k : pendingKills) {
            if (k.trigger() == FailureSchedule.Trigger.TIME) {
                timeKillsDue.put(k, startNanos + TimeUnit.MILLISECONDS.toNanos(k.value()));
            }
        }
    }

    /** The incarnation exists again, a restart's process or thread: the respawn of its failure is over. */
    public void respawned(int rank, int incarnation) {
        RankRecord s = current(rank, incarnation);
        if (s != null && s.recovery != null) {
            s.recovery.enter(RecoveryPhase.RESPAWNED, clock.getAsLong());
        }
    }

    /**
     * The incarnation can be reached by its peers; true if it was waiting to be. Once no rank is still
     * starting, every ready one starts ({@link Command.StartTogether}).
     */
    public boolean ready(int rank, int incarnation) {
        RankRecord s = current(rank, incarnation);
        if (s == null || s.life != RankLife.STARTING) {
            return false;
        }
        s.failedStarts = 0;
        s.transition(RankLife.READY);
        if (!anyStarting()) {
            List<Command.StartTogether.Ready> ready = new ArrayList<>();
            for (RankRecord o : ranks) {
                if (o.life == RankLife.READY) {
                    ready.add(new Command.StartTogether.Ready(o.rank, o.incarnation));
                }
            }
            command(new Command.StartTogether(List.copyOf(ready)));
        }
        return true;
    }

    /** Whether some rank is still starting (not yet reachable). */
    private boolean anyStarting() {
        for (RankRecord s : ranks) {
            if (s.life == RankLife.STARTING) {
                return true;
            }
        }
        return false;
    }

    /** The incarnation runs its program. */
    public void running(int rank, int incarnation) {
        RankRecord s = current(rank, incarnation);
        if (s == null || (s.life != RankLife.STARTING && s.life != RankLife.READY)) {
            return;
        }
        s.transition(RankLife.RUNNING);
        if (failureCalls != null) {
            releaseReplacements();
        }
        if (s.recovery != null && s.restartLine == 0) {
            s.recovery.enter(RecoveryPhase.RESTORED, clock.getAsLong()); // nothing to load
        }
    }

    /**
     * The incarnation loaded its recovery line at {@code atNanos} ({@code System.nanoTime()} where it
     * happened, when the host shares this clock; else when the host heard of it), which took {@code
     * nanos} of work.
     */
    private void restored(int rank, int incarnation, long nanos, long atNanos) {
        RankRecord s = current(rank, incarnation);
        if (s != null && s.recovery != null) {
            s.recovery.enter(RecoveryPhase.RESTORED, atNanos);
            s.recovery.restoreWork(nanos);
        }
    }

    /**
     * The incarnation is back where its predecessor crashed, at {@code atNanos} (as for {@link
     * #restored}), after {@code replayed} frames replayed to it.
     */
    private void caughtUp(
            int rank, int incarnation, long replayed, int peakUnmatched, long peakUnmatchedBytes, long atNanos) {
        RankRecord s = current(rank, incarnation);
        if (s != null && s.recovery != null) {
            boolean first = s.recovery.enter(RecoveryPhase.CAUGHT_UP, atNanos);
            s.recovery.replayed(replayed);
            s.recovery.unmatchedAtMost(peakUnmatched, peakUnmatchedBytes);
            if (first) {
                observer.recovered(s.recovery);
            }
        }
    }

    /**
     * The replay figures of the incarnation's recovery as they stand when it is released: a replay may go
     * on after the rank caught up.
     */
    private void replayFigures(int rank, int incarnation, long replayed, int peakUnmatched, long peakUnmatchedBytes) {
        RankRecord s = current(rank, incarnation);
        if (s != null && s.recovery != null) {
            s.recovery.replayed(replayed);
            s.recovery.unmatchedAtMost(peakUnmatched, peakUnmatchedBytes);
        }
    }

    /** What the incarnation last said of its progress, for the stall watch and the crash point. */
    private void progress(int rank, int incarnation, long operations, long points, boolean waiting) {
        RankRecord s = current(rank, incarnation);
        if (s != null) {
            s.progressIncarnation = incarnation;
            s.operations = operations;
            s.points = points;
            s.waiting = waiting;
        }
    }

    /** The payload bytes the incarnation's log holds now and the memory it takes, for the run record. */
    private void logHeld(int rank, int incarnation, long bytes, long memoryBytes) {
        RankRecord s = current(rank, incarnation);
        if (s != null && s.life != RankLife.DOWN) {
            s.logBytes = bytes;
            s.logMemoryBytes = memoryBytes;
        }
    }

    /**
     * Whether a line the incarnation wrote counts: not one finished by a rank already being rolled back,
     * or reported after it went down. A plan made meanwhile restarts it from an older line, so the others
     * must not trim their logs by this one (they would drop what it needs again).
     */
    public boolean countsLinesOf(int rank, int incarnation) {
        RankRecord s = current(rank, incarnation);
        return s != null && s.life != RankLife.STOPPING && s.life != RankLife.DOWN && s.life != RankLife.EXITED;
    }

    /**
     * The incarnation wrote recovery line {@code line}: what it had received ({@code frontiers}) and sent
     * per channel, and its event counts. False if the line does not count ({@link #countsLinesOf}).
     */
    private boolean checkpointed(
            int rank,
            int incarnation,
            long line,
            Map<Long, Long> frontiers,
            Map<Long, Long> sent,
            long[] events,
            long bytes,
            long nanos) {
        if (!countsLinesOf(rank, incarnation)) {
            return false;
        }
        ranks[rank].lineReached = line;
        lines.published(rank, line, frontiers, events, sent);
        keepFromAllComplete();
        protocol.onCheckpoint(rank, line, frontiers);
        report.checkpoint(rank, bytes, nanos);
        return true;
    }

    /** The incarnation keeps, durably with {@code line}, the messages in transit across it up to {@code upTo}. */
    private boolean inTransitKept(int rank, int incarnation, long line, Map<Long, Long> upTo) {
        if (!countsLinesOf(rank, incarnation)) {
            return false;
        }
        lines.keptInTransit(rank, line, upTo);
        keepFromAllComplete();
        return true;
    }

    /** A rank of a resumed job starts from {@code line}, as if it had just written it. */
    public void resumedFrom(int rank, long line, Map<Long, Long> frontiers, long[] events, Map<Long, Long> sent) {
        lines.published(rank, line, frontiers, events, sent);
        protocol.onCheckpoint(rank, line, frontiers);
    }

    /**
     * The incarnation's program ended with {@code outcome}. False if that is not the rank's outcome: a
     * stale incarnation, or one being stopped for a rollback (it runs again from its line).
     */
    private boolean ended(int rank, int incarnation, RankOutcome outcome) {
        RankRecord s = current(rank, incarnation);
        if (s == null || !s.life.exists() || s.life == RankLife.STOPPING) {
            return false;
        }
        s.outcome = outcome;
        s.transition(RankLife.ENDED);
        if (failureCalls != null) {
            decideFailureCalls();
        }
        report.rankTime(rank, (clock.getAsLong() - startNanos) / 1e9);
        for (RankRecord o : ranks) {
            if (o.outcome == null) {
                return true;
            }
        }
        allEnded = true;
        return true;
    }

    /** The incarnation is gone ({@code cause} says how): recovered, unless the job is over or cannot. */
    public void down(int rank, int incarnation, DownCause cause) {
        RankRecord s = current(rank, incarnation);
        if (s != null && markDown(s, cause)) {
            afterDeaths();
        }
    }

    /**
     * Ranks went down together (their node was lost: their logs went with it, so they recover
     * together, planned once).
     */
    public void downTogether(Collection<Integer> lost, String reason) {
        long now = clock.getAsLong();
        boolean any = false;
        for (int r : lost) {
            RankRecord s = ranks[r];
            if (!s.life.exists()) {
                continue;
            }
            if (s.strike == null) {
                s.strike = new Strike(now, reason, s.pointsHeard(), s.operationsHeard());
            }
            any |= markDown(s, new DownCause(reason, false, 137));
        }
        if (any) {
            afterDeaths();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Events: kills

    /**
     * A kill of the schedule fired in the incarnation (it fires operation and point kills itself). One
     * that fires in an incarnation a rollback is stopping waits for the next incarnation, instead of
     * striking one that is going anyway (and being lost).
     */
    private void killFired(int rank, int incarnation, FailureSchedule.Kill kill) {
        RankRecord s = current(rank, incarnation);
        if (s != null && s.life == RankLife.STOPPING) {
            s.firedKill = null;
            return;
        }
        pendingKills.remove(kill);
        if (s != null) {
            s.firedKill = kill;
        }
    }

    /**
     * The incarnation says it was struck ({@code reason}) at {@code atNanos} (as for {@link #restored}),
     * at {@code points} points and {@code operations}.
     */
    private void struck(int rank, int incarnation, String reason, long points, long operations, long atNanos) {
        RankRecord s = current(rank, incarnation);
        if (s == null) {
            return;
        }
        if (s.life == RankLife.STOPPING) {
            // Stopped for the rollback before its strike was seen: its kill waits for the next incarnation.
            killWaits(s);
            stop(s);
        } else if (s.strike == null) {
            s.strike = new Strike(atNanos, reason, points, operations);
            crash(s, s.firedKill);
        }
    }

    /**
     * A kill due at a time: it strikes the rank's running incarnation. True if it is done with (struck,
     * or nothing left to strike); false if the rank is between incarnations, so it is tried again a
     * moment later ({@link #tick}) and strikes the next one.
     */
    public boolean timeKill(FailureSchedule.Kill k) {
        RankRecord s = ranks[k.rank()];
        if (abortReason != null || allEnded || !pendingKills.contains(k)) {
            return true;
        }
        if (s.life == RankLife.ENDED || s.life == RankLife.EXITED) {
            return true; // the rank has finished: nothing left to crash
        }
        if (s.life != RankLife.RUNNING || s.strike != null) {
            return false;
        }
        pendingKills.remove(k);
        s.firedKill = k;
        s.strike = new Strike(
                clock.getAsLong(), "killed at " + k.value() + " ms (" + k + ")", s.pointsHeard(), s.operationsHeard());
        crash(s, k);
        return true;
    }

    // ---------------------------------------------------------------------------------------------
    // Events: the job

    /** The first abort wins: the host tells every rank. */
    public void abort(int rank, int errorCode, String reason) {
        if (abortReason != null) {
            return;
        }
        abortReason = reason;
        abortCode = errorCode;
        abortingRank = rank;
        command(new Command.Abort(rank, errorCode, reason));
    }

    /**
     * Time passed: the kills due by now, the incarnations told to stop that are overdue, a log sample
     * for the run record when one is due, and the stall watch. {@code idle}: the host has no event
     * waiting (a stall is only one if nothing is about to happen).
     */
    public void tick(long now, boolean idle) {
        for (RankRecord s : ranks) {
            if (s.stopDeadline != 0 && now >= s.stopDeadline) {
                s.stopDeadline = 0;
                if (s.life.exists() && abortReason == null) {
                    command(new Command.StopOverdue(s.rank, s.incarnation, s.stopFailure));
                }
            }
        }
        for (Map.Entry<FailureSchedule.Kill, Long> due : new ArrayList<>(timeKillsDue.entrySet())) {
            if (due.getValue() > now) {
                continue;
            }
            if (timeKill(due.getKey())) {
                timeKillsDue.remove(due.getKey());
            } else {
                timeKillsDue.put(due.getKey(), now + TIME_KILL_RETRY_NANOS);
            }
        }
        if (now < nextSampleNanos) {
            return;
        }
        sampleLogs(now);
        watchForStall(now, idle);
    }

    /** A log sample for the run record now, whether due or not (at the start and at the end of the job). */
    public void sampleLogs(long now) {
        nextSampleNanos = now + RunRecordWriter.SAMPLE_EVERY_NANOS;
        if (record == null) {
            return;
        }
        long[] bytes = new long[ranks.length];
        long[] memory = new long[ranks.length];
        for (int r = 0; r < ranks.length; r++) {
            bytes[r] = ranks[r].logBytes;
            memory[r] = ranks[r].logMemoryBytes;
        }
        record.sample(now, bytes, memory);
    }

    /** The kills of the schedule that never struck go to the report (at the end of the job). */
    public void reportKillsNotStruck() {
        report.killsNotStruck(pendingKills);
    }

    // ---------------------------------------------------------------------------------------------
    // Decisions

    private RankRecord current(int rank, int incarnation) {
        RankRecord s = ranks[rank];
        return s.incarnation == incarnation ? s : null;
    }

    /**
     * Records that a rank's incarnation is gone; true if that calls for a recovery (the job was not
     * over, and the protocol recovers), which {@link #afterDeaths} then starts.
     */
    private boolean markDown(RankRecord s, DownCause cause) {
        s.stopDeadline = 0; // down: whatever it was told, it did
        if (s.life == RankLife.EXITED || s.life == RankLife.DOWN) {
            return false;
        }
        if (allEnded || abortReason != null) {
            // A kill that struck after its program had ended, the job ending before the rank went down,
            // crashed nothing there was to recover: it is reported as not struck.
            killWaits(s);
            s.transition(RankLife.EXITED);
            return false;
        }
        boolean rolledBack = s.life == RankLife.STOPPING;
        boolean neverReachable = s.life == RankLife.STARTING;
        boolean programRan = s.life == RankLife.RUNNING; // only then can its program have ended it
        s.transition(RankLife.DOWN);
        if (rolledBack) {
            // A kill that fired, the rollback's stop taking the rank down before its strike was heard,
            // waits for the next incarnation, as one that fires while the rank is being stopped does.
            killWaits(s);
        }
        // Its log went with it: the run record shows 0 until the next incarnation reports.
        s.logBytes = 0;
        s.logMemoryBytes = 0;
        if (neverReachable && ++s.failedStarts >= MAX_FAILED_STARTS) {
            // One that cannot even start (a broken JVM, class path or checkpoint) would be restarted
            // for ever: give up, with what its last attempt printed.
            return failJob(
                    s,
                    1,
                    "its process died before starting, " + s.failedStarts + " times in a row",
                    "rank " + s.rank + ": its process died before starting " + s.failedStarts
                            + " times in a row (last exit status " + cause.status() + "); see its output above");
        }
        if (s.strike == null && programRan && cause.endedByProgram()) {
            // Ended by its program (System.exit, say) before its end reached the coordinator: a
            // re-execution would end it again, so, as under mpirun, the job ends with that status
            // instead of recovering for ever.
            int status = cause.status();
            return failJob(
                    s,
                    status == 0 ? 1 : status,
                    "its process exited with status " + status + " before MPI.Finalize",
                    "rank " + s.rank + ": its process exited with status " + status
                            + " before MPI.Finalize (its program ended it); a process killed by a signal is a crash and"
                            + " is recovered, one that exits is not");
        }
        s.detectedNanos = clock.getAsLong();
        if (s.strike == null) {
            s.strike = new Strike(s.detectedNanos, cause.how(), s.pointsHeard(), s.operationsHeard());
        }
        s.failed = !rolledBack;
        if (failureCalls != null) {
            reportFailure(s);
            return false;
        }
        if (!protocol.recovers()) {
            return failJob(
                    s,
                    1,
                    "crashed (" + s.strike.reason() + "); protocol " + protocol.name() + " cannot recover",
                    "rank " + s.rank + " crashed (" + s.strike.reason() + ") and protocol " + protocol.name()
                            + " cannot recover: run with --protocol " + recoveringNames());
        }
        return true;
    }

    /**
     * Notify mode: the rank's failure is told to every other rank, and it is not restarted (unless its
     * peers ask for a replacement). The job goes on without it.
     */
    private void reportFailure(RankRecord s) {
        s.outcome = new RankOutcome(
                s.rank, RankOutcome.Status.LOST, "failed (" + s.strike.reason() + "); its peers were told", null);
        double at = (s.detectedNanos - startNanos) / 1e9;
        note(String.format(
                java.util.Locale.ROOT,
                "rewind: rank %d failed at %.1f s (%s); its peers are told (--on-failure notify)",
                s.rank,
                at,
                cause(s.firedKill, s.strike)));
        pendingKills.remove(s.firedKill);
        failureCalls.failed(s.rank, s.incarnation);
        command(new Command.Failed(s.rank, s.incarnation));
        command(new Command.PeersChanged());
        decideFailureCalls();
        allEnded = true;
        for (RankRecord o : ranks) {
            if (o.outcome == null) {
                allEnded = false;
            }
        }
    }

    /** Decides every fault-tolerant collective that no member it waits for can still join. */
    private void decideFailureCalls() {
        for (FailureCalls.Pending p : failureCalls.complete()) {
            List<Integer> to = new ArrayList<>();
            for (int w : p.callers()) {
                if (!goneFrom(w, ranks[w].incarnation)) {
                    to.add(w);
                }
            }
            switch (p.kind) {
                case AGREE -> command(new Command.Decided(failureCalls.agreement(p), to));
                case SHRINK -> command(new Command.Decided(failureCalls.shrink(p), to));
                case REPLACE -> replace(p, to);
            }
        }
    }

    /**
     * Starts a replacement of every member that is gone, each from its newest line, and tells the callers
     * once all run; with too few spares left, the callers get the survivors instead (a shrink).
     */
    private void replace(FailureCalls.Pending p, List<Integer> to) {
        List<Integer> lost = failureCalls.goneMembers(p);
        if (sparesLeft >= 0 && lost.size() > sparesLeft) {
            note("rewind: warning: " + lost.size() + " replacement" + (lost.size() == 1 ? "" : "s")
                    + " asked for and " + sparesLeft + " spare" + (sparesLeft == 1 ? "" : "s")
                    + " left (--spares): the communicator shrinks instead");
            command(new Command.Decided(failureCalls.shrink(p), to));
            return;
        }
        if (sparesLeft > 0) {
            sparesLeft -= lost.size();
        }
        int context = failureCalls.context();
        int[] replaced = new int[2 * lost.size()];
        for (int i = 0; i < lost.size(); i++) {
            RankRecord s = ranks[lost.get(i)];
            s.incarnation++;
            replaced[2 * i] = s.rank;
            replaced[2 * i + 1] = s.incarnation;
        }
        int[] incarnations = new int[ranks.length];
        for (RankRecord s : ranks) {
            incarnations[s.rank] = s.incarnation;
        }
        int[] failedPairs = failureCalls.failurePairs();
        for (int w : lost) {
            RankRecord s = ranks[w];
            long line = view.newestLine(w);
            s.outcome = null;
            s.strike = null;
            s.firedKill = null;
            s.failed = false;
            s.recovery = null;
            s.restartLine = line;
            s.lineReached = line;
            s.transition(RankLife.STARTING);
            note("rewind: rank " + w + " is replaced (incarnation " + s.incarnation + ", "
                    + (line == 0 ? "from the beginning" : "from its line " + line) + ")");
            command(new Command.Start(
                    w,
                    s.incarnation,
                    line,
                    killsFiredBy(w),
                    0,
                    0,
                    new Command.Replacement(context, incarnations, failedPairs)));
        }
        allEnded = false;
        awaitingReplacements.add(new Command.Decided(failureCalls.replacement(p, replaced, context), to));
        releaseReplacements();
    }

    /** Tells the callers of each replacement whose new incarnations all run. */
    private void releaseReplacements() {
        awaitingReplacements.removeIf(d -> {
            int[] r = d.decision().replaced();
            for (int i = 0; i < r.length; i += 2) {
                RankRecord s = ranks[r[i]];
                if (s.incarnation == r[i + 1] && s.life != RankLife.RUNNING && s.life != RankLife.ENDED) {
                    return false;
                }
            }
            command(d);
            return true;
        });
    }

    /** The kill that fired in the rank, if any, goes back to the schedule: it struck nothing that counts. */
    private void killWaits(RankRecord s) {
        if (s.firedKill != null && !pendingKills.contains(s.firedKill)) {
            pendingKills.add(s.firedKill);
        }
        s.firedKill = null;
    }

    /** The rank failed ({@code outcome} says how) and the job ends with {@code code}. False: no recovery. */
    private boolean failJob(RankRecord s, int code, String outcome, String reason) {
        s.outcome = new RankOutcome(s.rank, RankOutcome.Status.FAILED, outcome, null);
        abort(s.rank, code, reason);
        return false;
    }

    private void afterDeaths() {
        command(new Command.PeersChanged());
        recover();
    }

    private static String recoveringNames() {
        List<String> names = new ArrayList<>();
        for (ProtocolDescriptor d : ProtocolRegistry.recovering()) {
            names.add(d.name());
        }
        return String.join(" or ", names);
    }

    /**
     * Plans a recovery for the ranks that are down, stops the others the plan rolls back, and once all
     * of them are down starts them again. Called again as each stopped rank goes down, and when another
     * rank fails meanwhile (then planned anew, for all of them).
     */
    private void recover() {
        for (RankRecord s : ranks) {
            if (s.life == RankLife.STOPPING || (s.strike != null && s.life.exists())) {
                // Ranks still being stopped (for the plan, or struck: they fail together with the
                // others): their going down calls this again.
                return;
            }
        }
        Set<Integer> down = new TreeSet<>();
        for (RankRecord s : ranks) {
            if (s.life == RankLife.DOWN) {
                down.add(s.rank);
            }
        }
        if (down.isEmpty()) {
            return;
        }
        RecoveryPlan plan = pendingPlan;
        if (plan == null || !plan.rollback().containsAll(down)) {
            Set<Integer> failed = new TreeSet<>();
            for (RankRecord s : ranks) {
                if (s.life == RankLife.DOWN && s.failed) {
                    failed.add(s.rank);
                }
            }
            Set<Integer> planned = new TreeSet<>(failed.isEmpty() ? down : failed);
            // Messages only a dead logger held can be sent again only by their senders' re-execution.
            LoggerNodes.Rollback senders = storage.sendersToRollBack(planned);
            if (!senders.senders().isEmpty()) {
                senders.notes().forEach(n -> note("rewind: " + n));
                planned.addAll(senders.senders());
            }
            storage.holdPruning(true);
            plan = protocol.plan(planned, view);
            // A rank that restarted earlier may still wait for what the ranks of this plan sent before
            // its line, which only their logs held: it rolls back with them (planned anew, as failed).
            for (Set<Integer> stranded = strandedBy(plan); !stranded.isEmpty(); stranded = strandedBy(plan)) {
                note("rewind: rank" + (stranded.size() > 1 ? "s " : " ") + stranded
                        + " restarted from a line that lacks what " + plan.rollback() + " sent before line "
                        + plan.line() + ", which only their lost logs held: "
                        + (stranded.size() > 1 ? "they roll" : "it rolls") + " back with them");
                planned.addAll(stranded);
                plan = protocol.plan(planned, view);
            }
            for (String note : plan.notes()) {
                note("rewind: " + note);
            }
            pendingPlan = plan;
        }
        boolean stopping = false;
        for (int r : plan.rollback()) {
            RankRecord s = ranks[r];
            // A rank still starting for an earlier plan goes on only if it starts from this plan's line:
            // one starting from another line would run beside ranks restarted from this one.
            boolean startingElsewhere = s.life == RankLife.STARTING && s.restartLine != plan.line();
            if ((s.life != RankLife.DOWN && s.life != RankLife.STARTING) || startingElsewhere) {
                s.transition(RankLife.STOPPING);
                stop(s);
                stopping = true;
            }
        }
        if (!stopping) {
            pendingPlan = null;
            restart(plan);
        }
    }

    /**
     * The ranks outside {@code plan} whose current incarnation restarted from a line (or was resumed
     * from one) that does not hold everything the plan's ranks sent them before the plan's line: they
     * took the rest from those ranks' logs, or were about to, and the plan's ranks will not send it
     * again. Judged by the newest line each wrote since, so a rank that has taken it all in and written
     * a line is left alone. Empty when the plan rolls back every rank.
     */
    private Set<Integer> strandedBy(RecoveryPlan plan) {
        Set<Integer> out = new TreeSet<>();
        if (plan.rollback().size() == ranks.length) {
            return out; // nobody left who could be waiting
        }
        for (RankRecord s : ranks) {
            if (plan.rollback().contains(s.rank) || (s.incarnation == 0 && s.restartLine == 0)) {
                continue; // running since the job started: every message sent to it reached it
            }
            if (s.life == RankLife.ENDED || s.life == RankLife.EXITED) {
                continue; // its program is over: it needs nothing more
            }
            if (!lines.holdsSentBefore(s.rank, s.lineReached, plan.rollback(), plan.line())) {
                out.add(s.rank);
            }
        }
        return out;
    }

    /** Every rank of the plan is down (or starting from its line): starts the ones that are down. */
    private void restart(RecoveryPlan plan) {
        for (int r : plan.rollback()) {
            if (plan.discardNewerLines()) {
                command(new Command.DiscardAfter(r, plan.line()));
                lines.discardAfter(r, plan.line());
            }
            lines.restartedFrom(r, plan.line());
        }
        protocol.onRollback(plan);
        for (int r : plan.rollback()) {
            RankRecord s = ranks[r];
            if (s.life != RankLife.DOWN) {
                continue; // being started already
            }
            Strike strike = s.strike;
            if (s.failed && strike != null) {
                s.recovery = report.failure(
                        r,
                        s.incarnation,
                        strike.reason(),
                        strike.nanos(),
                        s.detectedNanos,
                        plan.line(),
                        plan.rollback(),
                        plan.notes());
                observer.failed(s.recovery, cause(s.firedKill, strike));
                s.catchUpPoints = strike.points();
                // From the beginning, where it crashed is counted in operations (a program without the
                // checkpoint API passes no point).
                s.catchUpOperations = plan.line() == 0 ? strike.operations() : 0;
            } else {
                s.recovery = null;
                s.catchUpPoints = 0;
                s.catchUpOperations = 0;
            }
            s.outcome = null; // a rank that had finished runs again
            s.strike = null;
            s.firedKill = null;
            s.failed = false;
            s.incarnation++;
            s.restartLine = plan.line();
            s.lineReached = plan.line();
            s.transition(RankLife.STARTING);
            command(new Command.Start(
                    r, s.incarnation, plan.line(), killsFiredBy(r), s.catchUpPoints, s.catchUpOperations));
        }
        storage.holdPruning(false);
        allEnded = false;
    }

    /** Why a rank failed, as its announcement says it: the kill of the schedule, or what struck it. */
    private static String cause(FailureSchedule.Kill kill, Strike strike) {
        return kill != null ? "killed: --kill " + kill : strike.reason();
    }

    /** Tells storage when the newest line complete for all ranks moved. */
    private void keepFromAllComplete() {
        long line = lines.allComplete();
        if (line == keepFromSent) {
            return;
        }
        keepFromSent = line;
        command(new Command.KeepFrom(line));
    }

    /**
     * At every sample: aborts the job once every rank that has not ended has been running and parked in
     * a blocking MPI wait for the stall timeout, with no rank making an operation, no incarnation
     * changing and nothing for the coordinator to do. Nothing can end such a wait (a deadlock of the
     * program, or a fault of the runtime), so the job says where each rank waits and ends, rather than
     * wait for its time limit.
     */
    private void watchForStall(long now, boolean idle) {
        if (!stallWatch.enabled() || abortReason != null) {
            return;
        }
        long[] progress = new long[2 * ranks.length];
        boolean anyWaits = false;
        boolean recovering = false;
        for (RankRecord s : ranks) {
            if (s.outcome != null || s.life == RankLife.ENDED) {
                continue; // ended: it serves its peers, and waits for nothing
            }
            if (s.life != RankLife.RUNNING || s.progressIncarnation != s.incarnation || !s.waiting) {
                stallWatch.reset();
                return; // computing, polling, starting, or in a recovery
            }
            anyWaits = true;
            recovering |= s.recovery != null && s.recovery.phase() != RecoveryPhase.CAUGHT_UP;
            progress[2 * s.rank] = s.incarnation;
            progress[2 * s.rank + 1] = s.operations;
        }
        if (!anyWaits || !idle) {
            stallWatch.reset();
        } else if (stallWatch.stalled(now, progress, recovering)) {
            List<Integer> waiting = new ArrayList<>();
            for (RankRecord s : ranks) {
                if (s.outcome == null && s.life == RankLife.RUNNING) {
                    waiting.add(s.rank);
                }
            }
            command(new Command.DescribeWaits(
                    List.copyOf(waiting), "rewind: after " + stallWatch.limitText() + " with no progress, "));
            abort(-1, 1, stallWatch.reason());
        }
    }

    /** The lines each rank's current incarnation reached, the lines storage holds, and which are complete. */
    private final class View implements RecoveryView {
        @Override
        public int ranks() {
            return ranks.length;
        }

        @Override
        public long newestLine(int rank) {
            return ranks[rank].lineReached;
        }

        @Override
        public long newestCommonLine(Collection<Integer> of, long atMost) {
            return storage.newestCommonLine(of, atMost);
        }

        @Override
        public boolean complete(Collection<Integer> group, long line) {
            return lines.complete(group, line);
        }
    }
}
