package io.rewind.apps.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.apps.crossing.CrossingMix;
import io.rewind.apps.crossing.LateReceivePair;
import io.rewind.apps.crossing.PipelineRing;
import io.rewind.ft.ClusterLayout;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Programs whose messages cross checkpoint lines ({@code io.rewind.apps.crossing}): a message sent
 * before its sender's line and received after its receiver's is part of neither rank's state at the
 * line, so a recovery that restarts both ends from that line must still deliver it. Each program runs
 * under every protocol of the registry that recovers (spbc with two clusters, each of which holds both
 * ends of crossing channels of the four-rank programs, and with one cluster, its global fallback; mcml
 * with a quota small enough that channels switch off, so a crash rolls back both ends of an unlogged
 * channel), with a line every few iterations, and is killed: one rank; two ranks or more at one
 * iteration, at one operation count, or at the same point of their runs; one rank twice at one
 * operation (a failure during its own recovery); and a second rank a few operations after the first.
 * Every run must end, print on rank 0 exactly the result line of the failure-free run (protocol none,
 * no kills), and report every kill as one failure.
 *
 * <p>The named regression cases are the two scenarios in which such a message was first seen lost: a
 * global rollback of a pair, and a pair killed at one time (or 60 ms apart) under the logging
 * protocols.
 */
@Tag("oracle")
class CrossingLinesTest {
    /** Per job: each takes a few seconds, and a stalled one ends at the stall timeout well before. */
    private static final Duration LIMIT = Duration.ofSeconds(60);

    /**
     * No rank of these programs waits inside MPI for long without another making progress: a job in
     * which every rank waits this long waits for a message that is lost.
     */
    private static final Duration STALL = Duration.ofSeconds(8);

    /** An mcml quota under what one checkpoint interval of every program sends on a channel. */
    private static final long MCML_QUOTA = 512;

    private static final Map<String, String> BASELINES = new ConcurrentHashMap<>();
    private static final Map<String, long[]> OPERATIONS = new ConcurrentHashMap<>();

    /**
     * A program: class, ranks, arguments, the prefix of rank 0's result line, the checkpoint interval
     * it runs with, and its kill scenarios.
     */
    record Program(
            Class<?> main, int ranks, List<String> args, String prefix, int checkpointEvery, List<Scenario> scenarios) {
        @Override
        public String toString() {
            return main.getSimpleName() + "x" + ranks + args;
        }
    }

    /**
     * A kill scenario: its name and the kills, made from the operation counts of the failure-free run.
     * Operation counts restart with every incarnation, and a kill that reaches a rank being stopped by
     * another's rollback waits for its next incarnation: so a schedule of k kills lands each one early
     * enough that after k rollbacks, each to a line no later than where the kill before struck, the
     * rank still gets that far (two fifths of its run for one or two kills, 1 / (k + 1) for more).
     */
    record Scenario(String name, Function<long[], String> kills) {
        @Override
        public String toString() {
            return name;
        }

        /** The same kills at a fixed spec. */
        static Scenario of(String name, String spec) {
            return new Scenario(name, ops -> spec);
        }

        /**
         * Ranks killed at the same point of their runs, each at the same share of its own operations (the
         * same count for ranks that make as many), so that they fail at about one moment.
         */
        static Scenario together(String name, int... ranks) {
            return new Scenario(name, ops -> {
                StringBuilder b = new StringBuilder();
                for (int r : ranks) {
                    b.append(b.isEmpty() ? "" : ",").append(r).append("@o").append(early(ops, ranks.length, r));
                }
                return b.toString();
            });
        }

        /** Ranks killed at one operation count, the same share of the fewest operations any of them makes. */
        static Scenario atOneOperation(String name, int... ranks) {
            return new Scenario(name, ops -> {
                long at = early(ops, ranks.length, ranks);
                StringBuilder b = new StringBuilder();
                for (int r : ranks) {
                    b.append(b.isEmpty() ? "" : ",").append(r).append("@o").append(at);
                }
                return b.toString();
            });
        }

        /** {@code first} killed, then {@code second} a few operations later in its own count. */
        static Scenario shortlyAfter(String name, int first, int second) {
            return new Scenario(
                    name,
                    ops -> first + "@o" + early(ops, 2, first) + "," + second + "@o" + (early(ops, 2, second) + 3));
        }

        /** The operation at which one of {@code kills} kills lands in the fewest operations of {@code ranks}. */
        private static long early(long[] ops, int kills, int... ranks) {
            long fewest = Long.MAX_VALUE;
            for (int r : ranks) {
                fewest = Math.min(fewest, ops[r]);
            }
            long at = kills <= 2 ? fewest * 2 / 5 : fewest / (kills + 1);
            return Math.max(1, at);
        }
    }

    /** A protocol as these tests run it: the registered protocol, its clusters and its log quota. */
    record Setup(String name, ProtocolDescriptor protocol, ClusterLayout clusters, long quota) {
        @Override
        public String toString() {
            return name;
        }

