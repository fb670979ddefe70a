package io.rewind.apps.ulfm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The programs of {@link UlfmTest} as rank processes ({@code --launch local}): a killed rank's process
 * dies of SIGKILL, its peers are told, and the job ends with the failure-free checksum.
 */
@Tag("process")
class UlfmProcessTest {
    @Test
    void theShrinkingSolverLosesARankProcessAndEndsWithTheFailureFreeChecksum() {
        JobResult free =
                ProcessJob.run(UlfmTest.notify(ShrinkingSolver.class, 4, "120").build(), Launch.local(1));
        JobResult killed = ProcessJob.run(
                UlfmTest.notify(ShrinkingSolver.class, 4, "120")
                        .failures(FailureSchedule.parse("2@o300", 4))
                        .build(),
                Launch.local(1));
        assertTrue(free.ok(), free.describeFailures());
        assertTrue(killed.ok(), killed.describeFailures());
        assertNotNull(UlfmTest.checksum(free));
        assertEquals(UlfmTest.checksum(free), UlfmTest.checksum(killed));
    }

    @Test
    void theReplacingSolverReplacesARankProcessFromItsCheckpoint() {
        JobResult free =
                ProcessJob.run(UlfmTest.notify(ReplacingSolver.class, 4, "200").build(), Launch.local(1));
        JobResult killed = ProcessJob.run(
                UlfmTest.notify(ReplacingSolver.class, 4, "200")
                        .failures(FailureSchedule.parse("1@o400", 4))
                        .build(),
                Launch.local(1));
        assertTrue(free.ok(), free.describeFailures());
        assertTrue(killed.ok(), killed.describeFailures());
        assertNotNull(UlfmTest.checksum(free));
        assertEquals(UlfmTest.checksum(free), UlfmTest.checksum(killed));
    }

    @ParameterizedTest
    @CsvSource({"getack, 5, '3@1,4@2'", "revoke-transfer, 4, ''", "intercomm, 6, 5@1", "shrink-loop, 4, '1@3,2@6,3@9'"})
    void theSuiteCasesPassInRankProcesses(String test, int ranks, String kills) {
        JobConfig.Builder b = UlfmTest.notify(UlfmSuite.class, ranks, test);
        if (!kills.isEmpty()) {
            b.failures(FailureSchedule.parse(kills, ranks));
        }
        JobResult r = ProcessJob.run(b.build(), Launch.local(1));
        assertTrue(r.ok(), r.describeFailures());
        int passed = 0;
        for (int rank = 0; rank < ranks; rank++) {
            passed += r.output(rank).contains("passed " + test) ? 1 : 0;
        }
        assertEquals(ranks - (kills.isEmpty() ? 0 : kills.split(",").length), passed);
    }

    /** Random kill schedules over a shrinking and a replacing program, as rank processes (SIGKILL). */
    @ParameterizedTest
    @ValueSource(longs = {11, 12})
    void randomKillSchedulesOverRankProcessesEndWithTheFailureFreeAnswer(long seed) {
        JobResult free =
                ProcessJob.run(UlfmTest.notify(ReplacingSolver.class, 4, "150").build(), Launch.local(1));
        assertTrue(free.ok(), free.describeFailures());
        for (Class<?> program : List.of(BuddySolver.class, ShrinkingSolver.class)) {
            boolean replaces = program == BuddySolver.class;
            String kills = UlfmTest.randomKills(seed, 4, 450, replaces, replaces);
            JobResult r = ProcessJob.run(
                    UlfmTest.notify(program, 4, "150")
                            .failures(FailureSchedule.parse(kills, 4))
                            .build(),
                    Launch.local(1));
            String what = program.getSimpleName() + " seed " + seed + " kills " + kills;
            assertTrue(r.ok(), what + ": " + r.describeFailures());
            assertNotNull(UlfmTest.checksum(r), what);
            if (replaces) {
                assertEquals(UlfmTest.checksum(free), UlfmTest.checksum(r), what);
            }
        }
    }
}
