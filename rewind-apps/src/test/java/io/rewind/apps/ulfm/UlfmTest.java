package io.rewind.apps.ulfm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.OnFailure;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Programs that handle failures themselves ({@code --on-failure notify}), ranks as threads: each run
 * with kills ends with the failure-free run's checksum, and every agreement is uniform.
 */
class UlfmTest {
    static JobConfig.Builder notify(Class<?> main, int ranks, String... args) {
        return JobConfig.builder(main.getName())
                .ranks(ranks)
                .args(List.of(args))
                .onFailure(OnFailure.NOTIFY)
                .checkpointEvery(5)
                .stallTimeout(Duration.ofSeconds(30))
                .timeout(Duration.ofSeconds(120))
                .quiet();
    }

    /** The line of rank 0 (or of the lowest rank that printed one) starting with "checksum". */
    static String checksum(JobResult r) {
        for (int rank = 0; rank < r.ranks().size(); rank++) {
            for (String line : r.output(rank)) {
                if (line.startsWith("checksum")) {
                    return line.split(" ")[1];
                }
            }
        }
        return null;
    }

    @ParameterizedTest
    @ValueSource(strings = {"2@o50", "0@o300", "3@o700", "1@o100,2@o400", "1@o200,2@o200,3@o200"})
    void theShrinkingSolverEndsWithTheFailureFreeChecksum(String kills) {
        JobResult free = Job.run(notify(ShrinkingSolver.class, 4, "120").build());
        assertTrue(free.ok(), free.describeFailures());
        JobResult killed = Job.run(notify(ShrinkingSolver.class, 4, "120")
                .failures(FailureSchedule.parse(kills, 4))
                .build());
        assertTrue(killed.ok(), killed.describeFailures());
        assertNotNull(checksum(free));
        assertEquals(checksum(free), checksum(killed));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2@o200", "0@o350", "1@o100,3@o600"})
    void theReplacingSolverRollsBackFromItsOwnCheckpointsToTheFailureFreeChecksum(String kills) {
        JobResult free = Job.run(notify(ReplacingSolver.class, 4, "200").build());
        assertTrue(free.ok(), free.describeFailures());
        JobResult killed = Job.run(notify(ReplacingSolver.class, 4, "200")
                .failures(FailureSchedule.parse(kills, 4))
                .build());
        assertTrue(killed.ok(), killed.describeFailures());
        assertNotNull(checksum(free));
        assertEquals(checksum(free), checksum(killed));
    }

    /**
     * A rank killed at every operation of a run of agreements, 4 to 8 ranks: every rank that returned
     * from agreement I printed the same value, the killed rank included.
     */
    @Test
    void agreementIsUniformWithARankKilledAtEachOfItsOperations() {
        for (int ranks = 4; ranks <= 8; ranks += 2) {
            for (int op = 1; op <= 12; op++) {
                int victim = op % ranks;
                JobResult r = Job.run(notify(AgreeUnderKills.class, ranks, "12")
                        .failures(FailureSchedule.parse(victim + "@o" + op, ranks))
                        .build());
                assertTrue(r.ok(), r.describeFailures());
                Map<String, String> agreed = new HashMap<>();
                for (int rank = 0; rank < ranks; rank++) {
                    for (String line : r.output(rank)) {
                        if (line.startsWith("agreed ")) {
                            String[] f = line.split(" ");
                            String before = agreed.putIfAbsent(f[1], f[2]);
                            assertTrue(
                                    before == null || before.equals(f[2]),
                                    ranks + " ranks, kill " + victim + "@o" + op + ": agreement " + f[1] + " was "
                                            + before + " and " + f[2]);
                        }
                    }
                }
                assertEquals(12, agreed.size(), "every agreement was decided");
            }
        }
    }

    @Test
    void aRevokedCommunicatorStopsEveryWaitOnItAndShrinkGivesTheSurvivors() {
        JobResult r = Job.run(notify(RevokeWhileWaiting.class, 5)
                .failures(FailureSchedule.parse("4@1", 5))
                .build());
        assertTrue(r.ok(), r.describeFailures());
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(r.output(rank).contains("shrunk to 4"), r.output(rank).toString());
        }
        assertTrue(r.output(1).contains("recv: revoked"), r.output(1).toString());
        assertTrue(
                r.output(2).contains("any source: pending, acknowledged 1, then received"),
                r.output(2).toString());
    }

    @Test
    void withoutFailuresTheSameProgramRunsUnderTransparentRecovery() {
        JobResult notified = Job.run(notify(ShrinkingSolver.class, 3, "50").build());
        JobResult recovered = Job.run(JobConfig.builder(ShrinkingSolver.class.getName())
                .ranks(3)
                .args(List.of("50"))
                .protocol("pessimistic")
                .failures(FailureSchedule.parse("1@o100", 3))
                .timeout(Duration.ofSeconds(120))
                .quiet()
                .build());
        assertTrue(recovered.ok(), recovered.describeFailures());
        assertEquals(checksum(notified), checksum(recovered));
    }

    @Test
    void notifyModeRefusesAProtocolBesideIt() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> notify(ShrinkingSolver.class, 3).protocol("pessimistic").build());
        assertTrue(e.getMessage().contains("--protocol pessimistic with --on-failure notify"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> JobConfig.builder("X").spares(2).build());
        assertTrue(e.getMessage().contains("add --on-failure notify"), e.getMessage());
    }
}
