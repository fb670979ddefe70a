package io.rewind.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code rewind run} with the payload log's options: every backend recovers a crashed rank with the
 * defaults (a file-backed log needs no --log-dir), options can come from a file per job, and a bad
 * value is refused with a message before anything runs.
 */
class RunCommandTest {

    private static CommandRun run(String... args) {
        return CommandRun.of(args);
    }

    @ParameterizedTest
    @ValueSource(strings = {"off-heap", "mapped-file", "hybrid"})
    void aCrashedRankRecoversWithEveryBackendAndItsDefaults(String backend) {
        CommandRun r = stencilWithRank1Killed("--log-backend", backend);
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("protocol pessimistic, 3 ranks"), r.err());
        assertTrue(r.err().contains("failure: rank 1"), r.err());
        assertTrue(r.err().matches("(?s).*logged [1-9]\\d* messages.*"), r.err());
    }

    @Test
    void aDeadlockedProgramEndsAfterTheStallTimeoutSayingWhereEachRankWaits() {
        CommandRun r =
                run("run", "-n", "3", "--timeout", "10m", "--stall-timeout", "1s", "io.rewind.cliprograms.Deadlocked");
        assertEquals(1, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("no progress for 1 s: every rank"), r.err());
        // Compact: the three ranks wait at the same line of the program, so one line names them all.
        assertTrue(
                r.err()
                        .matches(
                                "(?s).*\\Qafter 1 s with no progress, ranks 0, 1, 2 (incarnation 0, \\E\\d+ operations\\) "
                                        + "wait in Comm\\.recv at io\\.rewind\\.cliprograms\\.Deadlocked\\.main\\(Deadlocked\\.java:\\d+\\)\n.*"),
                r.err());
        assertEquals(
                1, r.err().lines().filter(l -> l.contains("with no progress")).count(), r.err());
    }

    @Test
    void aDeadlockOfRankProcessesEndsAfterTheStallTimeoutToo() {
        CommandRun r = run(
                "run",
                "-n",
                "2",
                "--launch",
                "local",
                "--timeout",
                "10m",
                "--stall-timeout",
                "2s",
                "io.rewind.cliprograms.Deadlocked");
        assertEquals(1, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("no progress for 2 s: every rank"), r.err());
        assertTrue(r.err().contains("after 2 s with no progress, ranks 0, 1 (incarnation 0, "), r.err());
        assertTrue(r.err().matches("(?s).*, processes \\d+, \\d+\\) wait inside MPI\n.*"), r.err());
        // The ranks are told who ended the job: the launcher, not a rank (it used to read "rank -1").
        assertTrue(r.err().contains("job aborted by the launcher with error code 1: no progress"), r.err());
        assertFalse(r.err().contains("rank -1"), r.err());
    }

    @Test
    void aStallTimeoutMustBeAZeroOrPositiveDuration() {
        CommandRun negative = run("run", "-n", "2", "--stall-timeout", "-5s", "io.rewind.apps.examples.Hello");
        assertEquals(2, negative.status(), negative.out() + negative.err());
        assertTrue(negative.err().contains("'-5s': a duration cannot be negative"), negative.err());
        assertTrue(negative.err().lines().count() <= 3, negative.err());
        CommandRun off = run("run", "-n", "2", "--stall-timeout", "0", "io.rewind.apps.examples.Hello");
        assertEquals(0, off.status(), off.out() + off.err());
    }

    @Test
    void killsWithTheDummyBackendAreRefusedBeforeTheJobRuns() {
        CommandRun r = run(
                "run",
                "-n",
                "3",
                "--timeout",
                "60s",
                "--protocol",
                "pessimistic",
                "--log-backend",
                "dummy",
                "--kill",
                "1@o5",
                "io.rewind.apps.examples.Ring",
                "10");
        assertEquals(2, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("dummy log backend keeps no payloads"), r.err());
        assertTrue(!r.err().contains("rewind: protocol pessimistic"), "no job ran: " + r.err());
    }

    @Test
    void badClusterOptionsAreRefusedBeforeTheJobRuns() {
        String[][] cases = {
            {"--protocol", "pessimistic", "--clusters", "2"},
            {"--protocol", "spbc", "--clusters", "no-such-cluster-file.txt"},
            {"--protocol", "spbc", "--clusters", "5"}
        };
        String[] why = {"not for pessimistic", "nor a cluster file that exists", "cannot make 5 clusters of 3 ranks"};
        for (int i = 0; i < cases.length; i++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run", "-n", "3"));
            args.addAll(java.util.List.of(cases[i]));
            args.addAll(java.util.List.of("io.rewind.apps.examples.Ring", "10"));
            CommandRun r = run(args.toArray(new String[0]));
            assertEquals(2, r.status(), r.out() + r.err());
            assertTrue(r.err().contains(why[i]), r.err());
            assertTrue(!r.err().contains("rewind: protocol "), "no job ran: " + r.err());
        }
    }

    @Test
    void badMemoryConstrainedLoggingOptionsAreRefusedBeforeAnyJobRuns() {
        String[][] cases = {
            {"--protocol", "causal", "--log-quota", "64KiB"},
            {"--protocol", "mcml"},
            {"--protocol", "mcml", "--log-quota", "lots"},
            {"--protocol", "mcml", "--log-quota", "0"},
            {"--protocol", "mcml", "--log-quota", "1MiB", "--switch-off", "lightest"},
            {"--protocol", "mcml", "--log-quota", "1MiB", "--switch-off", "dendrogram:no-such-dendrogram.txt"},
            {"--protocol", "mcml", "--log-quota", "1MiB", "--switch-off", "dendrogram=0/1"},
            {"--protocol", "pessimistic", "--switch-off", "heaviest"}
        };
        String[] why = {
            "--log-quota needs --loggers K",
            "needs --log-quota",
            "--log-quota lots",
            "is not a size",
            "unknown switch-off order 'lightest'",
            "no dendrogram file",
            "the dendrogram has 2 ranks, the job 3",
            "--switch-off is for memory-constrained logging"
        };
        assertEachRefusedBeforeAJobRuns(cases, why);
    }

    /** Each case's options, on a 3-rank ring, end with status 2 and its reason, before any job runs. */
    private static void assertEachRefusedBeforeAJobRuns(String[][] cases, String[] why) {
        for (int i = 0; i < cases.length; i++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run", "-n", "3"));
            args.addAll(java.util.List.of(cases[i]));
            args.addAll(java.util.List.of("io.rewind.apps.examples.Ring", "10"));
            CommandRun r = run(args.toArray(new String[0]));
            assertEquals(2, r.status(), String.join(" ", cases[i]) + ": " + r.out() + r.err());
            assertTrue(r.err().contains(why[i]), String.join(" ", cases[i]) + ": " + r.err());
            assertTrue(!r.err().contains("rewind: protocol "), "no job ran: " + r.err());
        }
    }

    @Test
    void badLogReservesAreRefusedBeforeAnyJobRuns() {
        String[][] cases = {
            {"--protocol", "global", "--log-reserve", "64MiB"},
            {"--protocol", "pessimistic", "--log-backend", "mapped-file", "--log-reserve", "64MiB"},
            {"--protocol", "pessimistic", "--log-reserve", "plenty"},
            {"--protocol", "pessimistic", "--log-reserve", "0"},
            {"--protocol", "pessimistic", "--log-reserve", "64TiB"}
        };
        String[] why = {
            "global logs no payloads",
            "--log-backend mapped-file has none",
            "--log-reserve plenty",
            "is not a size",
            "more than its"
        };
        assertEachRefusedBeforeAJobRuns(cases, why);
    }

    @Test
    void aRankWhoseLogHasAReserveRecoversFromIt() {
        CommandRun r = stencilWithRank1Killed("--log-reserve", "8MiB");
        CommandRun failureFree =
                run("run", "-n", "3", "--timeout", "60s", "io.rewind.apps.workloads.Stencil2D", "48", "40");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("failure: rank 1"), r.err());
        assertEquals(0, failureFree.status(), failureFree.out() + failureFree.err());
        assertEquals(programLines(failureFree.out()), programLines(r.out()));
    }

    /**
     * A 3-rank stencil under pessimistic, checkpointing every 10 iterations, with rank 1 killed at its
     * 25th and these log options.
     */
    private static CommandRun stencilWithRank1Killed(String... logOptions) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(
                "run", "-n", "3", "--timeout", "60s", "--protocol", "pessimistic", "--checkpoint-every", "10"));
        args.addAll(java.util.List.of(logOptions));
        args.addAll(java.util.List.of("--kill", "1@25", "io.rewind.apps.workloads.Stencil2D", "48", "40"));
        return run(args.toArray(new String[0]));
    }

    /** The program's own output: the lines tagged with a rank. */
    private static java.util.List<String> programLines(String out) {
        return out.lines().filter(l -> l.matches("\\[\\d+\\] .*")).sorted().toList();
    }

    @Test
    void badLoggerNodeOptionsAreRefusedBeforeAnyJobRuns() {
        String[][] cases = {
            {"--protocol", "pessimistic", "--loggers", "2"},
            {"--protocol", "global", "--loggers", "2", "--log-quota", "64KiB"},
            {"--protocol", "none", "--loggers", "1", "--log-quota", "64KiB"},
            {"--protocol", "pessimistic", "--logger-replicas", "2"},
            {"--protocol", "pessimistic", "--loggers", "1", "--log-quota", "64KiB", "--logger-replicas", "2"},
            {"--protocol", "pessimistic", "--loggers", "2", "--log-quota", "64KiB", "--logger-replicas", "3"},
            {"--protocol", "pessimistic", "--loggers", "2", "--log-quota", "64KiB", "--kill-logger", "2@1"},
            {"--protocol", "pessimistic", "--loggers", "2", "--log-quota", "64KiB", "--kill-logger", "zero"},
            {"--protocol", "pessimistic", "--loggers", "2", "--log-quota", "64KiB", "--logger-memory", "none"},
            {"--protocol", "pessimistic", "--loggers", "2", "--log-quota", "64KiB", "--dump-alpha", "-1"},
            {"--protocol", "pessimistic", "--loggers", "-1", "--log-quota", "64KiB"},
            {"--protocol", "pessimistic", "--logger-dir", "logs"},
            {"--protocol", "pessimistic", "--loggers", "1", "--log-quota", "64KiB", "--logger-hosts", "node-a"}
        };
        String[] why = {
            "--loggers needs --log-quota",
            "global logs none",
            "none logs none",
            "--logger-replicas needs --loggers K",
            "2 replicas of every dump need at least 2 loggers",
            "logger replicas must be 1 or 2",
            "names logger 2 but the job has 2",
            "'zero' is not LOGGER@DUMP",
            "--logger-memory none",
            "alpha must be a positive number",
            "--loggers must be 0 or more",
            "--logger-dir needs --loggers K",
            "--logger-hosts places logger processes on the hosts of --launch ssh or slurm"
        };
        assertEachRefusedBeforeAJobRuns(cases, why);
    }

    @Test
    void chaosCrashesAProgramWithoutCheckpointPoints() {
        // Ring never calls point(): the kills drawn at points strike at operation counts instead.
        CommandRun r = run(
                "run",
                "-n",
                "4",
                "--timeout",
                "60s",
                "--protocol",
                "pessimistic",
                "--chaos",
                "3",
                "--chaos-span",
                "20",
                "io.rewind.apps.examples.Ring",
                "60");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("failure: rank"), r.err());
        assertTrue(!r.err().contains("never struck"), r.err());
    }

    @Test
    void aRealRunWritesTheRecordThatRewindReportPlots(@TempDir Path dir) throws IOException {
        Path record = dir.resolve("run.json");
        CommandRun r = run(
                "run",
                "-n",
                "4",
                "--timeout",
                "60s",
                "--protocol",
                "pessimistic",
                "--kill",
                "2@o40",
                "--record",
                record.toString(),
                "io.rewind.apps.examples.Ring",
                "30");
        assertEquals(0, r.status(), r.out() + r.err());
        String json = Files.readString(record);
        assertTrue(json.contains("\"format\" : \"rewind-run-record\""), json);
        assertTrue(json.contains("\"phase\" : \"respawn\"") && json.contains("\"rank\" : 2"), json);
        Path html = dir.resolve("report.html");
        CommandRun report = run("report", "--run", record.toString(), "-o", html.toString());
        assertEquals(0, report.status(), report.out() + report.err());
        assertTrue(Files.readString(html).contains("<svg"), "the report draws the run");
    }

    @Test
    void optionsCanComeFromAFilePerJob(@TempDir Path dir) throws IOException {
        Path job = dir.resolve("job.args");
        Files.write(
                job,
                List.of(
                        "-n 2",
                        "--timeout 60s",
                        "--protocol pessimistic",
                        "--log-backend hybrid",
                        "--log-copy pack",
                        "--no-log-huge-pages",
                        "--summary"));
        CommandRun r = run("run", "@" + job, "io.rewind.apps.workloads.Stencil2D", "32", "10");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("protocol pessimistic, 2 ranks"), r.err());
    }

    @Test
    void aBadLogOptionIsRefusedBeforeTheJobStarts() {
        CommandRun backend = run(
                "run",
                "-n",
                "2",
                "--protocol",
                "pessimistic",
                "--log-backend",
                "tape",
                "io.rewind.apps.examples.Hello");
        assertEquals(2, backend.status());
        assertTrue(backend.err().contains("unknown log backend 'tape'"), backend.err());
        CommandRun copy = run(
                "run", "-n", "2", "--protocol", "pessimistic", "--log-copy", "lazy", "io.rewind.apps.examples.Hello");
        assertEquals(2, copy.status());
        assertTrue(copy.err().contains("unknown log copy method 'lazy'"), copy.err());
    }

    /** A folder option naming a place below a plain file, which no folder can be created in. */
    @ParameterizedTest
    @ValueSource(strings = {"--checkpoint-dir", "--log-dir"})
    void aFolderThatCannotBeCreatedIsOneLineAndExitStatusTwo(String option, @TempDir Path dir) throws IOException {
        Path below = Files.writeString(dir.resolve("a-file"), "not a folder").resolve("sub");
        CommandRun r = run(
                "run",
                "-n",
                "2",
                "--protocol",
                "pessimistic",
                "--checkpoint-every",
                "5",
                "--log-backend",
                "mapped-file",
                option,
                below.toString(),
                "io.rewind.apps.examples.Hello");
        assertEquals(2, r.status(), r.out() + r.err());
        String expected = option.equals("--log-dir")
                ? "rewind run: --log-dir " + below + ": cannot create the folder"
                : "rewind run: cannot create the checkpoint folder: " + below;
        assertTrue(r.err().startsWith(expected), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }
}
