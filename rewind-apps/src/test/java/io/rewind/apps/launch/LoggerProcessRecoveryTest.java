package io.rewind.apps.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.apps.workloads.Stencil3D;
import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.ft.logger.LoggerConfig;
import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.RunReport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Logger nodes as real processes: ranks dump over TCP to two logger processes, a rank process is
 * killed with SIGKILL, a logger process kills itself with SIGKILL at a dump request, and a rank that
 * needs what that logger held is killed after it: the senders of the lost messages roll back with it,
 * and every run prints exactly what the failure-free run printed, with no rank's log over its quota.
 */
@Tag("process")
class LoggerProcessRecoveryTest {
    private static final Duration LIMIT = Duration.ofSeconds(120);
    private static final long QUOTA = 16 << 10;

    static Stream<ProtocolDescriptor> payloadLogging() {
        return ProtocolRegistry.recovering().stream().filter(p -> p.create().logsPayloads());
    }

    private static JobConfig program(LoggerConfig loggers) {
        return JobConfig.builder(Stencil3D.class.getName())
                .ranks(4)
                .args(List.of("16", "24"))
                .timeout(LIMIT)
                .loggers(loggers)
                .quiet()
                .build();
    }

    @ParameterizedTest(name = "under {0}")
    @MethodSource("payloadLogging")
    void rankAndLoggerProcessesDieAndTheResultIsTheFailureFreeOne(ProtocolDescriptor protocol) {
        RecoveryCheck check = RecoveryCheck.of(program(LoggerConfig.of(2, QUOTA)));
        JobResult free = ProcessJob.run(
                program(LoggerConfig.of(2, QUOTA)).toBuilder()
                        .protocol(protocol)
                        .checkpointEvery(4)
                        .failures(FailureSchedule.NONE)
                        .build(),
                Launch.local(2));
        assertTrue(free.ok(), free.describeFailures());
        assertEquals(check.baseline().output(0), free.output(0));
        Map<String, Object> record = loggers(free.report());
        assertUnderQuota(record, "failure-free");
        assertTrue(dumps(record) > 0, () -> "nobody dumped: " + record);
        long[] ops = free.report().operations();

        // A rank process SIGKILLed, recovered from its checkpoint with replay from memory and loggers.
        RecoveryCheck.Verdict v = check.run(
                protocol, 4, FailureSchedule.parse("1@o" + ops[1] / 2, 4), c -> ProcessJob.run(c, Launch.local(2)));
        assertTrue(v.ok(), v.describe());
        assertTrue(v.struck() > 0, v.describe());
        assertUnderQuota(loggers(v.result().report()), v.describe());

        // Logger 0 dies early; then rank 1 dies without a checkpoint and needs what logger 0 held.
        RecoveryCheck dying =
                RecoveryCheck.of(program(LoggerConfig.of(2, QUOTA).withKills(List.of(new LoggerConfig.Kill(0, 3)))));
        RecoveryCheck.Verdict after = dying.run(
                protocol, 0, FailureSchedule.parse("1@o" + ops[1] * 3 / 4, 4), c -> ProcessJob.run(c, Launch.local(2)));
        assertTrue(after.ok(), after.describe());
        Map<String, Object> rec = loggers(after.result().report());
        assertUnderQuota(rec, after.describe());
        assertEquals(1, ((List<?>) rec.get("loggerDeaths")).size(), rec::toString);
        assertFalse(((List<?>) rec.get("senderRollbacks")).isEmpty(), () -> "no sender rolled back: " + rec);
        for (RunReport.FailureRecord f : after.result().report().failures()) {
            assertTrue(f.rolledBack().size() > 1, after::describe);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> loggers(RunReport report) {
        Object m = report.protocolRecord().get("loggerNodes");
        assertTrue(m instanceof Map, () -> "no logger figures: " + report.protocolRecord());
        return (Map<String, Object>) m;
    }

    @SuppressWarnings("unchecked")
    private static long dumps(Map<String, Object> record) {
        long n = 0;
        for (Map<String, Object> r : (List<Map<String, Object>>) record.get("dumpsPerRank")) {
            n += ((Number) r.get("dumps")).longValue();
        }
        return n;
    }

    @SuppressWarnings("unchecked")
    private static void assertUnderQuota(Map<String, Object> record, String what) {
        for (Map<String, Object> r : (List<Map<String, Object>>) record.get("dumpsPerRank")) {
            long peak = ((Number) r.get("peakLogBytes")).longValue();
            assertTrue(peak <= QUOTA, () -> "rank " + r.get("rank") + " held " + peak + " bytes: " + r + "\n" + what);
        }
    }
}
