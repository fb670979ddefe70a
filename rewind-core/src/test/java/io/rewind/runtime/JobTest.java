package io.rewind.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.testprograms.EnginePrograms;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JobTest {
    private static JobResult run(Class<?> program, int ranks, Duration timeout) {
        return Job.run(JobConfig.builder(program.getName())
                .ranks(ranks)
                .timeout(timeout)
                .quiet()
                .build());
    }

    /** Runs {@code job} with this JVM's standard error going to {@code captured} (the job's reports go there). */
    private static JobResult withStandardErrorTo(ByteArrayOutputStream captured, Supplier<JobResult> job) {
        PrintStream err = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            return job.get();
        } finally {
            System.setErr(err);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void pointToPointSemantics(int ranks) {
        JobResult r = run(EnginePrograms.PointToPoint.class, ranks, Duration.ofSeconds(60));
        assertTrue(r.ok(), r.describeFailures());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 7, 9})
    void everyCollectiveAtEveryRoot(int ranks) {
        JobResult r = run(EnginePrograms.AllCollectives.class, ranks, Duration.ofSeconds(60));
        assertTrue(r.ok(), r.describeFailures());
    }

    @Test
    void aFailingRankAbortsTheOthersInsteadOfHanging() {
        JobResult r = run(EnginePrograms.FailsWhileOthersWait.class, 4, Duration.ofSeconds(60));
        assertFalse(r.ok());
        assertEquals(RankOutcome.Status.FAILED, r.ranks().get(1).status());
        assertEquals(RankOutcome.Status.ABORTED, r.ranks().get(0).status());
        assertTrue(r.describeFailures().contains("deliberate failure in rank 1"), r.describeFailures());
    }

    @Test
    void aDeadlockedJobEndsAtItsTimeLimitSayingWhatEachRankWaitsFor() {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        JobResult r =
                withStandardErrorTo(captured, () -> run(EnginePrograms.Deadlock.class, 3, Duration.ofMillis(500)));
        assertEquals(124, r.exitCode());
        assertEquals(RankOutcome.Status.ABORTED, r.ranks().get(2).status());
        assertEquals("waiting forever", r.output(2).get(0));
        String report = captured.toString(StandardCharsets.UTF_8);
        for (int rank = 0; rank < 3; rank++) {
            // Each rank waits in its one receive, from any source (-1) with tag 0.
            assertTrue(
                    report.contains("rank " + rank + " (incarnation 0, ")
                            && report.contains("1 receives posted, 0 messages queued: posted(ctx "),
                    report);
        }
        assertTrue(report.contains(", src -1, tag 0)) is at:"), report);
    }

    @Test
    void aDeadlockedJobEndsOnceNoRankMadeProgressForTheStallTimeoutNotAtItsTimeLimit() {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        JobResult r = withStandardErrorTo(
                captured,
                () -> Job.run(JobConfig.builder(EnginePrograms.Deadlock.class.getName())
                        .ranks(3)
                        .timeout(Duration.ofSeconds(120))
                        .stallTimeout(Duration.ofMillis(400))
                        .quiet()
                        .build()));
        assertEquals(1, r.exitCode(), r.describeFailures());
        assertTrue(r.abortReason().contains(": no progress for 400 ms: every rank"), r.abortReason());
        assertTrue(r.wallTime().compareTo(Duration.ofSeconds(60)) < 0, "ended at " + r.wallTime());
        String report = captured.toString(StandardCharsets.UTF_8);
        // One line for the three ranks: they wait at the same place.
        assertTrue(report.contains("after 400 ms with no progress, ranks 0, 1, 2 (incarnation 0, "), report);
        assertEquals(
                1, report.lines().filter(l -> l.contains("with no progress")).count(), report);
    }

    @Test
    void ranksWaitingForARankThatComputesAreNotAStall() {
        JobResult r = Job.run(JobConfig.builder(EnginePrograms.SlowSender.class.getName())
                .ranks(3)
                .args("1500")
                .timeout(Duration.ofSeconds(60))
                .stallTimeout(Duration.ofMillis(300))
                .quiet()
                .build());
        assertTrue(r.ok(), r.describeFailures());
        for (int rank = 0; rank < 3; rank++) {
            assertEquals("done", r.output(rank).get(0));
        }
    }

    @Test
    void aRankThatDoesNotStopForARollbackAbortsTheJobAtOnceNotAtItsTimeLimit() {
        try {
            JobResult r = Job.run(JobConfig.builder(EnginePrograms.IgnoresItsStop.class.getName())
                    .ranks(3)
                    .protocol("global")
                    .failures(FailureSchedule.parse("1@t200", 3))
                    .stopGrace(Duration.ofMillis(300))
                    .timeout(Duration.ofSeconds(120))
                    .quiet()
                    .build());
            // Waiting for the crashed rank's end, which never comes, would make this a time-out (124).
            assertEquals(1, r.exitCode(), r.describeFailures());
            assertTrue(r.abortReason().contains("rank 2 did not stop for the rollback, at "), r.abortReason());
            for (RankOutcome o : r.ranks()) {
                assertEquals(RankOutcome.Status.ABORTED, o.status(), r.describeFailures());
            }
            assertEquals("stopped when the job was aborted", r.ranks().get(1).message());
            assertTrue(
                    r.ranks().get(2).message().startsWith("did not stop after the abort, at "),
                    r.ranks().get(2).message());
        } finally {
            System.setProperty(EnginePrograms.IgnoresItsStop.RELEASE, "true");
        }
    }

    @Test
    void stopGraceMustBePositive() {
        assertThrows(
                IllegalArgumentException.class,
                () -> JobConfig.builder("x").stopGrace(Duration.ZERO).build());
    }

    @Test
    void aNegativeStallTimeoutIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobConfig.builder("x")
                .stallTimeout(Duration.ofSeconds(-1))
                .build());
        assertTrue(e.getMessage().contains("stallTimeout"), e.getMessage());
    }

    @Test
    void staticStateIsPerRank() {
        JobResult r = run(EnginePrograms.StaticsArePerRank.class, 6, Duration.ofSeconds(60));
        assertTrue(r.ok(), r.describeFailures());
        for (int i = 0; i < 6; i++) {
            assertEquals("counter=1", r.output(i).get(0));
        }
    }

    @Test
    void rankOutputIsCapturedAfterTheHostSwappedItsStreamsBetweenJobs() {
        PrintStream saved = System.out;
        ByteArrayOutputStream hostCapture = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(hostCapture, true));
            JobResult during = run(EnginePrograms.StaticsArePerRank.class, 2, Duration.ofSeconds(60));
            assertEquals("counter=1", during.output(1).get(0));
        } finally {
            System.setOut(saved); // the routing installed by the job above leaves System.out with it
        }
        JobResult after = run(EnginePrograms.StaticsArePerRank.class, 2, Duration.ofSeconds(60));
        assertTrue(after.ok(), after.describeFailures());
        assertEquals("counter=1", after.output(0).get(0));
        assertEquals("counter=1", after.output(1).get(0));
    }

    @Test
    void manyMoreRanksThanCores() {
        JobResult r = run(EnginePrograms.ManyRanks.class, 256, Duration.ofSeconds(120));
        assertTrue(r.ok(), r.describeFailures());
        assertEquals("ok 256", r.output(0).get(0));
    }

    @Test
    void unknownMainClassIsAClearFailure() {
        JobResult r = Job.run(JobConfig.builder("no.such.Main")
                .ranks(2)
                .quiet()
                .timeout(Duration.ofSeconds(30))
                .build());
        assertFalse(r.ok());
        assertTrue(r.describeFailures().contains("no.such.Main"), r.describeFailures());
    }
}
