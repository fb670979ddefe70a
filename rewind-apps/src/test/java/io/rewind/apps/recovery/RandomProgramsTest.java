package io.rewind.apps.recovery;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.apps.random.RandomSpmd;
import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Random SPMD programs ({@link RandomSpmd}: point-to-point, wildcards, completion functions, every
 * collective with random counts and gaps, derived communicators) under random crashes at operation
 * counts, under every protocol that recovers, compared bit for bit with their failure-free run. A
 * seed that once failed stays below as an example.
 */
class RandomProgramsTest {
    /** Per run; a hang fails the run instead of the build. */
    private static final Duration LIMIT = Duration.ofSeconds(60);

    static void assertRecovers(long programSeed, int ranks, int steps, long killSeed, int schedules) {
        List<String> failures = failuresOf(programSeed, ranks, steps, killSeed, schedules);
        assertTrue(failures.isEmpty(), () -> String.join("\n", failures));
    }

    /** What went wrong in the runs of one program, one entry per failed run (empty: every run matched). */
    static List<String> failuresOf(long programSeed, int ranks, int steps, long killSeed, int schedules) {
        List<String> failures = new ArrayList<>();
        JobConfig job = JobConfig.builder(RandomSpmd.class.getName())
                .ranks(ranks)
                .args(Long.toString(programSeed), Integer.toString(steps))
                .timeout(LIMIT)
                .clusters(io.rewind.ft.ClusterLayout.forTests())
                .quiet()
                .build();
        RecoveryCheck check = RecoveryCheck.of(job);
        for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
            for (FailureSchedule s : check.schedules(killSeed, schedules)) {
                RecoveryCheck.Verdict v = check.run(p, 0, s);
                if (!v.ok()) {
                    failures.add("RandomSpmd " + programSeed + " " + steps + " on " + ranks + " ranks, kill seed "
                            + killSeed + ": " + v.describe());
                }
            }
        }
        return failures;
    }

    @Property(tries = 12)
    void randomProgramsRecoverFromRandomCrashesBitForBit(
            @ForAll @LongRange(min = 1, max = 1_000_000) long program,
            @ForAll @IntRange(min = 1, max = 5) int ranks,
            @ForAll @IntRange(min = 5, max = 50) int steps,
            @ForAll @LongRange(min = 1, max = 1_000_000) long kills) {
        assertRecovers(program, ranks, steps, kills, 3);
    }

    /**
     * The slow tier: {@code -Drewind.random.programs=N} runs N more programs, on 2 to 5 ranks, each
     * under three crash schedules per protocol (the property above draws a dozen in every build);
     * {@code -Drewind.random.first=K} starts the sweep at its K-th program, so a later sweep draws
     * programs no earlier one ran.
     */
    @Test
    void sweepOfRandomPrograms() {
        int programs = Integer.getInteger("rewind.random.programs", 0);
        Assumptions.assumeTrue(programs > 0, "slow tier only: -Drewind.random.programs=N");
        long first = Long.getLong("rewind.random.first", 1);
        // Every program runs, and every failure is reported at the end: one failure does not hide the rest.
        List<String> failures = new ArrayList<>();
        for (long i = first; i < first + programs; i++) {
            failures.addAll(failuresOf(i * 7919, 2 + (int) (i % 4), 20 + (int) (i % 31), i * 31, 3));
        }
        assertTrue(
                failures.isEmpty(),
                () -> failures.size() + " failed runs in " + programs + " programs:\n" + String.join("\n\n", failures));
    }

    /** Nested splits of disjoint groups sharing a context (communicator registry keyed by context only). */
    @Example
    void splitOfASplitColour() {
        assertRecovers(1, 4, 60, 1, 3);
    }
}
