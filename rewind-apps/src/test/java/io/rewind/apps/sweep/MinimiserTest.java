package io.rewind.apps.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.runtime.FailureSchedule;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Minimising against a function that stands in for running: it fails only for the runs it is told to. */
class MinimiserTest {
    private static final FailureSchedule.Kill CULPRIT =
            new FailureSchedule.Kill(1, FailureSchedule.Trigger.OPERATION, 38);

    private static RunSpec failing(int steps) {
        return new RunSpec(
                3,
                99,
                Program.randomAcrossLines(65, steps, 3, 4),
                "spbc",
                FailureSchedule.parse("0@o12,2@o38,1@o38,0@t300", 3),
                KillDrawer.Kind.TOGETHER,
                RunSpec.Launcher.THREADS,
                0);
    }

    private static boolean hasCulprit(RunSpec s) {
        return s.kills().kills().contains(CULPRIT);
    }

    @Test
    void theOneKillThatMattersIsWhatIsLeft() {
        AtomicInteger runs = new AtomicInteger();
        Minimiser m = new Minimiser(
                s -> {
                    runs.incrementAndGet();
                    return hasCulprit(s) && s.program().steps() >= 12;
                },
                10,
                20,
                200,
                () -> false);
        Minimiser.Result r = m.minimise(failing(39));
        assertEquals(10, r.failed());
        assertEquals(10, r.reruns());
        assertEquals(
                new FailureSchedule(java.util.List.of(CULPRIT)), r.smallest().kills(), String.join("\n", r.log()));
        assertEquals(12, r.smallest().program().steps(), String.join("\n", r.log()));
        // The rest of the run is as it was.
        assertEquals("spbc", r.smallest().protocol());
        assertEquals(4, r.smallest().program().checkpointEvery());
        assertEquals(runs.get(), r.trials());
        assertTrue(
                r.smallest().commandLine().contains("--kill 1@o38 "),
                r.smallest().commandLine());
        assertTrue(
                r.smallest().commandLine().endsWith("RandomSpmd 65 12 lines"),
                r.smallest().commandLine());
    }

    /** A failure that shows one run in three: the reruns say so, and the tries per candidate follow. */
    @Test
    void aRareFailureIsStillNarrowedDown() {
        Random coin = new Random(5);
        Minimiser m = new Minimiser(s -> hasCulprit(s) && coin.nextInt(3) == 0, 30, 40, 2000, () -> false);
        Minimiser.Result r = m.minimise(failing(39));
        assertTrue(r.failed() > 3 && r.failed() < 20, r.rate());
        assertEquals(30, r.reruns());
        assertEquals(
                new FailureSchedule(java.util.List.of(CULPRIT)), r.smallest().kills(), String.join("\n", r.log()));
    }

    @Test
    void aFailureThatDoesNotComeBackIsLeftAsItWas() {
        RunSpec s = failing(39);
        Minimiser.Result r = new Minimiser(x -> false, 10, 20, 100, () -> false).minimise(s);
        assertEquals(0, r.failed());
        assertSame(s, r.smallest());
        assertEquals(10, r.trials());
    }

    @Test
    void theBudgetAndTheStopAreKept() {
        Minimiser.Result r = new Minimiser(MinimiserTest::hasCulprit, 5, 20, 12, () -> false).minimise(failing(39));
        assertTrue(r.trials() <= 12, r.trials() + " runs");
        assertTrue(r.log().getLast().startsWith("stopped after"), String.join("\n", r.log()));
        AtomicInteger calls = new AtomicInteger();
        Minimiser.Result stopped = new Minimiser(
                        s -> {
                            calls.incrementAndGet();
                            return true;
                        },
                        5,
                        20,
                        100,
                        () -> calls.get() >= 7)
                .minimise(failing(39));
        assertEquals(7, stopped.trials());
    }
}
