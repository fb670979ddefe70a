package io.rewind.runtime.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.ft.Protocol;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.logger.LoggerNodes;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.RankOutcome;
import io.rewind.runtime.RecoveryPhase;
import io.rewind.runtime.RunReport;
import io.rewind.runtime.StallWatch;
import io.rewind.runtime.rank.RankEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The recovery scenarios of the recovery tests as scripts of events, against a host that only writes
 * down the commands it gets: every decision the coordinator takes, checked step by step, with no rank
 * running and no clock but the script's.
 */
class RecoveryCoordinatorTest {
    private static final Map<Long, Long> NONE = Map.of();
    private static final long[] NO_EVENTS = new long[2];
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    /** The storage of a script, and the commands the coordinator decided, taken as text. */
    private static final class ScriptHost extends ScriptStorage {
        RecoveryCoordinator coordinator;

        /** The commands decided since the last call, one line of text each. */
        List<String> take() {
            return coordinator.commands().stream().map(Command::toString).toList();
        }
    }

    private final ScriptHost host = new ScriptHost();
    private long now = 1_000_000_000L;
    private RunReport.Builder report;

    private RecoveryCoordinator coordinator(int ranks, Protocol protocol, FailureSchedule.Kill... kills) {
        return coordinator(ranks, protocol, Duration.ZERO, kills);
    }

    private RecoveryCoordinator coordinator(
            int ranks, Protocol protocol, Duration stallTimeout, FailureSchedule.Kill... kills) {
        report = new RunReport.Builder(
                JobConfig.builder("com.example.Main").ranks(ranks).build());
        host.coordinator = new RecoveryCoordinator(
                protocol,
                new RecoveryLines(ranks, 2),
                report,
                host,
                () -> now,
                ranks,
                List.of(kills),
                stallTimeout,
                STOP_GRACE,
                null);
        return host.coordinator;
    }

    /** Starts every rank and has each run; the host's commands so far are dropped. */
    private void runAll(RecoveryCoordinator c, int ranks) {
        c.startAll(0);
        for (int r = 0; r < ranks; r++) {
            assertTrue(c.ready(r, 0));
            c.running(r, 0);
        }
        host.take();
    }

    private void checkpoint(RecoveryCoordinator c, int rank, long line) {
        host.held.computeIfAbsent(rank, k -> new TreeSet<>()).add(line);
        assertTrue(c.step(checkpointed(rank, c.incarnation(rank), line, NONE, NONE, 100, 10), now));
    }

    /** A rank's line as it reports it (no holders: the host's store keeps it). */
    private RankEvent.Checkpointed checkpointed(
            int rank,
            int incarnation,
            long line,
            Map<Long, Long> frontiers,
            Map<Long, Long> sent,
            long bytes,
            long nanos) {
        return new RankEvent.Checkpointed(
                rank, incarnation, now, line, frontiers, sent, NO_EVENTS, bytes, nanos, List.of(), new long[0]);
    }

    /** The end of a rank's program with {@code outcome}. */
    private RankEvent.Ended ended(int rank, int incarnation, RankOutcome outcome) {
        return new RankEvent.Ended(rank, incarnation, now, outcome.status(), outcome.message(), 0, null, null);
    }

    private static DownCause sigkill() {
        return new DownCause("its process was killed (SIGKILL)", false, 137);
    }

    @Test
    void aCrashedRankAloneRestartsFromItsNewestLineAndItsTimelineMovesForward() {
        RecoveryCoordinator c = coordinator(3, new ScriptedProtocol(false, true));
        runAll(c, 3);
        for (int r = 0; r < 3; r++) {
            checkpoint(c, r, 1);
        }
        assertEquals(List.of("keep from 1"), host.take());

        now += 5;
        c.down(1, 0, sigkill());
        assertEquals(List.of("peers", "start 1.1 from 1"), host.take());
        assertEquals(RankLife.STARTING, c.life(1));
        assertEquals(RankLife.RUNNING, c.life(0));

        c.respawned(1, 1);
        assertTrue(c.ready(1, 1));
        c.running(1, 1);
        c.step(new RankEvent.Restored(1, 1, now, 1, 7), now);
        c.step(new RankEvent.CaughtUp(1, 1, now, 42, 3, 300), now);
        RunReport.FailureRecord f =
                report.build(Duration.ofSeconds(1)).failures().getFirst();
        assertEquals(RecoveryPhase.CAUGHT_UP, f.phase());
        assertEquals(1, f.line());
        assertEquals(42, f.replayedFrames());
        assertEquals(Set.of(1), f.rolledBack());
        assertEquals("its process was killed (SIGKILL)", f.how());
    }

