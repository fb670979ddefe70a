package io.rewind.apps.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.apps.crossing.LateReceivePair;
import io.rewind.apps.crossing.PipelineRing;
import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
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
 * Messages in flight across checkpoint lines, with ranks as real processes over TCP (and once over
 * shared memory) on two node agents: both ends of a crossing channel are killed with SIGKILL at the
 * same point of their runs, so they restart together from one line, under global rollback, pessimistic
 * logging and spbc (whose default two clusters put the two ends apart, and both die with the log that
 * held the message).
 * Every rank must print exactly what it prints without failures, and both kills must strike.
 */
@Tag("process")
class ProcessCrossingLinesTest {
    private static final Duration LIMIT = Duration.ofSeconds(120);
    /** Longer than any wait of these programs, including a rank process starting its JVM again. */
    private static final Duration STALL = Duration.ofSeconds(20);

    private static final Map<String, RecoveryCheck> CHECKS = new ConcurrentHashMap<>();

    /** A program and the two ranks killed together in it: the two ends of a crossing channel. */
    record Program(String name, JobConfig config, int first, int second) {
        @Override
        public String toString() {
            return name;
        }
    }

    static JobConfig config(Class<?> main, int ranks, String... args) {
        return JobConfig.builder(main.getName())
                .ranks(ranks)
                .args(args)
                .timeout(LIMIT)
                .stallTimeout(STALL)
                .quiet()
                .build();
    }

    /** Rank 1 sends rank 2 ring messages taken one iteration late, which cross the lines. */
    static final Program PIPELINE = new Program("PipelineRing", config(PipelineRing.class, 4, "32", "4", "15"), 1, 2);

    /** Messages over the eager limit, received two iterations late. */
    static final Program LATE =
            new Program("LateReceivePair", config(LateReceivePair.class, 2, "32", "100000", "2", "15"), 0, 1);

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Program program : List.of(PIPELINE, LATE)) {
            for (String protocol : List.of("global", "pessimistic", "spbc")) {
                out.add(Arguments.of(program, ProtocolRegistry.get(protocol)));
            }
        }
        return out.stream();
    }

    /**
     * Both ranks at the same point of their runs, two fifths of the way through their own operations (one
     * count for ranks that make as many), so that they die at about one moment.
     */
    private static FailureSchedule killedTogether(RecoveryCheck check, Program p) {
        long[] ops = check.operations();
        return FailureSchedule.parse(
                p.first() + "@o" + Math.max(1, ops[p.first()] * 2 / 5) + "," + p.second() + "@o"
                        + Math.max(1, ops[p.second()] * 2 / 5),
                p.config().ranks());
    }

    private static void assertRecovers(Program p, ProtocolDescriptor protocol, Launch launch) {
        RecoveryCheck check = CHECKS.computeIfAbsent(p.name(), k -> RecoveryCheck.of(p.config()));
        FailureSchedule kills = killedTogether(check, p);
        RecoveryCheck.Verdict v = check.run(protocol, 4, kills, c -> ProcessJob.run(c, launch));
        assertTrue(v.ok(), v.describe());
        assertEquals(2, v.struck(), "both kills strike: " + v.describe());
        assertEquals(2, v.result().report().failures().size(), "one failure per kill: " + v.describe());
    }

    @ParameterizedTest(name = "{0} under {1}")
    @MethodSource("cases")
    void bothEndsOfACrossingChannelKilledTogetherRecover(Program program, ProtocolDescriptor protocol) {
        assertRecovers(program, protocol, Launch.local(2));
    }

    @Test
    void bothEndsKilledTogetherRecoverOverSharedMemory() {
        assertRecovers(
                PIPELINE, ProtocolRegistry.get("pessimistic"), Launch.local(2).withSharedMemory(true));
    }
}