        static Setup of(String name) {
            return new Setup(name, ProtocolRegistry.get(name), ClusterLayout.DEFAULT, 0);
        }
    }

    static final Program LATE = new Program(
            LateReceivePair.class,
            2,
            // Two lines in flight per message, and a payload far over the mcml quota.
            List.of("40", "2048", "2", "12"),
            "latepair",
            5,
            List.of(
                    Scenario.of("the receiver", "1@17"),
                    Scenario.of("both at one iteration", "0@17,1@17"),
                    Scenario.together("both at the same point of their runs", 0, 1),
                    Scenario.atOneOperation("the sender twice at one operation", 0, 0),
                    Scenario.shortlyAfter("the receiver shortly after the sender", 0, 1)));

    static final Program PIPELINE = new Program(
            PipelineRing.class,
            4,
            List.of("40", "4", "12"),
            "pipeline",
            4,
            List.of(
                    Scenario.of("one rank", "2@15"),
                    Scenario.of("the gatherer and its right neighbour at one iteration", "0@15,1@15"),
                    Scenario.together("the gatherer and the slow rank at the same point of their runs", 0, 3),
                    Scenario.atOneOperation("three ranks at one operation", 1, 2, 3),
                    Scenario.atOneOperation("the slow rank twice at one operation", 3, 3),
                    Scenario.shortlyAfter("the gatherer shortly after the slow rank", 3, 0)));

    static final Program MIX = new Program(
            CrossingMix.class,
            4,
            List.of("32", Integer.toString(160 << 10), "12"),
            "crossingmix",
            3,
            List.of(
                    Scenario.of("one rank", "1@14"),
                    Scenario.of("two neighbours at one iteration", "0@14,1@14"),
                    Scenario.together("every rank at the same point of its run", 0, 1, 2, 3),
                    Scenario.atOneOperation("two ranks at one operation", 1, 2),
                    Scenario.atOneOperation("the first rank twice at one operation", 0, 0),
                    Scenario.shortlyAfter("the first rank shortly after the second", 1, 0)));