    private static final long FROM_TWO_TO_ONE = io.rewind.engine.ChannelKey.of(0, 1);
    private static final long TO_ONE_FROM_TWO = io.rewind.engine.ChannelKey.of(0, 2);

    /**
     * Three ranks running, each with line 1 written: rank 2 had sent rank 1 five messages by then, and
     * rank 1 had received four (the fifth was in transit across the line).
     */
    private RecoveryCoordinator lineOneWithAMessageInTransitFromTwoToOne(ScriptedProtocol protocol) {
        RecoveryCoordinator c = coordinator(3, protocol);
        runAll(c, 3);
        for (int r = 0; r < 3; r++) {
            host.held.computeIfAbsent(r, k -> new TreeSet<>()).add(1L);
            Map<Long, Long> frontiers = r == 1 ? Map.of(TO_ONE_FROM_TWO, 4L) : NONE;
            Map<Long, Long> sent = r == 2 ? Map.of(FROM_TWO_TO_ONE, 5L) : NONE;
            assertTrue(c.step(checkpointed(r, 0, 1, frontiers, sent, 100, 10), now));
        }
        return c;
    }

    /**
     * What RandomSpmd 65 39 lines showed under spbc (three ranks killed at one operation count, planned
     * apart): rank 1 restarted from line 1 while rank 2 was alive, counting on rank 2's log for what
     * rank 2 had sent it before that line and line 1 does not hold (in transit across it); then rank 2
     * crashed too. Restarting rank 2 alone from its line 1 sends none of that again, and rank 1 waited
     * for ever. Rank 1 now rolls back with rank 2, to a line that holds it all.
     */
    @Test
    void aRankThatRestartedAndStillNeedsWhatACrashedRankLoggedRollsBackWithIt() {
        ScriptedProtocol protocol = new ScriptedProtocol(false, true);
        RecoveryCoordinator c = lineOneWithAMessageInTransitFromTwoToOne(protocol);
        host.take();

        c.down(1, 0, sigkill());
        assertEquals(List.of("peers", "start 1.1 from 1"), host.take());
        assertTrue(c.ready(1, 1));
        c.running(1, 1);

        c.down(2, 0, sigkill());
        List<String> commands = host.take();
        assertTrue(
                commands.stream().anyMatch(l -> l.startsWith("note rewind: rank [1] restarted from a line that lacks")),
                commands::toString);
        assertTrue(commands.contains("stop 1.1"), commands::toString);
        assertEquals(List.of(Set.of(1), Set.of(2), Set.of(1, 2)), protocol.planned);
        c.down(1, 1, new DownCause("rolled back", false, -1));
        // Line 1 is not complete for ranks 1 and 2 together (the fifth message is nowhere): from the start.
        assertEquals(List.of("peers", "start 1.2 from 0", "start 2.1 from 0"), host.take());
    }

    /** The same rank 1, once a line it wrote after its restart holds what rank 2 sent, stays. */
    @Test
    void aRankThatRestartedAndHasSinceWrittenALineHoldingItAllStays() {
        ScriptedProtocol protocol = new ScriptedProtocol(false, true);
        RecoveryCoordinator c = lineOneWithAMessageInTransitFromTwoToOne(protocol);
        c.down(1, 0, sigkill());
        assertTrue(c.ready(1, 1));
        c.running(1, 1);
        host.held.get(1).add(2L);
        assertTrue(c.step(checkpointed(1, 1, 2, Map.of(TO_ONE_FROM_TWO, 5L), NONE, 100, 10), now));
        host.take();

        c.down(2, 0, sigkill());
        assertEquals(List.of("peers", "start 2.1 from 1"), host.take());
        assertEquals(List.of(Set.of(1), Set.of(2)), protocol.planned);
    }

