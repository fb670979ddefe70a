package io.rewind.apps.recovery;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example, every workload and the plain programs of {@code io.rewind.apps.plain}, on four ranks,
 * under every protocol of the registry that recovers, with crashes at operation counts (one schedule
 * of each kind the oracle draws): without
 * checkpoints (a restarted rank starts over and is replayed everything) and, for the workloads that
 * checkpoint, with a checkpoint every few points. Each must end and print exactly what it prints
 * without failures.
 */
@Tag("oracle")
class EveryProgramRecoversTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);

    static Stream<Arguments> programs() {
        return Stream.of(
                Arguments.of("io.rewind.apps.examples.Hello", List.of(), false),
                Arguments.of("io.rewind.apps.examples.Ring", List.of("20"), false),
                Arguments.of("io.rewind.apps.examples.Pi", List.of("200000"), false),
                Arguments.of("io.rewind.apps.examples.Jacobi2D", List.of("48", "30"), false),
                Arguments.of("io.rewind.apps.examples.CartStencil", List.of("24", "20"), false),
                Arguments.of("io.rewind.apps.examples.PrimeFarm", List.of("40", "2000"), false), // matched probes
                Arguments.of("io.rewind.apps.workloads.Stencil3D", List.of("12", "16"), true),
                Arguments.of("io.rewind.apps.workloads.ConjugateGradient", List.of("300", "5", "16"), true),
                Arguments.of("io.rewind.apps.workloads.HeatCG", List.of("24", "24", "12", "60"), true),
                Arguments.of("io.rewind.apps.workloads.AmrHalo", List.of("16", "8", "8", "2", "3", "2"), true),
                Arguments.of("io.rewind.apps.workloads.GraphBfs", List.of("8", "8", "8"), true),
                Arguments.of("io.rewind.apps.workloads.Discovery", List.of("16", "3"), true), // polls
                Arguments.of("io.rewind.apps.workloads.MonteCarlo", List.of("16", "6", "100"), true),
                Arguments.of("io.rewind.apps.workloads.MasterWorker", List.of("16", "40"), true),
                Arguments.of("io.rewind.apps.workloads.CollectiveMix", List.of("16", "8"), true),
                Arguments.of("io.rewind.apps.workloads.PollingExchange", List.of("16"), true), // polls
                Arguments.of("io.rewind.apps.workloads.CancelledSends", List.of("12"), true), // cancels
                // Plain mpi programs, many kinds of operation each
                Arguments.of("io.rewind.apps.plain.CollectiveTour", List.of("10", "2000"), false),
                Arguments.of("io.rewind.apps.plain.RequestTour", List.of("10", "2000"), false), // polls
                Arguments.of("io.rewind.apps.plain.ProbeTour", List.of("8", "2000", "40000"), false), // polls
                Arguments.of("io.rewind.apps.plain.ThreadTour", List.of("10", "2000"), false), // rank threads
                Arguments.of("io.rewind.apps.plain.CatchingTour", List.of("20", "2000"), false), // catch (Throwable)
                // nonblocking collectives, communicators from groups and intercommunicators, a user op
                Arguments.of("io.rewind.apps.plain.CommunicatorTour", List.of("6", "2000"), false),
                // nonblocking vector collectives with moving counts, allToAllw, MAXLOC, graph neighbours
                Arguments.of("io.rewind.apps.plain.VectorTour", List.of("6", "2000"), false),
                // structs, strided and resized vectors, iProbe with ANY_TAG, a caught truncation, a 2-D grid
                Arguments.of("io.rewind.apps.plain.DatatypeTour", List.of("8", "2000"), false));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("programs")
    void recoversBitForBitUnderEveryProtocol(String mainClass, List<String> args, boolean checkpoints) {
        JobConfig job = JobConfig.builder(mainClass)
                .ranks(4)
                .args(args)
                .timeout(LIMIT)
                .option("--clusters", io.rewind.ft.ClusterLayout.forTests().spec())
                .quiet()
                .build();
        RecoveryCheck check = RecoveryCheck.of(job);
        List<FailureSchedule> schedules = check.schedules(mainClass.hashCode(), 3);
        // A program that polls makes as many operations as its polls take turns, which timing decides:
        // a kill drawn from the reference run's count may find a run that ends before it. Counted over
        // every run of the program, and required only of programs whose count does not depend on it.
        boolean polls = mainClass.endsWith("Discovery")
                || mainClass.endsWith("PollingExchange")
                || mainClass.endsWith("RequestTour")
                || mainClass.endsWith("ProbeTour");
        int struck = 0;
        for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
            for (FailureSchedule s : schedules) {
                RecoveryCheck.Verdict v = check.run(p, 0, s);
                assertTrue(v.ok(), () -> mainClass + " " + args + ": " + v.describe());
                struck += v.struck();
                if (checkpoints) {
                    RecoveryCheck.Verdict withLines = check.run(p, 3, s);
                    assertTrue(withLines.ok(), () -> mainClass + " " + args + ": " + withLines.describe());
                    struck += withLines.struck();
                }
            }
        }
        assertTrue(polls || struck > 0, mainClass + ": no kill struck, so nothing was checked");
    }

    /**
     * The same programs under every protocol that logs payloads, with two logger nodes and a quota of 2
     * KiB per rank (so ranks dump as they go, and replay reads back from the loggers): bit for bit, and
     * no rank's log over its quota.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("programs")
    void recoversBitForBitWithLoggerNodes(String mainClass, List<String> args, boolean checkpoints) {
        long quota = 2 << 10;
        JobConfig job = JobConfig.builder(mainClass)
                .ranks(4)
                .args(args)
                .timeout(LIMIT)
                .option("--clusters", io.rewind.ft.ClusterLayout.forTests().spec())
                .loggers(io.rewind.ft.logger.LoggerConfig.of(2, quota))
                .quiet()
                .build();
        RecoveryCheck check = RecoveryCheck.of(job);
        FailureSchedule s = check.schedules(mainClass.hashCode() + 1, 1).get(0);
        for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
            if (!p.create().logsPayloads()) {
                continue;
            }
            RecoveryCheck.Verdict v = check.run(p, checkpoints ? 3 : 0, s);
            assertTrue(v.ok(), () -> mainClass + " " + args + ": " + v.describe());
            @SuppressWarnings("unchecked")
            java.util.Map<String, Object> loggers = (java.util.Map<String, Object>)
                    v.result().report().protocolRecord().get("loggerNodes");
            @SuppressWarnings("unchecked")
            List<java.util.Map<String, Object>> ranks =
                    (List<java.util.Map<String, Object>>) loggers.get("dumpsPerRank");
            for (java.util.Map<String, Object> r : ranks) {
                assertTrue(
                        ((Number) r.get("peakLogBytes")).longValue() <= quota,
                        () -> "over the quota: " + r + "\n" + v.describe());
            }
        }
    }
}