    /**
     * Every recovering protocol of the registry; spbc twice (two clusters, and one cluster), mcml with
     * a small quota.
     */
    static List<Setup> setups() {
        List<Setup> out = new ArrayList<>();
        for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
            switch (p.name()) {
                case "spbc" -> {
                    out.add(new Setup("spbc, two clusters", p, ClusterLayout.blocks(2), 0));
                    out.add(new Setup("spbc, one cluster", p, ClusterLayout.blocks(1), 0));
                }
                case "mcml" -> out.add(new Setup("mcml, quota " + MCML_QUOTA, p, ClusterLayout.DEFAULT, MCML_QUOTA));
                default -> out.add(new Setup(p.name(), p, ClusterLayout.DEFAULT, 0));
            }
        }
        return out;
    }

    static JobConfig job(Program p, Setup s, FailureSchedule kills, int every, List<String> args) {
        JobConfig.Builder b = JobConfig.builder(p.main().getName())
                .ranks(p.ranks())
                .args(args)
                .protocol(s.protocol())
                .option("--clusters", s.clusters().spec())
                .checkpointEvery(every)
                .failures(kills)
                .timeout(LIMIT)
                .stallTimeout(STALL)
                .quiet();
        if (s.quota() > 0) {
            b.payloadLog(PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                    .quotaBytes(s.quota())
                    .build());
        }
        return b.build();
    }

    static String resultLine(JobResult r, String prefix) {
        for (String line : r.output(0)) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("no line starting with '" + prefix + "' in rank 0's output: " + r.output(0));
    }

    /** The failure-free run of {@code p} with {@code args}: protocol none, no kills, no checkpoints. */
    static JobResult failureFree(Program p, List<String> args) {
        JobResult r = Job.run(job(p, Setup.of("none"), FailureSchedule.NONE, 0, args));
        assertTrue(r.ok(), p + " without failures: " + r.describeFailures());
        return r;
    }

    static String baseline(Program p, List<String> args) {
        String key = p.main().getName() + args;
        String line = BASELINES.get(key);
        if (line == null) {
            JobResult r = failureFree(p, args);
            line = resultLine(r, p.prefix());
            BASELINES.put(key, line);
            OPERATIONS.put(key, r.report().operations().clone());
        }
        return line;
    }

    static long[] operations(Program p) {
        baseline(p, p.args());
        return OPERATIONS.get(p.main().getName() + p.args());
    }

    /**
     * Runs {@code p} under {@code s} with {@code kills}: the job ends well, rank 0 prints the
     * failure-free result line, and every kill struck and is one failure.
     */
    static void assertRecovers(Program p, List<String> args, Setup s, String kills, int every) {
        String expected = baseline(p, args);
        FailureSchedule schedule = FailureSchedule.parse(kills, p.ranks());
        JobResult r = Job.run(job(p, s, schedule, every, args));
        String context = p.main().getSimpleName() + " " + args + " under " + s + ", checkpoint every " + every
                + ", kills " + kills + ":\n" + r.describeFailures()
                + (r.report() != null ? r.report().summary() : "");
        assertTrue(r.ok(), "the job failed: " + context);
        assertEquals(expected, resultLine(r, p.prefix()), context);
        assertTrue(r.report().killsNotStruck().isEmpty(), "kills that never struck: " + context);
        assertEquals(schedule.kills().size(), r.report().failures().size(), "one failure per kill: " + context);
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Program p : List.of(LATE, PIPELINE, MIX)) {
            for (Setup s : setups()) {
                for (Scenario k : p.scenarios()) {
                    out.add(Arguments.of(p, s, k));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} under {1}, killing {2}")
    @MethodSource("cases")
    void messagesInFlightAcrossTheLineSurviveTheRecovery(Program p, Setup s, Scenario k) {
        String kills = k.kills().apply(operations(p));
        assertRecovers(p, p.args(), s, kills, p.checkpointEvery());
    }

    /** The failure-free runs are deterministic, so a recovered run has one result to match. */
    @Test
    void failureFreeRunsPrintTheSameResultEveryTime() {
        for (Program p : List.of(LATE, PIPELINE, MIX)) {
            String first = baseline(p, p.args());
            assertEquals(first, resultLine(failureFree(p, p.args()), p.prefix()), p.toString());
            assertTrue(first.contains(" bad=0"), first);
        }
    }

    /**
     * Under the mcml quota these tests use, every program switches a channel off without failures: a
     * crash then rolls back both ends of that channel, whose crossing messages no log holds.
     */
    @Test
    void theMcmlQuotaSwitchesChannelsOffInEveryProgram() {
        Setup mcml = setups().stream().filter(s -> s.quota() > 0).findFirst().orElseThrow();
        for (Program p : List.of(LATE, PIPELINE, MIX)) {
            JobResult r = Job.run(job(p, mcml, FailureSchedule.NONE, p.checkpointEvery(), p.args()));
            assertTrue(r.ok(), r.describeFailures());
            assertEquals(baseline(p, p.args()), resultLine(r, p.prefix()));
            @SuppressWarnings("unchecked")
            List<int[]> off = (List<int[]>) r.report().protocolRecord().get("channelsSwitchedOff");
            assertFalse(
                    off.isEmpty(),
                    () -> p + ": no channel was switched off\n" + r.report().summary());
        }
    }

    // --- the scenarios the loss was reported with --------------------------------------------------

    /** LateReceivePair with its defaults (60 iterations of 20 ms, 64-byte messages, lag 1). */
    private static final List<String> DEFAULTS = List.of();

    /**
     * {@code rewind run -n 2 --protocol global --checkpoint-every 5 --kill 1@22 LateReceivePair}: both
     * ranks restart from line 4 (point 20), and messages 18 and 19, sent before rank 0's line and
     * received in iterations 19 and 20 after rank 1's, must reach rank 1 again. They are in flight at the
     * line only if rank 1 passed its point before rank 0 sent them, which it nearly always does; three
     * runs make a run that misses the case unlikely to hide a loss.
     */
    @Test
    void aGlobalRollbackOfThePairDeliversTheMessageInFlightAtItsLine() {
        for (int run = 0; run < 3; run++) {
            assertRecovers(LATE, DEFAULTS, Setup.of("global"), "1@22", 5);
        }
    }

    static Stream<Setup> pairKilledAtOneTime() {
        return Stream.of(
                Setup.of("pessimistic"),
                Setup.of("causal"),
                new Setup("spbc, one cluster", ProtocolRegistry.get("spbc"), ClusterLayout.blocks(1), 0),
                new Setup(
                        "mcml, quota " + MCML_QUOTA, ProtocolRegistry.get("mcml"), ClusterLayout.DEFAULT, MCML_QUOTA));
    }

    /**
     * {@code --kill 0@t700,1@t700}: sender and receiver restart together from the newest line both
     * hold, and the log that held the message in flight at that line died with the sender.
     */
    @Tag("sample")
    @ParameterizedTest(name = "under {0}")
    @MethodSource("pairKilledAtOneTime")
    void aPairKilledAtOneTimeDeliversTheMessageInFlightAtItsLine(Setup s) {
        assertRecovers(LATE, DEFAULTS, s, "0@t700,1@t700", 5);
    }

    /** {@code --protocol pessimistic --kill 0@t700,1@t760}: the receiver dies during the sender's recovery. */
    @Tag("sample")
    @Test
    void aReceiverKilledDuringTheSendersRecoveryGetsTheMessageInFlight() {
        assertRecovers(LATE, DEFAULTS, Setup.of("pessimistic"), "0@t700,1@t760", 5);
    }
}