    @Test
    void aGlobalRollbackStopsEveryOtherRankAndStartsNoneUntilAllAreDown() {
        RecoveryCoordinator c = coordinator(3, new ScriptedProtocol(true, true));
        runAll(c, 3);
        for (int r = 0; r < 3; r++) {
            checkpoint(c, r, 1);
        }
        checkpoint(c, 2, 2); // not held by all: the rollback goes to 1
        host.take();

        c.down(0, 0, sigkill());
        assertEquals(List.of("peers", "stop 1.0", "stop 2.0"), host.take());
        // A line finished by a rank being stopped does not count: the plan restarts it from an older one.
        assertFalse(c.step(checkpointed(1, 0, 2, NONE, NONE, 1, 1), now));
        // Its end does not either: it runs again.
        assertFalse(c.step(ended(1, 0, new RankOutcome(1, RankOutcome.Status.COMPLETED, "", null)), now));

        c.down(1, 0, sigkill());
        assertEquals(List.of("peers"), host.take());
        assertTrue(host.linesHeld); // the plan's line must still be there when rank 2 is down too
        c.down(2, 0, sigkill());
        assertEquals(
                List.of(
                        "peers",
                        "discard 0 after 1",
                        "discard 1 after 1",
                        "discard 2 after 1",
                        "start 0.1 from 1",
                        "start 1.1 from 1",
                        "start 2.1 from 1"),
                host.take());
        assertFalse(host.linesHeld);
        // Only rank 0 failed; the others were rolled back, with no failure record of their own.
        assertEquals(1, report.build(Duration.ofSeconds(1)).failures().size());
    }

    @Test
    void ranksStruckTogetherArePlannedOnceWhenTheLastIsDown() {
        ScriptedProtocol protocol = new ScriptedProtocol(false, true);
        RecoveryCoordinator c = coordinator(3, protocol);
        runAll(c, 3);

        c.step(new RankEvent.Struck(2, 0, now, "killed at operation 5", 0, 5), now);
        assertEquals(List.of("strike 2.0"), host.take());
        c.down(1, 0, sigkill());
        // Rank 2 is struck but still there: nothing is planned until it is down too.
        assertEquals(List.of("peers"), host.take());
        c.down(2, 0, sigkill());
        assertEquals(List.of("peers", "start 1.1 from 0", "start 2.1 from 0"), host.take());
        assertEquals(List.of(Set.of(1, 2)), protocol.planned);
        assertEquals(5, c.catchUpOperations(2));
    }

    @Test
    void aKillThatFiresInARankARollbackStopsWaitsForItsNextIncarnation() {
        FailureSchedule.Kill kill = new FailureSchedule.Kill(1, FailureSchedule.Trigger.OPERATION, 100);
        RecoveryCoordinator c = coordinator(2, new ScriptedProtocol(true, true), kill);
        runAll(c, 2);

        c.down(0, 0, sigkill());
        assertEquals(List.of("peers", "stop 1.0"), host.take());
        c.step(new RankEvent.KillFired(1, 0, now, kill), now);
        c.step(new RankEvent.Struck(1, 0, now, "killed at operation 100", 0, 100), now);
        assertEquals(List.of("stop 1.0"), host.take()); // stopped, not struck: the kill is not spent
        c.down(1, 0, sigkill());
        assertEquals(
                List.of("peers", "discard 0 after 0", "discard 1 after 0", "start 0.1 from 0", "start 1.1 from 0"),
                host.take());
        assertEquals(List.of(kill), c.killsFiredBy(1));

        // In the next incarnation it fires and strikes: spent.
        c.ready(1, 1);
        c.running(1, 1);
        c.step(new RankEvent.KillFired(1, 1, now, kill), now);
        c.step(new RankEvent.Struck(1, 1, now, "killed at operation 100", 0, 100), now);
        assertEquals(List.of("strike 1.1 by " + kill), host.take());
        assertTrue(c.pendingKills().isEmpty());
    }

    /**
     * What a sweep found (RandomSpmd 657350 40 lines, mcml, kills 0@o53,1@o53 as rank processes): rank
     * 1's kill fired, rank 0's crash was planned first and rolled rank 1 back with it, and rank 1's
     * process was stopped before its strike reached the launcher. The kill had been spent without a
     * failure to show for it; it must wait for the next incarnation instead.
     */
    @Test
    void aKillThatFiredInARankStoppedForARollbackBeforeItsStrikeWasHeardWaitsForItsNextIncarnation() {
        FailureSchedule.Kill kill = new FailureSchedule.Kill(1, FailureSchedule.Trigger.OPERATION, 53);
        RecoveryCoordinator c = coordinator(2, new ScriptedProtocol(true, true), kill);
        runAll(c, 2);

        c.step(new RankEvent.KillFired(1, 0, now, kill), now);
        c.down(0, 0, sigkill());
        assertEquals(List.of("peers", "stop 1.0"), host.take());
        c.down(1, 0, sigkill()); // gone, by the stop, before its strike was heard
        assertEquals(
                List.of("peers", "discard 0 after 0", "discard 1 after 0", "start 0.1 from 0", "start 1.1 from 0"),
                host.take());
        assertEquals(List.of(kill), c.killsFiredBy(1));
        assertEquals(List.of(kill), c.pendingKills());
    }

