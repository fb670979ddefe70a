package io.rewind.apps.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.apps.plain.InputTour;
import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ClusterLayout;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.FailureSchedule.Kill;
import io.rewind.runtime.FailureSchedule.Trigger;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A program that reads its work from standard input ({@link InputTour}): rank 0 reads the job's input,
 * the other ranks an empty stream, as under {@code mpirun}; a restarted rank 0 reads again, from the
 * same place, what it had read, as threads of one JVM and as rank processes killed with SIGKILL.
 */
@Tag("process")
class StandardInputTest {
    private static final int RANKS = 4;
    private static final int LINES = 40;

    /** Forty lines of 0 to 8 integers, one of them blank, the last without a line end. */
    static byte[] input() {
        StringBuilder s = new StringBuilder();
        for (int k = 0; k < LINES; k++) {
            for (int i = 0; i < k % 9; i++) {
                s.append(i == 0 ? "" : (i % 2 == 0 ? "  " : " ")).append((k * 31 + i * 17) % 1000 - 300);
            }
            if (k < LINES - 1) {
                s.append('\n');
            }
        }
        return s.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** What every rank prints, computed here from the input. */
    static String expected(int rank) {
        long check = 0;
        for (int k = 0; k < LINES; k++) {
            long sum = 0;
            for (int i = 0; i < k % 9; i++) {
                sum += (long) ((k * 31 + i * 17) % 1000 - 300) * (i + 1);
            }
            check = check * 31 + sum;
        }
        return "rank " + rank + " lines " + LINES + " check " + check;
    }

    static JobConfig program() {
        return JobConfig.builder(InputTour.class.getName())
                .ranks(RANKS)
                .args(List.of("20000"))
                .input(input())
                .timeout(Duration.ofSeconds(60))
                .option("--clusters", ClusterLayout.forTests().spec())
                .quiet()
                .build();
    }

    @Test
    void rankZeroReadsTheJobsInputAndTheOthersReadNothing() {
        RecoveryCheck check = RecoveryCheck.of(program());
        for (int r = 0; r < RANKS; r++) {
            assertEquals(List.of(expected(r)), check.baseline().output(r), "rank " + r);
        }
        JobResult processes = ProcessJob.run(program(), Launch.local(2));
        assertTrue(processes.ok(), processes.describeFailures());
        for (int r = 0; r < RANKS; r++) {
            assertEquals(List.of(expected(r)), processes.output(r), "rank " + r + " as a process");
        }
    }

    /** Rank 0 crashes once, twice (the second time while re-reading), and together with rank 1. */
    static List<FailureSchedule> rankZeroCrashes(long operations) {
        return List.of(
                new FailureSchedule(List.of(new Kill(0, Trigger.OPERATION, operations / 3))),
                new FailureSchedule(List.of(
                        new Kill(0, Trigger.OPERATION, operations / 2),
                        new Kill(0, Trigger.OPERATION, operations / 5))),
                new FailureSchedule(List.of(
                        new Kill(0, Trigger.OPERATION, operations * 2 / 3),
                        new Kill(1, Trigger.OPERATION, operations * 2 / 3))));
    }

    static Stream<ProtocolDescriptor> recovering() {
        return ProtocolRegistry.recovering().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recovering")
    void restartedRankZeroReadsItsInputAgainAsThreads(ProtocolDescriptor protocol) {
        RecoveryCheck check = RecoveryCheck.of(program());
        for (FailureSchedule kills : rankZeroCrashes(check.operations()[0])) {
            RecoveryCheck.Verdict v = check.run(protocol, 0, kills);
            assertTrue(v.ok(), v.describe());
            assertTrue(v.struck() > 0, "no kill struck: " + v.describe());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recovering")
    void restartedRankZeroProcessReadsItsInputAgain(ProtocolDescriptor protocol) {
        RecoveryCheck check = RecoveryCheck.of(program());
        FailureSchedule kills = rankZeroCrashes(check.operations()[0]).get(0);
        RecoveryCheck.Verdict v = check.run(protocol, 0, kills, c -> ProcessJob.run(c, Launch.local(2)));
        assertTrue(v.ok(), v.describe());
        assertTrue(v.struck() > 0, "no kill struck: " + v.describe());
    }
}
