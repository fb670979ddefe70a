package io.rewind.apps.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.runtime.FailureSchedule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The campaign's drawing: the same seed draws the same runs, and every run is one the runtime can take. */
class RunDrawerTest {
    private static final List<String> PROTOCOLS = List.of("global", "pessimistic", "causal", "mcml", "spbc");

    /** Stands in for a failure-free run: every rank made a number of operations that depends on the program. */
    private static long[] ops(Program p) {
        long[] ops = new long[p.ranks()];
        Arrays.fill(ops, 40L + p.steps() * 7L);
        ops[0] += 11; // ranks differ, as rank 0 often does more
        return ops;
    }

    private static List<RunSpec> draw(RunDrawer d, int runs) {
        List<RunSpec> out = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            Program p = d.program(i);
            out.add(d.draw(i, ops(p), 800));
        }
        return out;
    }

    @Test
    void theSameSeedDrawsTheSameRunsInTheSameOrder() {
        List<RunSpec> a = draw(new RunDrawer(42, PROTOCOLS, 10, RunDrawer.JitterMode.MIXED, 200), 300);
        List<RunSpec> b = draw(new RunDrawer(42, PROTOCOLS, 10, RunDrawer.JitterMode.MIXED, 200), 300);
        assertEquals(a, b);
        // One run drawn alone is the run the campaign drew at that place.
        RunDrawer alone = new RunDrawer(42, PROTOCOLS, 10, RunDrawer.JitterMode.MIXED, 200);
        assertEquals(a.get(217), alone.draw(217, ops(alone.program(217)), 800));
        List<RunSpec> other = draw(new RunDrawer(43, PROTOCOLS, 10, RunDrawer.JitterMode.MIXED, 200), 300);
        assertNotEquals(a, other);
    }

    @Test
    void runsAreOnesTheRuntimeTakesAndCoverWhatTheCampaignPromises() {
        List<RunSpec> runs = draw(new RunDrawer(7, PROTOCOLS, 10, RunDrawer.JitterMode.MIXED, 200), 1000);
        Set<Program.Kind> kinds = new HashSet<>();
        Set<KillDrawer.Kind> killKinds = new HashSet<>();
        Set<Program> programs = new HashSet<>();
        int processes = 0;
        int jittered = 0;
        for (RunSpec s : runs) {
            Program p = s.program();
            kinds.add(p.kind());
            killKinds.add(s.killKind());
            programs.add(p);
            assertEquals(PROTOCOLS.get(s.index() % PROTOCOLS.size()), s.protocol(), "protocols take turns");
            assertTrue(p.ranks() >= 2 && p.ranks() <= 5, s.describe());
            switch (p.kind()) {
                case RANDOM, PLAIN -> assertEquals(0, p.checkpointEvery(), s.describe());
                case RANDOM_LINES -> assertTrue(p.checkpointEvery() >= 2 && p.checkpointEvery() <= 5, s.describe());
                case CROSSING -> assertTrue(p.checkpointEvery() > 0, s.describe());
            }
            assertTrue(!s.kills().isEmpty(), "every run kills: " + s.describe());
            // Every kill is one --kill names: the command line reproduces the run.
            assertEquals(s.kills(), FailureSchedule.parse(s.killSpec(), p.ranks()), s.describe());
            if (s.launcher() == RunSpec.Launcher.PROCESSES) {
                processes++;
                assertEquals(0, s.jitterMicros(), "rank processes talk over TCP: no jitter");
            }
            jittered += s.jitterMicros() > 0 ? 1 : 0;
        }
        assertEquals(Set.of(Program.Kind.values()), kinds);
        assertEquals(Set.of(KillDrawer.Kind.values()), killKinds);
        assertTrue(processes > 50 && processes < 150, processes + " of 1000 runs as processes, one in 10 drawn");
        assertTrue(jittered > 350 && jittered < 550, jittered + " of 1000 runs with jitter, half of those as threads");
        // A third of the runs take an earlier run's program: references are shared.
        assertTrue(programs.size() < 800, programs.size() + " programs in 1000 runs");
    }

    @Test
    void processesAndJitterAreOffWhenAskedToBe() {
        for (RunSpec s : draw(new RunDrawer(9, PROTOCOLS, 0, RunDrawer.JitterMode.OFF, 200), 300)) {
            assertEquals(RunSpec.Launcher.THREADS, s.launcher());
            assertEquals(0, s.jitterMicros());
        }
        for (RunSpec s : draw(new RunDrawer(9, PROTOCOLS, 0, RunDrawer.JitterMode.ON, 150), 300)) {
            assertEquals(150, s.jitterMicros());
        }
    }

    @Test
    void killsLandWithinTheOperationsTheRanksMade() {
        RunDrawer d = new RunDrawer(11, PROTOCOLS, 0, RunDrawer.JitterMode.OFF, 200);
        for (int i = 0; i < 500; i++) {
            Program p = d.program(i);
            long[] ops = ops(p);
            RunSpec s = d.draw(i, ops, 800);
            for (FailureSchedule.Kill k : s.kills().kills()) {
                assertTrue(k.rank() < p.ranks(), s.describe());
                switch (k.trigger()) {
                    case OPERATION -> {
                        if (s.killKind() != KillDrawer.Kind.CHAOS) {
                            assertTrue(k.value() >= 1 && k.value() <= ops[k.rank()], s.describe());
                        }
                    }
                    case ITERATION -> assertTrue(
                            p.hasPoints(), "a kill at a point of a program without: " + s.describe());
                    case TIME -> assertTrue(k.value() >= KillDrawer.EARLIEST_MILLIS && k.value() <= 800, s.describe());
                    case CHECKPOINT -> throw new AssertionError("not drawn: " + s.describe());
                }
            }
            if (s.killKind() == KillDrawer.Kind.TOGETHER) {
                assertEquals(
                        1,
                        s.kills().kills().stream()
                                .map(FailureSchedule.Kill::value)
                                .distinct()
                                .count());
                assertEquals(
                        s.kills().kills().size(),
                        s.kills().kills().stream()
                                .map(FailureSchedule.Kill::rank)
                                .distinct()
                                .count());
            }
            if (s.killKind() == KillDrawer.Kind.TWICE) {
                assertEquals(
                        1,
                        s.kills().kills().stream()
                                .map(FailureSchedule.Kill::rank)
                                .distinct()
                                .count());
            }
        }
    }
}