    /**
     * What a sweep found (RandomSpmd 560531 36, spbc, kills 0@t157,2@t91, threads): a kill at a time
     * struck a rank whose program had just ended, and every rank's end was heard before the rank went
     * down, so there was nothing to recover. The kill counted as struck with no failure to show for it;
     * it is reported as not struck instead.
     */
    @Test
    void aTimeKillThatStrikesARankWhoseProgramHadEndedAsTheJobEndsIsReportedAsNotStruck() {
        FailureSchedule.Kill kill = new FailureSchedule.Kill(1, FailureSchedule.Trigger.TIME, 91);
        RecoveryCoordinator c = coordinator(2, new ScriptedProtocol(false, true), kill);
        runAll(c, 2);

        assertTrue(c.timeKill(kill));
        assertEquals(List.of("strike 1.0 by " + kill), host.take());
        RankOutcome ok1 = new RankOutcome(1, RankOutcome.Status.COMPLETED, "", null);
        assertTrue(c.step(ended(1, 0, ok1), now)); // its end was on its way when the kill struck
        assertTrue(c.step(ended(0, 0, new RankOutcome(0, RankOutcome.Status.COMPLETED, "", null)), now));
        assertTrue(c.allEnded());
        c.down(1, 0, sigkill());

        assertEquals(List.of(kill), c.pendingKills());
        assertEquals(ok1, c.outcome(1));
    }

    @Test
    void aTimeKillWaitsWhileTheRankIsBetweenIncarnationsAndIsSpentOnceItStrikes() {
        FailureSchedule.Kill kill = new FailureSchedule.Kill(0, FailureSchedule.Trigger.TIME, 50);
        RecoveryCoordinator c = coordinator(2, new ScriptedProtocol(false, true), kill);
        c.startAll(0);
        host.take();
        assertFalse(c.timeKill(kill)); // starting: try again
        assertTrue(c.ready(0, 0));
        c.running(0, 0);
        assertTrue(c.timeKill(kill));
        assertEquals(List.of("strike 0.0 by " + kill), host.take());
        assertTrue(c.pendingKills().isEmpty());
        assertTrue(c.timeKill(kill)); // spent: nothing more
        assertEquals(List.of(), host.take());
    }

    /**
     * A kill due at a time strikes on the first tick past its time, measured from the coordinator's
     * start; a rank between incarnations then has it tried again a moment later, and the tick the host
     * is asked for comes no later than that.
     */
    @Test
    void aKillDueAtATimeStrikesOnTheTickPastItAndIsTriedAgainWhileItsRankIsStarting() {
        long start = now;
        FailureSchedule.Kill kill = new FailureSchedule.Kill(1, FailureSchedule.Trigger.TIME, 50);
        RecoveryCoordinator c = coordinator(2, new ScriptedProtocol(false, true), kill);
        c.startAll(0);
        assertEquals(List.of("start 0.0 from 0", "start 1.0 from 0"), host.take());
        c.tick(now, true); // the first log sample: the next is due long after the kill
        assertEquals(start + 50_000_000L, c.nextTickNanos());

        now = start + 49_000_000L;
        c.tick(now, true);
        assertEquals(List.of(), host.take());
        now = start + 50_000_000L;
        c.tick(now, true); // rank 1 is still starting
        assertEquals(List.of(), host.take());
        assertEquals(now + RecoveryCoordinator.TIME_KILL_RETRY_NANOS, c.nextTickNanos());

        assertTrue(c.ready(0, 0));
        assertEquals(List.of(), host.take()); // rank 1 is still starting
        assertTrue(c.ready(1, 0));
        assertEquals(List.of("start together [0.0, 1.0]"), host.take());
        c.running(0, 0);
        c.running(1, 0);
        now += RecoveryCoordinator.TIME_KILL_RETRY_NANOS;
        c.tick(now, true);
        assertEquals(List.of("strike 1.0 by " + kill), host.take());
        assertTrue(c.pendingKills().isEmpty());
        now += RecoveryCoordinator.TIME_KILL_RETRY_NANOS;
        c.tick(now, true);
        assertEquals(List.of(), host.take());
    }

