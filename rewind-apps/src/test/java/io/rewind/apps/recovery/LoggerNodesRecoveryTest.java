package io.rewind.apps.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.ft.logger.LoggerConfig;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.RunReport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Logger nodes under every protocol that logs payloads, against the failure-free result bit for bit:
 * a quota small enough that every rank dumps, kills at operation counts, a logger that dies, and a rank
 * that crashes after its logger died (its senders roll back with it, unless every dump has a second
 * copy). In every run the log of every rank stays at or under its quota, as the run record says.
 */
@Tag("oracle")
class LoggerNodesRecoveryTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final int RANKS = 4;
    private static final long QUOTA = 4 << 10;

    static Stream<Arguments> protocolsAndWorkloads() {
        List<String> protocols = List.of("pessimistic", "causal", "mcml", "spbc");
        List<Arguments> out = new java.util.ArrayList<>();
        List<Object[]> workloads = List.of(
                new Object[] {"io.rewind.apps.workloads.Stencil3D", List.of("12", "16")},
                new Object[] {"io.rewind.apps.workloads.ConjugateGradient", List.of("300", "5", "16")},
                new Object[] {"io.rewind.apps.workloads.AmrHalo", List.of("16", "8", "8", "2", "3", "2")},
                new Object[] {"io.rewind.apps.workloads.GraphBfs", List.of("10", "8", "3")});
        for (int i = 0; i < protocols.size(); i++) {
            for (Object[] w : workloads) {
                out.add(Arguments.of(protocols.get(i), w[0], w[1]));
            }
        }
        return out.stream();
    }

    private static JobConfig job(String mainClass, List<String> args, LoggerConfig loggers) {
        return JobConfig.builder(mainClass)
                .ranks(RANKS)
                .args(args)
                .timeout(LIMIT)
                .loggers(loggers)
                .quiet()
                .build();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("protocolsAndWorkloads")
    void everyRankDumpsStaysUnderItsQuotaAndRecovers(String protocol, String mainClass, List<String> args) {
        ProtocolDescriptor p = ProtocolRegistry.get(protocol);
        RecoveryCheck check = RecoveryCheck.of(job(mainClass, args, LoggerConfig.of(2, QUOTA)));
        RecoveryCheck.Verdict free = check.run(p, 0, FailureSchedule.NONE);
        assertTrue(free.ok(), free::describe);
        Map<String, Object> record = loggerRecord(free.result().report());
        assertUnderQuota(record, free);
        long dumping = ranks(record).stream()
                .filter(r -> ((Number) r.get("dumps")).longValue() + ((Number) r.get("directStores")).longValue() > 0)
                .count();
        assertTrue(dumping >= (protocol.equals("spbc") ? 2 : RANKS - 1), () -> "too few ranks dumped: " + record);
        long at = Math.max(2, check.operations()[1] / 2);
        for (FailureSchedule s : List.of(
                FailureSchedule.parse("1@o" + at, RANKS),
                FailureSchedule.parse("1@o" + at + ",2@o" + at, RANKS),
                FailureSchedule.parse("0@o" + at + ",3@o" + (at + at / 2), RANKS))) {
            for (int every : new int[] {0, 3}) {
                RecoveryCheck.Verdict v = check.run(p, every, s);
                assertTrue(v.ok(), () -> protocol + " " + mainClass + ": " + v.describe());
                assertUnderQuota(loggerRecord(v.result().report()), v);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("payloadLoggingProtocols")
    void aDeadLoggerLosesOnlyWhatItHeldAndItsSendersRollBackWhenNeeded(String protocol) {
        ProtocolDescriptor p = ProtocolRegistry.get(protocol);
        String main = "io.rewind.apps.workloads.Stencil3D";
        List<String> args = List.of("12", "24");
        // Logger 0 dies early; every rank keeps running (nothing it held is needed yet).
        LoggerConfig dying = LoggerConfig.of(2, QUOTA).withKills(List.of(new LoggerConfig.Kill(0, 3)));
        RecoveryCheck check = RecoveryCheck.of(job(main, args, dying));
        RecoveryCheck.Verdict alone = check.run(p, 0, FailureSchedule.NONE);
        assertTrue(alone.ok(), alone::describe);
        Map<String, Object> record = loggerRecord(alone.result().report());
        assertEquals(1, ((List<?>) record.get("loggerDeaths")).size(), record::toString);
        assertTrue(
                ((Number) record.get("lostMessages")).intValue() > 0, () -> "the dead logger held nothing: " + record);
        assertTrue(alone.result().report().failures().isEmpty(), alone::describe);

        // Then a rank crashes late, with no checkpoint: it needs what the dead logger held, so the senders
        // of those messages roll back with it.
        long late = check.operations()[1] * 9 / 10;
        RecoveryCheck.Verdict v = check.run(p, 0, FailureSchedule.parse("1@o" + late, RANKS));
        assertTrue(v.ok(), v::describe);
        Map<String, Object> after = loggerRecord(v.result().report());
        assertUnderQuota(after, v);
        List<?> senderRollbacks = (List<?>) after.get("senderRollbacks");
        assertFalse(senderRollbacks.isEmpty(), () -> "no sender rolled back: " + after + "\n" + v.describe());
        for (RunReport.FailureRecord f : v.result().report().failures()) {
            assertTrue(f.rolledBack().size() > 1, () -> "only the crashed rank rolled back: " + v.describe());
        }

        // With a second copy of every dump, the same crash rolls back no sender.
        RecoveryCheck replicated = RecoveryCheck.of(
                job(main, args, dying.withReplicas(2).withKills(List.of(new LoggerConfig.Kill(0, 3)))));
        RecoveryCheck.Verdict r = replicated.run(p, 0, FailureSchedule.parse("1@o" + late, RANKS));
        assertTrue(r.ok(), r::describe);
        Map<String, Object> rec = loggerRecord(r.result().report());
        assertEquals(0, ((Number) rec.get("lostMessages")).intValue(), rec::toString);
        assertTrue(((List<?>) rec.get("senderRollbacks")).isEmpty(), rec::toString);
        assertUnderQuota(rec, r);
    }

    static Stream<String> payloadLoggingProtocols() {
        return Stream.of("pessimistic", "causal", "mcml", "spbc");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> loggerRecord(RunReport report) {
        Object m = report.protocolRecord().get("loggerNodes");
        assertTrue(m instanceof Map, () -> "no logger figures in the run record: " + report.protocolRecord());
        return (Map<String, Object>) m;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> ranks(Map<String, Object> record) {
        return (List<Map<String, Object>>) record.get("dumpsPerRank");
    }

    private static void assertUnderQuota(Map<String, Object> record, RecoveryCheck.Verdict v) {
        for (Map<String, Object> r : ranks(record)) {
            long peak = ((Number) r.get("peakLogBytes")).longValue();
            assertTrue(
                    peak <= QUOTA,
                    () -> "rank " + r.get("rank") + " held " + peak + " bytes, over its quota of " + QUOTA + ": " + r
                            + "\n" + v.describe());
            assertEquals(0L, ((Number) r.get("overQuotaFrames")).longValue(), () -> r + "\n" + v.describe());
        }
    }
}
