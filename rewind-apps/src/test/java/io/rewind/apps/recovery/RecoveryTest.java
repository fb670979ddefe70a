package io.rewind.apps.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.apps.workloads.CollectiveMix;
import io.rewind.apps.workloads.Discovery;
import io.rewind.apps.workloads.MasterWorker;
import io.rewind.apps.workloads.PollingExchange;
import io.rewind.apps.workloads.Stencil2D;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs each workload with crashes under the protocols that recover, and compares what it prints with
 * a failure-free run of the same workload, bit for bit. Schedules are drawn from seeds, so a failing
 * case names the seed that reproduces it.
 */
@Tag("oracle")
class RecoveryTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final Map<String, String> BASELINES = new ConcurrentHashMap<>();

    /** A workload: class, ranks, arguments, the prefix of its result line, and its iteration count. */
    record Workload(Class<?> main, int ranks, List<String> args, String prefix, int iterations) {
        @Override
        public String toString() {
            return main.getSimpleName() + "x" + ranks + args;
        }
    }

    static final Workload STENCIL = new Workload(Stencil2D.class, 4, List.of("48", "24"), "stencil", 24);
    static final Workload MASTER_WORKER = new Workload(MasterWorker.class, 4, List.of("24", "50"), "masterworker", 24);
    static final Workload POLLING = new Workload(PollingExchange.class, 5, List.of("24"), "polling", 24);
    static final Workload COLLECTIVES = new Workload(CollectiveMix.class, 5, List.of("24", "8"), "collectives", 24);

    static JobResult run(Workload w, ProtocolDescriptor protocol, FailureSchedule failures, int checkpointEvery) {
        return Job.run(JobConfig.builder(w.main().getName())
                .ranks(w.ranks())
                .args(w.args())
                .protocol(protocol)
                .checkpointEvery(checkpointEvery)
                .failures(failures)
                .timeout(LIMIT)
                .quiet()
                .build());
    }

    static String resultLine(JobResult r, String prefix) {
        for (String line : r.output(0)) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("no line starting with '" + prefix + "' in rank 0's output: " + r.output(0));
    }

    static String baseline(Workload w) {
        return BASELINES.computeIfAbsent(w.toString(), k -> {
            JobResult r = run(w, ProtocolRegistry.NONE, FailureSchedule.NONE, 0);
            assertTrue(r.ok(), r.describeFailures());
            return resultLine(r, w.prefix());
        });
    }

    static void assertRecovers(
            Workload w, ProtocolDescriptor protocol, FailureSchedule failures, int checkpointEvery, String label) {
        JobResult r = run(w, protocol, failures, checkpointEvery);
        String context = label + " " + w + " " + protocol.name() + " kills=" + failures + "\n" + r.describeFailures()
                + (r.report() != null ? r.report().summary() : "");
        assertTrue(r.ok(), context);
        assertEquals(baseline(w), resultLine(r, w.prefix()), context);
        // Every kill is a failure of its own or is reported as never struck, also one that lands on a
        // rank while another's rollback stops it (it strikes the next incarnation, or joins that rollback
        // as a crash of its own).
        int struck = failures.kills().size() - r.report().killsNotStruck().size();
        assertEquals(struck, r.report().failures().size(), "every kill that struck was recovered: " + context);
    }

    /** The same, under every protocol in the registry that recovers. */
    static void assertRecovers(Workload w, FailureSchedule failures, int checkpointEvery, String label) {
        for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
            assertRecovers(w, p, failures, checkpointEvery, label);
        }
    }

    static Stream<Arguments> seeded() {
        List<Arguments> cases = new ArrayList<>();
        for (Workload w : List.of(STENCIL, MASTER_WORKER, POLLING, COLLECTIVES)) {
            for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
                for (long seed = 1; seed <= 8; seed++) {
                    cases.add(Arguments.of(w, p, seed));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} seed {2}")
    @MethodSource("seeded")
    void recoversFromSeededCrashesBitForBit(Workload w, ProtocolDescriptor protocol, long seed) {
        FailureSchedule f = FailureSchedule.chaos(seed, w.ranks(), w.iterations());
        assertRecovers(w, protocol, f, 4, "seed " + seed);
    }

    @Test
    void crashesInTheMiddleOfExchangesAndCollectivesRecover() {
        // Operation counts land inside halo exchanges, allReduces, rooted collectives and waits.
        for (String kill : List.of("1@o7", "2@o40", "0@o61", "3@o95,1@o96")) {
            assertRecovers(STENCIL, FailureSchedule.parse(kill, 4), 4, "mid-exchange");
        }
        for (String kill : List.of("0@o33", "4@o70", "2@o101,3@o57")) {
            assertRecovers(COLLECTIVES, FailureSchedule.parse(kill, 5), 4, "mid-collective");
        }
    }

    @Test
    void killsOfEveryRankAtOneOperationAreEachAFailure() {
        // The kills land while the first crash's rollback stops the other ranks: none may vanish.
        for (int i = 0; i < 3; i++) {
            assertRecovers(STENCIL, FailureSchedule.parse("0@o60,1@o60,2@o60,3@o60", 4), 4, "all at once");
        }
    }

    @Test
    void aNonBlockingCollectiveBesidePointToPointTrafficReplaysTheSame() {
        // Discovery polls iProbe(ANY_SOURCE) and answers while its iBarrier runs on a thread of its own:
        // collective and point-to-point messages must be numbered apart for replay to match.
        Workload discovery = new Workload(Discovery.class, 5, List.of("24", "3", "5", "barrier"), "discovery", 24);
        for (String kill : List.of("0@o140,0@o77,4@22", "2@o60", "4@o90,1@o91")) {
            assertRecovers(discovery, FailureSchedule.parse(kill, 5), 4, "discovery");
        }
    }

    @Test
    void aCrashBeforeTheFirstCheckpointRestartsFromTheBeginning() {
        assertRecovers(STENCIL, FailureSchedule.parse("2@3", 4), 10, "early");
        assertRecovers(MASTER_WORKER, FailureSchedule.parse("0@2", 4), 10, "early");
    }

    @Test
    void theMasterOfAnAnySourceScheduleReplaysItsDecisions() {
        assertRecovers(MASTER_WORKER, FailureSchedule.parse("0@11", 4), 4, "master");
        assertRecovers(MASTER_WORKER, FailureSchedule.parse("0@9,0@15", 4), 4, "master twice");
    }

    @Test
    void concurrentCrashesRecover() {
        assertRecovers(STENCIL, FailureSchedule.parse("1@10,2@10", 4), 4, "concurrent");
        assertRecovers(COLLECTIVES, FailureSchedule.parse("0@10,4@10", 5), 4, "concurrent");
    }

    @Test
    void aSecondCrashDuringRecoveryRecovers() {
        // Rank 1 restarts from line 2 (point 8) and re-executes 9..13 while rank 2 dies at 11.
        assertRecovers(STENCIL, FailureSchedule.parse("1@13,2@14", 4), 4, "during recovery");
        assertRecovers(POLLING, FailureSchedule.parse("3@13,1@14", 5), 4, "during recovery");
    }

    @Test
    void repeatedCrashesOnTheSameRecoveryLineRecover() {
        assertRecovers(STENCIL, FailureSchedule.parse("3@10,3@11", 4), 4, "repeated");
        assertRecovers(COLLECTIVES, FailureSchedule.parse("2@10,2@11", 5), 4, "repeated");
    }

    @Test
    void aCrashWhileWritingACheckpointFallsBackToThePreviousLine() {
        for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
            JobResult r = run(STENCIL, p, FailureSchedule.parse("1@c3", 4), 4);
            assertTrue(r.ok(), r.describeFailures());
            assertEquals(baseline(STENCIL), resultLine(r, STENCIL.prefix()));
            assertEquals(
                    2,
                    r.report().failures().get(0).line(),
                    p + ": " + r.report().summary());
        }
    }

    @Test
    void aTimedCrashRecovers() {
        Workload slow = new Workload(Stencil2D.class, 4, List.of("48", "200"), "stencil", 200);
        assertRecovers(slow, FailureSchedule.parse("2@t30", 4), 20, "timed");
    }

    @Test
    void collectivesLoggedAtApplicationLevelTakeLessLogThanTheirInternalMessages() {
        JobResult app = Job.run(JobConfig.builder(CollectiveMix.class.getName())
                .ranks(8)
                .args("12", "64")
                .protocol("pessimistic")
                .timeout(LIMIT)
                .quiet()
                .build());
        JobResult internal = Job.run(JobConfig.builder(CollectiveMix.class.getName())
                .ranks(8)
                .args("12", "64")
                .protocol("pessimistic")
                .applicationLevelCollectives(false)
                .timeout(LIMIT)
                .quiet()
                .build());
        assertTrue(app.ok(), app.describeFailures());
        assertTrue(internal.ok(), internal.describeFailures());
        assertEquals(resultLine(app, "collectives"), resultLine(internal, "collectives"));
        assertTrue(
                app.report().collectiveLoggedEntries() < internal.report().collectiveLoggedEntries(),
                app.report().summary() + "\n" + internal.report().summary());
        assertTrue(
                app.report().collectiveLoggedBytes() < internal.report().collectiveLoggedBytes(),
                app.report().summary() + "\n" + internal.report().summary());
    }

    @Test
    void collectivesLoggedAsInternalMessagesRecoverToo() {
        JobResult r = Job.run(JobConfig.builder(CollectiveMix.class.getName())
                .ranks(5)
                .args("24", "8")
                .protocol("pessimistic")
                .applicationLevelCollectives(false)
                .checkpointEvery(4)
                .failures(FailureSchedule.parse("3@10", 5))
                .timeout(LIMIT)
                .quiet()
                .build());
        assertTrue(r.ok(), r.describeFailures());
        assertEquals(baseline(COLLECTIVES), resultLine(r, COLLECTIVES.prefix()));
    }

    @Test
    void aSynchronousSendToARankThatCrashesIsNotLeftWaiting() {
        Workload sync = new Workload(SyncExchange.class, 2, List.of("24"), "sync", 24);
        for (String kill : List.of("1@10", "1@13", "0@11", "1@t5")) {
            assertRecovers(sync, FailureSchedule.parse(kill, 2), 4, "sSend " + kill);
        }
    }

    @Test
    void withoutAProtocolACrashAbortsTheJobWithAClearMessage() {
        JobResult r = run(STENCIL, ProtocolRegistry.NONE, FailureSchedule.parse("1@5", 4), 0);
        assertFalse(r.ok());
        assertTrue(r.describeFailures().contains("protocol none cannot recover"), r.describeFailures());
    }

    @Test
    void localRollbackRestartsOneRankAndReplaysItsMessages() {
        JobResult r = run(STENCIL, ProtocolRegistry.get("pessimistic"), FailureSchedule.parse("2@14", 4), 4);
        assertTrue(r.ok(), r.describeFailures());
        var f = r.report().failures().get(0);
        assertEquals(1, f.rollbackSet());
        assertEquals(3, f.line());
        assertTrue(f.replayedFrames() > 0, r.report().summary());
        assertTrue(
                r.report().loggedBytes() > 0 && r.report().checkpoints() > 0,
                r.report().summary());
        JobResult g = run(STENCIL, ProtocolRegistry.get("global"), FailureSchedule.parse("2@14", 4), 4);
        assertTrue(g.ok(), g.describeFailures());
        assertEquals(4, g.report().failures().get(0).rollbackSet());
        assertEquals(0, g.report().loggedBytes());
    }
}