    /**
     * An incarnation told to stop for a rollback must be down within the stop grace: one that is not is
     * reported overdue once, for its host to abort the job; one that goes down in time is not.
     */
    @Test
    void anIncarnationToldToStopThatIsNotDownWithinTheStopGraceIsOverdue() {
        RecoveryCoordinator c = coordinator(3, new ScriptedProtocol(true, true));
        runAll(c, 3);
        c.down(2, 0, sigkill());
        assertEquals(List.of("peers", "stop 0.0", "stop 1.0"), host.take());
        now += STOP_GRACE.toNanos() / 2;
        c.down(1, 0, new DownCause("rolled back", false, -1));
        assertEquals(List.of("peers"), host.take());

        now += STOP_GRACE.toNanos() / 2 - 1;
        c.tick(now, true);
        assertEquals(List.of(), host.take());
        now += 1;
        assertEquals(now, c.nextTickNanos());
        c.tick(now, true);
        assertEquals(List.of("overdue 0.0: did not stop for the rollback"), host.take());
        now += STOP_GRACE.toNanos();
        c.tick(now, true);
        assertEquals(List.of(), host.take());
    }

    @Test
    void aRankStartingFromAnotherLineIsStoppedWhenANewPlanComes() {
        RecoveryCoordinator c = coordinator(2, new ScriptedProtocol(true, true));
        runAll(c, 2);
        checkpoint(c, 0, 1);
        checkpoint(c, 1, 1);
        host.take();
        c.down(0, 0, sigkill());
        c.down(1, 0, sigkill());
        assertEquals(
                List.of(
                        "peers",
                        "stop 1.0",
                        "peers",
                        "discard 0 after 1",
                        "discard 1 after 1",
                        "start 0.1 from 1",
                        "start 1.1 from 1"),
                host.take());
        // Rank 0's process cannot read line 1 and dies before it is reachable; the line goes.
        host.held.get(0).remove(1L);
        host.held.get(1).remove(1L);
        c.down(0, 1, new DownCause("its process exited with status 3", false, 3));
        // The new plan goes back to 0: rank 1, still starting from 1, is stopped and starts again.
        assertEquals(List.of("peers", "stop 1.1"), host.take());
        c.down(1, 1, sigkill());
        assertEquals(
                List.of("peers", "discard 0 after 0", "discard 1 after 0", "start 0.2 from 0", "start 1.2 from 0"),
                host.take());
    }

    @Test
    void theRanksOfALostNodeArePlannedTogether() {
        ScriptedProtocol protocol = new ScriptedProtocol(false, true);
        RecoveryCoordinator c = coordinator(4, protocol);
        runAll(c, 4);
        c.downTogether(List.of(2, 3), "its node n1 was lost");
        assertEquals(List.of("peers", "start 2.1 from 0", "start 3.1 from 0"), host.take());
        assertEquals(List.of(Set.of(2, 3)), protocol.planned);
    }

    @Test
    void sendersWhoseMessagesOnlyADeadLoggerHeldRollBackToo() {
        ScriptedProtocol protocol = new ScriptedProtocol(false, true);
        RecoveryCoordinator c = coordinator(3, protocol);
        runAll(c, 3);
        host.senders = new LoggerNodes.Rollback(Set.of(0), List.of("rank 0 re-executes"));
        c.down(2, 0, sigkill());
        assertEquals(List.of(Set.of(0, 2)), protocol.planned);
        assertEquals(List.of("peers", "note rewind: rank 0 re-executes", "stop 0.0"), host.take());
    }

    @Test
    void aProgramThatEndsItsProcessEndsTheJobWithItsStatus() {
        RecoveryCoordinator c = coordinator(2, new ScriptedProtocol(false, true));
        runAll(c, 2);
        c.down(1, 0, new DownCause("its process exited with status 4", true, 4));
        List<String> commands = host.take();
        assertEquals(1, commands.size());
        assertTrue(commands.getFirst().startsWith("abort 4: rank 1: its process exited with status 4"));
        assertEquals(RankOutcome.Status.FAILED, c.outcome(1).status());
        assertEquals(4, c.abortCode());
        // Ranks going down after the abort are over, not recovered.
        c.down(0, 0, sigkill());
        assertEquals(RankLife.EXITED, c.life(0));
        assertEquals(List.of(), host.take());
    }

