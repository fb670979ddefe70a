package io.rewind.apps.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.ft.mcml.McmlProtocol;
import io.rewind.runtime.FailureSchedule;
import org.junit.jupiter.api.Test;

/** A run's reproduction: the command line and the JUnit example say exactly what ran. */
class RunSpecTest {
    private static RunSpec run(RunSpec.Launcher launcher, int jitter) {
        return new RunSpec(
                0,
                0x1F,
                Program.randomAcrossLines(65, 39, 3, 4),
                "spbc",
                FailureSchedule.parse("1@o38,2@o38,0@o38", 3),
                KillDrawer.Kind.TOGETHER,
                launcher,
                jitter);
    }

    @Test
    void theCommandLineRunsTheSameJob() {
        assertEquals(
                "./rewind run -n 3 --protocol spbc --clusters " + RunSpec.clusters()
                        + " --checkpoint-every 4 --kill 1@o38,2@o38,0@o38 --timeout 30s --stall-timeout 10s --summary"
                        + " --no-record io.rewind.apps.random.RandomSpmd 65 39 lines",
                run(RunSpec.Launcher.THREADS, 0).commandLine());
        assertTrue(run(RunSpec.Launcher.THREADS, 200)
                .commandLine()
                .startsWith("REWIND_JVM_OPTS=-Drewind.jitter=200 ./rewind run"));
        assertTrue(run(RunSpec.Launcher.PROCESSES, 0)
                .commandLine()
                .contains(" --launch local --nodes 2 --timeout 120s --stall-timeout 30s "));
        assertEquals(
                "./rewind run -n 3 --no-record io.rewind.apps.random.RandomSpmd 65 39 lines",
                run(RunSpec.Launcher.THREADS, 0).referenceCommandLine());
    }

    @Test
    void mcmlIsGivenTheQuotaOfAJobBuiltInCode() {
        RunSpec mcml = new RunSpec(
                0,
                1,
                Program.random(3, 20, 2),
                "mcml",
                FailureSchedule.parse("1@o5", 2),
                KillDrawer.Kind.SINGLE,
                RunSpec.Launcher.THREADS,
                0);
        assertTrue(
                mcml.commandLine().contains(" --protocol mcml --log-quota " + McmlProtocol.defaultQuotaBytes() + " "),
                mcml.commandLine());
    }

    @Test
    void theJunitExampleNamesTheProtocolIntervalKillsAndLaunch() {
        String threads = run(RunSpec.Launcher.THREADS, 0).junitExample();
        assertTrue(threads.contains(".args(\"65\", \"39\", \"lines\")"), threads);
        assertTrue(
                threads.contains(
                        "run(ProtocolRegistry.get(\"spbc\"), 4, FailureSchedule.parse(\"1@o38,2@o38,0@o38\", 3));"),
                threads);
        assertTrue(
                run(RunSpec.Launcher.PROCESSES, 0).junitExample().contains("c -> ProcessJob.run(c, Launch.local(2))"));
        assertTrue(run(RunSpec.Launcher.THREADS, 150)
                .junitExample()
                .contains("DeliveryJitter.around(150, () -> Job.run(c))"));
    }

    @Test
    void rankProcessesHaveNoJitter() {
        assertThrows(IllegalArgumentException.class, () -> run(RunSpec.Launcher.PROCESSES, 100));
    }
}
