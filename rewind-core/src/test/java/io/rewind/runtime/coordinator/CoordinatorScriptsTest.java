package io.rewind.runtime.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rewind.ft.RecoveryLines;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.RankOutcome;
import io.rewind.runtime.RunReport;
import io.rewind.runtime.rank.RankEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Recovery scenarios written as text: lines of what happens to the ranks (events in), each followed
 * by the commands the coordinator answers with, prefixed {@code <} (commands out). A step that leads
 * to no command is followed by none; every step is checked. The grammar, a line each:
 *
 * <pre>
 *   job N local|global [kills SPEC]   N ranks, a protocol that plans the failed ranks alone or every rank
 *   start                             every rank's first incarnation, from the beginning
 *   ready R.I | running R.I           the incarnation is reachable | runs its program
 *   line R.I L                        it wrote line L (held by storage from then on)
 *   struck R.I REASON                 it says it was struck
 *   ended R.I                         its program ended well
 *   down R.I                          it is gone (its process killed)
 *   wait MS                           the clock moves on, and the coordinator is given a tick
 *   &lt; COMMAND                         a command the step before decided, as it reads
 * </pre>
 */
class CoordinatorScriptsTest {
    @Test
    void aCrashedRankAloneRestartsFromItsNewestLine() {
        run(
                """
                job 3 local
                start
                < start 0.0 from 0
                < start 1.0 from 0
                < start 2.0 from 0
                ready 0.0
                ready 1.0
                ready 2.0
                < start together [0.0, 1.0, 2.0]
                running 0.0
                running 1.0
                running 2.0
                line 0.0 1
                line 1.0 1
                line 2.0 1
                < keep from 1
                down 1.0
                < peers
                < start 1.1 from 1
                ready 1.1
                < start together [1.1]
                """);
    }

    @Test
    void aGlobalRollbackStopsTheOthersAndStartsNoneUntilAllAreDown() {
        run(
                """
                job 3 global
                start
                < start 0.0 from 0
                < start 1.0 from 0
                < start 2.0 from 0
                ready 0.0
                ready 1.0
                ready 2.0
                < start together [0.0, 1.0, 2.0]
                line 0.0 1
                line 1.0 1
                line 2.0 1
                < keep from 1
                down 0.0
                < peers
                < stop 1.0
                < stop 2.0
                down 1.0
                < peers
                down 2.0
                < peers
                < discard 0 after 1
                < discard 1 after 1
                < discard 2 after 1
                < start 0.1 from 1
                < start 1.1 from 1
                < start 2.1 from 1
                """);
    }

    @Test
    void aKillDueAtATimeWaitsForItsRankToRunThenStrikes() {
        run(
                """
                job 2 local kills 1@t50
                start
                < start 0.0 from 0
                < start 1.0 from 0
                wait 60
                ready 0.0
                ready 1.0
                < start together [0.0, 1.0]
                running 0.0
                running 1.0
                wait 10
                < strike 1.0 by 1@t50
                down 1.0
                < peers
                < start 1.1 from 0
                """);
    }

    @Test
    void aRankThatIgnoresItsStopPastTheGraceIsOverdue() {
        run(
                """
                job 2 global
                start
                < start 0.0 from 0
                < start 1.0 from 0
                ready 0.0
                ready 1.0
                < start together [0.0, 1.0]
                running 0.0
                running 1.0
                struck 0.0 killed at operation 3
                < strike 0.0
                down 0.0
                < peers
                < stop 1.0
                wait 9999
                wait 1
                < overdue 1.0: did not stop for the rollback
                wait 10000
                """);
    }

    @Test
    void ranksThatAllEndWellEndTheJobWithNoCommand() {
        run(
                """
                job 2 local
                start
                < start 0.0 from 0
                < start 1.0 from 0
                ready 0.0
                ready 1.0
                < start together [0.0, 1.0]
                running 0.0
                running 1.0
                ended 0.0
                ended 1.0
                """);
    }

    // ---------------------------------------------------------------------------------------------

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private RecoveryCoordinator coordinator;
    private final ScriptStorage storage = new ScriptStorage();
    private long now = 1_000_000_000L;

    /** Runs a script: every step, then the commands it decided against those the script expects. */
    private void run(String script) {
        List<String> expected = new ArrayList<>();
        String step = null;
        int number = 0;
        for (String line : script.strip().split("\n")) {
            number++;
            line = line.strip();
            if (line.startsWith("<")) {
                expected.add(line.substring(1).strip());
                continue;
            }
            if (step != null) {
                check(step, expected);
            }
            step = number + ": " + line;
            take(line.split("\\s+"), line);
        }
        check(step, expected);
    }

    private void check(String step, List<String> expected) {
        List<String> actual =
                coordinator.commands().stream().map(Command::toString).toList();
        assertEquals(expected, actual, "the commands after line " + step);
        expected.clear();
    }

    private void take(String[] w, String line) {
        switch (w[0]) {
            case "job" -> {
                int n = Integer.parseInt(w[1]);
                List<FailureSchedule.Kill> kills =
                        w.length > 3 ? FailureSchedule.parse(w[4], n).kills() : List.of();
                coordinator = new RecoveryCoordinator(
                        new ScriptedProtocol(w[2].equals("global"), true),
                        new RecoveryLines(n, 2),
                        new RunReport.Builder(
                                JobConfig.builder("com.example.Main").ranks(n).build()),
                        storage,
                        () -> now,
                        n,
                        kills,
                        Duration.ZERO,
                        STOP_GRACE,
                        null);
                coordinator.tick(now, true); // the first log sample
            }
            case "start" -> coordinator.startAll(0);
            case "ready" -> coordinator.ready(rank(w[1]), incarnation(w[1]));
            case "running" -> coordinator.running(rank(w[1]), incarnation(w[1]));
            case "line" -> {
                int r = rank(w[1]);
                long l = Long.parseLong(w[2]);
                storage.held.computeIfAbsent(r, k -> new TreeSet<>()).add(l);
                coordinator.step(
                        new RankEvent.Checkpointed(
                                r,
                                incarnation(w[1]),
                                now,
                                l,
                                Map.of(),
                                Map.of(),
                                new long[2],
                                100,
                                10,
                                List.of(),
                                new long[0]),
                        now);
            }
            case "struck" -> coordinator.step(
                    new RankEvent.Struck(rank(w[1]), incarnation(w[1]), now, line.substring(line.indexOf(w[2])), 0, 0),
                    now);
            case "ended" -> coordinator.step(
                    new RankEvent.Ended(
                            rank(w[1]), incarnation(w[1]), now, RankOutcome.Status.COMPLETED, "", 0, null, null),
                    now);
            case "down" -> coordinator.down(
                    rank(w[1]), incarnation(w[1]), new DownCause("its process was killed (SIGKILL)", false, 137));
            case "wait" -> {
                now += Long.parseLong(w[1]) * 1_000_000L;
                coordinator.tick(now, true);
            }
            default -> throw new IllegalArgumentException("not a step of a script: " + line);
        }
    }

    private static int rank(String ri) {
        return Integer.parseInt(ri.substring(0, ri.indexOf('.')));
    }

    private static int incarnation(String ri) {
        return Integer.parseInt(ri.substring(ri.indexOf('.') + 1));
    }
}