    @Test
    void aCrashUnderAProtocolThatCannotRecoverAbortsTheJob() {
        RecoveryCoordinator c = coordinator(2, new ScriptedProtocol(false, false));
        runAll(c, 2);
        c.down(0, 0, sigkill());
        List<String> commands = host.take();
        assertTrue(commands.getFirst().contains("cannot recover: run with --protocol"), commands.toString());
        assertEquals(RankOutcome.Status.FAILED, c.outcome(0).status());
    }

    @Test
    void aRankThatKeepsDyingBeforeItIsReachableEndsTheJob() {
        RecoveryCoordinator c = coordinator(2, new ScriptedProtocol(false, true));
        runAll(c, 2);
        c.down(0, 0, sigkill());
        for (int i = 1; i <= 3; i++) {
            assertEquals(RankLife.STARTING, c.life(0));
            c.down(0, i, new DownCause("its process exited with status 1", true, 1));
        }
        assertTrue(c.aborted());
        assertTrue(c.abortReason().contains("died before starting 3 times in a row"), c.abortReason());
    }

    @Test
    void endsAreCountedOnceEveryRankHasEndedAndARestartRunsARankAgain() {
        RecoveryCoordinator c = coordinator(2, new ScriptedProtocol(false, true));
        runAll(c, 2);
        RankOutcome ok0 = new RankOutcome(0, RankOutcome.Status.COMPLETED, "", null);
        assertTrue(c.step(ended(0, 0, ok0), now));
        assertFalse(c.allEnded());
        c.down(0, 0, sigkill()); // a finished rank that crashes while serving its peers runs again
        assertNull(c.outcome(0));
        assertEquals(List.of("peers", "start 0.1 from 0"), host.take());
        assertTrue(c.step(ended(1, 0, new RankOutcome(1, RankOutcome.Status.COMPLETED, "", null)), now));
        assertFalse(c.allEnded());
        c.ready(0, 1);
        c.running(0, 1);
        assertTrue(c.step(ended(0, 1, ok0), now));
        assertTrue(c.allEnded());
    }

    @Test
    void aJobWhoseRanksAllWaitWithNoProgressIsAbortedAsStalled() {
        RecoveryCoordinator c = coordinator(2, new ScriptedProtocol(false, true), Duration.ofSeconds(2));
        runAll(c, 2);
        c.step(new RankEvent.Progress(0, 0, now, 10, 0, true, null), now);
        c.step(new RankEvent.Progress(1, 0, now, 12, 0, true, null), now);
        c.tick(now, true);
        now += Duration.ofSeconds(1).toNanos();
        c.tick(now, true);
        assertFalse(c.aborted());
        // Progress resets the watch.
        c.step(new RankEvent.Progress(1, 0, now, 13, 0, true, null), now);
        now += Duration.ofSeconds(1).toNanos();
        c.tick(now, true);
        now += Duration.ofSeconds(1).toNanos();
        c.tick(now, true);
        assertFalse(c.aborted());
        now += Duration.ofSeconds(1).toNanos();
        c.tick(now, true);
        assertTrue(c.aborted());
        List<String> commands = host.take();
        assertTrue(commands.contains("describe [0, 1]: rewind: after 2 s with no progress, "), commands.toString());
    }

    @Test
    void aJobThatMakesNoProgressWhileARankCatchesUpIsAbortedWithinSecondsNotAfterTheStallTimeout() {
        RecoveryCoordinator c = coordinator(2, new ScriptedProtocol(false, true), Duration.ofMinutes(5));
        runAll(c, 2);
        for (int r = 0; r < 2; r++) {
            checkpoint(c, r, 1);
        }
        c.down(1, 0, sigkill());
        c.respawned(1, 1);
        assertTrue(c.ready(1, 1));
        c.running(1, 1);
        c.step(new RankEvent.Restored(1, 1, now, 1, 7), now);
        host.take();
        // Both wait, none making an operation: the restarted rank never gets what it waits for.
        c.step(new RankEvent.Progress(0, 0, now, 10, 1, true, null), now);
        c.step(new RankEvent.Progress(1, 1, now, 3, 1, true, null), now);
        c.tick(now, true);
        now += StallWatch.DURING_RECOVERY.toNanos() - 1_000_000_000L;
        c.tick(now, true);
        assertFalse(c.aborted(), "not before 10 s");
        now += 1_000_000_000L;
        c.tick(now, true);
        assertTrue(c.aborted());
        assertTrue(c.abortReason().startsWith("no progress for 10 s during a recovery: "), c.abortReason());
        assertTrue(host.take().contains("describe [0, 1]: rewind: after 10 s with no progress, "));
    }
}
