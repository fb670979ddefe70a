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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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

    private static final Map<String, String> FAILURE_FREE = new ConcurrentHashMap<>();

    /**
     * The checksum of {@code program}'s failure-free run on {@code ranks} ranks: run once per class of
     * tests and kept, every run with kills of the same program compares with it.
     */
    static String failureFreeChecksum(Class<?> program, int ranks, String iterations) {
        return FAILURE_FREE.computeIfAbsent(program.getName() + " " + ranks + " " + iterations, k -> {
            JobResult free = Job.run(notify(program, ranks, iterations).build());
            assertTrue(free.ok(), free.describeFailures());
            String sum = checksum(free);
            assertNotNull(sum, "the failure-free run prints a checksum");
            return sum;
        });
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
        JobResult killed = Job.run(notify(ShrinkingSolver.class, 4, "120")
                .failures(FailureSchedule.parse(kills, 4))
                .build());
        assertTrue(killed.ok(), killed.describeFailures());
        assertEquals(failureFreeChecksum(ShrinkingSolver.class, 4, "120"), checksum(killed));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2@o200", "0@o350", "1@o100,3@o600"})
    void theReplacingSolverRollsBackFromItsOwnCheckpointsToTheFailureFreeChecksum(String kills) {
        JobResult killed = Job.run(notify(ReplacingSolver.class, 4, "200")
                .failures(FailureSchedule.parse(kills, 4))
                .build());
        assertTrue(killed.ok(), killed.describeFailures());
        assertEquals(failureFreeChecksum(ReplacingSolver.class, 4, "200"), checksum(killed));
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

    /**
     * The kinds of checks of ULFM's own suite ({@link UlfmSuite}): each case's survivors all pass it, the
     * victims at the points the kills name.
     */
    @ParameterizedTest
    @CsvSource({
        "insulation, 6, 5@1",
        "getack, 5, '3@1,4@2'",
        "revoke-barrier, 4, ''",
        "revoke-transfer, 4, ''",
        "intercomm, 6, 5@1",
        "shrink-loop, 4, '1@3,2@6,3@9'"
    })
    void theSuiteCasesPassAtEverySurvivor(String test, int ranks, String kills) {
        JobConfig.Builder b = notify(UlfmSuite.class, ranks, test);
        if (!kills.isEmpty()) {
            b.failures(FailureSchedule.parse(kills, ranks));
        }
        JobResult r = Job.run(b.build());
        assertTrue(r.ok(), r.describeFailures());
        Set<Integer> victims = new HashSet<>();
        for (String k : kills.isEmpty() ? new String[0] : kills.split(",")) {
            victims.add(Integer.parseInt(k.substring(0, k.indexOf('@'))));
        }
        for (int rank = 0; rank < ranks; rank++) {
            if (!victims.contains(rank)) {
                assertTrue(r.output(rank).contains("passed " + test), rank + ": " + r.output(rank));
            }
        }
        if (test.equals("shrink-loop")) {
            assertTrue(
                    r.output(0).contains("size 1 after 3 shrinks"), r.output(0).toString());
        }
    }

    /**
     * Kill-and-respawn loops: the same rank killed again and again, and ranks one after another, under
     * both replacing solvers; each ends with the failure-free checksum. The buddy solver keeps its copies
     * in memory only, and computes what the file-checkpointing one does.
     */
    @ParameterizedTest
    @ValueSource(strings = {"1@o150,1@o450,1@o750", "0@o100,2@o300,3@o600", "2@o40"})
    void bothReplacingSolversSurviveKillAndRespawnLoops(String kills) {
        String free = failureFreeChecksum(ReplacingSolver.class, 4, "200");
        for (Class<?> solver : List.of(ReplacingSolver.class, BuddySolver.class)) {
            JobResult killed = Job.run(notify(solver, 4, "200")
                    .failures(FailureSchedule.parse(kills, 4))
                    .build());
            assertTrue(killed.ok(), solver.getSimpleName() + " " + kills + ": " + killed.describeFailures());
            assertEquals(free, checksum(killed), solver.getSimpleName() + " " + kills);
        }
    }

    /**
     * Random kill schedules (one to three kills at random operations, seeded) over the programs above:
     * every run ends, with the failure-free answer. The buddy solver's victims are never neighbours: two
     * neighbours lost together lose their copies, by design.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void randomKillSchedulesNeverHangNorGiveAWrongAnswer(long seed) {
        for (Class<?> program :
                List.of(ShrinkingSolver.class, ReplacingSolver.class, BuddySolver.class, UlfmSuite.class)) {
            boolean replaces = program == ReplacingSolver.class || program == BuddySolver.class;
            String kills = randomKills(
                    seed * 31 + program.getSimpleName().length(), 5, 600, replaces, program == BuddySolver.class);
            JobResult r = program == UlfmSuite.class
                    ? Job.run(notify(program, 5, "shrink-loop", "60")
                            .failures(FailureSchedule.parse(kills, 5))
                            .build())
                    : Job.run(notify(program, 5, "150")
                            .failures(FailureSchedule.parse(kills, 5))
                            .build());
            String what = program.getSimpleName() + " seed " + seed + " kills " + kills;
            assertTrue(r.ok(), what + ": " + r.describeFailures());
            if (program == UlfmSuite.class) {
                boolean passed = false;
                for (int rank = 0; rank < 5; rank++) {
                    passed |= r.output(rank).contains("passed shrink-loop");
                }
                assertTrue(passed, what);
            } else {
                // The buddy solver computes what the file-checkpointing one does.
                Class<?> reference = program == BuddySolver.class ? ReplacingSolver.class : program;
                assertEquals(failureFreeChecksum(reference, 5, "150"), checksum(r), what);
            }
        }
    }

    /**
     * One to three kills at operations in [1, {@code operations}]: of the same rank again only where
     * ranks are replaced ({@code again}), never of two neighbours on the ring with {@code noNeighbours}.
     */
    static String randomKills(long seed, int ranks, int operations, boolean again, boolean noNeighbours) {
        Random random = new Random(seed);
        int n = 1 + random.nextInt(3);
        List<String> kills = new ArrayList<>();
        List<Integer> victims = new ArrayList<>();
        for (int tries = 0; kills.size() < n && tries < 100; tries++) {
            int victim = random.nextInt(ranks);
            boolean taken = victims.contains(victim);
            boolean neighbour = victims.stream().anyMatch(v -> (v + 1) % ranks == victim || (victim + 1) % ranks == v);
            if ((taken && !again) || (noNeighbours && neighbour)) {
                continue;
            }
            victims.add(victim);
            kills.add(victim + "@o" + (1 + random.nextInt(operations)));
        }
        return String.join(",", kills);
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
