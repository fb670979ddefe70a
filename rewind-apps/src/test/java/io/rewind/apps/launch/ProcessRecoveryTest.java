package io.rewind.apps.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.apps.workloads.CollectiveMix;
import io.rewind.apps.workloads.MasterWorker;
import io.rewind.apps.workloads.Stencil2D;
import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ranks as real processes over TCP, killed with SIGKILL at operation counts, under every protocol
 * that recovers: each run must print exactly what the failure-free run printed. Two node agents
 * share the ranks, so replay crosses agents too.
 */
class ProcessRecoveryTest {
    private static final Duration LIMIT = Duration.ofSeconds(120);

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        List<JobConfig> programs = List.of(
                program(Stencil2D.class, 4, "32", "16"),
                program(CollectiveMix.class, 4, "16", "8"),
                program(MasterWorker.class, 3, "12", "20"));
        for (JobConfig p : programs) {
            for (ProtocolDescriptor d : ProtocolRegistry.recovering()) {
                out.add(Arguments.of(p, d));
            }
        }
        return out.stream();
    }

    static JobConfig program(Class<?> main, int ranks, String... args) {
        return JobConfig.builder(main.getName())
                .ranks(ranks)
                .args(args)
                .timeout(LIMIT)
                .quiet()
                .build();
    }

    @ParameterizedTest(name = "{0} under {1}")
    @MethodSource("cases")
    void killedProcessesRecoverToTheFailureFreeResult(JobConfig program, ProtocolDescriptor protocol) {
        RecoveryCheck check = RecoveryCheck.of(program);
        JobResult failureFree = ProcessJob.run(program, Launch.local(2));
        assertTrue(failureFree.ok(), failureFree.describeFailures());
        for (int r = 0; r < program.ranks(); r++) {
            assertEquals(check.baseline().output(r), failureFree.output(r), "rank " + r + " as a process");
        }
        long[] ops = failureFree.report().operations();
        for (FailureSchedule kills : check.schedules(program.mainClass().hashCode(), 2, ops)) {
            RecoveryCheck.Verdict v = check.run(protocol, 4, kills, c -> ProcessJob.run(c, Launch.local(2)));
            assertTrue(v.ok(), v.describe());
            assertTrue(v.struck() > 0, "no kill struck: " + v.describe());
        }
    }
}
