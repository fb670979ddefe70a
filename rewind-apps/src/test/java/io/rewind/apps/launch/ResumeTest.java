package io.rewind.apps.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.apps.workloads.Stencil2D;
import io.rewind.checkpoint.CheckpointStore;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A job that dies whole: its launcher JVM (with every rank thread, or every agent and rank process)
 * is killed with SIGKILL once each rank has written a few recovery lines; a second run with resume
 * continues from the newest line all ranks hold, and prints the failure-free result.
 */
@Tag("process")
class ResumeTest {
    private static final int RANKS = 4;
    private static final List<String> ARGS = List.of("48", "1200");
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(120);

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (ProtocolDescriptor d : ProtocolRegistry.recovering()) {
            out.add(Arguments.of("threads", d));
            out.add(Arguments.of("local", d));
        }
        return out.stream();
    }

    static JobConfig job(ProtocolDescriptor protocol, Path dir, boolean resume) {
        return JobConfig.builder(Stencil2D.class.getName())
                .ranks(RANKS)
                .args(ARGS)
                .timeout(Duration.ofMinutes(3))
                .quiet()
                .protocol(protocol)
                .checkpointEvery(20)
                .checkpointDir(dir)
                .resume(resume)
                .build();
    }

    static JobResult run(String launch, JobConfig config) {
        return launch.equals("threads") ? Job.run(config) : ProcessJob.run(config, Launch.local(2));
    }

    @ParameterizedTest(name = "{0} under {1}")
    @MethodSource("cases")
    void aJobThatDiedWholeResumesFromItsNewestCompleteLine(
            String launch, ProtocolDescriptor protocol, @TempDir Path dir) throws Exception {
        JobResult failureFree = Job.run(job(protocol, dir.resolve("reference"), false));
        assertTrue(failureFree.ok(), failureFree.describeFailures());

        Path ckpt = dir.resolve("checkpoints");
        // The launcher's temporary folder, to look into after it was killed.
        Path launcherTmp = Files.createDirectories(dir.resolve("launcher-tmp"));
        Process first = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Djava.io.tmpdir=" + launcherTmp,
                        "--enable-native-access=ALL-UNNAMED",
                        "--sun-misc-unsafe-memory-access=allow",
                        "-cp",
                        System.getProperty("java.class.path"),
                        DiesWhole.class.getName(),
                        launch,
                        protocol.name(),
                        ckpt.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("first-run.log").toFile())
                .start();
        List<ProcessHandle> all = new ArrayList<>();
        try {
            // Killed once every rank holds two lines: a line all of them share exists.
            CheckpointStore store = new CheckpointStore(ckpt, 2);
            long deadline = System.nanoTime() + WAIT_NANOS;
            while (!everyRankHoldsTwoLines(store)) {
                assertTrue(first.isAlive(), "the first run ended before it could be killed");
                assertTrue(System.nanoTime() < deadline, "no two lines on every rank within the wait");
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
            first.toHandle().descendants().forEach(all::add);
            first.destroyForcibly(); // SIGKILL: the launcher and everything in it die at once
            first.waitFor(30, TimeUnit.SECONDS);
            // The agents and rank processes see their launcher gone and end themselves.
            for (ProcessHandle p : all) {
                p.onExit().get(60, TimeUnit.SECONDS);
            }
        } finally {
            first.destroyForcibly();
            all.forEach(ProcessHandle::destroyForcibly);
        }

        // The job's secret lived in memory only: a launcher killed whole leaves no copy of it. Nor is
        // the event journal of its job left behind: the event logger removes it once its launcher died.
        try (var files = Files.walk(launcherTmp)) {
            List<Path> left = files.filter(f -> {
                        String name = f.getFileName().toString();
                        return name.contains("secret") || name.startsWith("rewind-job-") || name.endsWith(".journal");
                    })
                    .toList();
            assertEquals(List.of(), left, "files the killed launcher left");
        }

        JobResult resumed = run(launch, job(protocol, ckpt, true));

        assertTrue(resumed.ok(), resumed.describeFailures());
        // Rank 0 prints the result at the end only: the resumed run prints it, identical.
        assertEquals(failureFree.output(0), resumed.output(0));
    }

    private static boolean everyRankHoldsTwoLines(CheckpointStore store) {
        for (int r = 0; r < RANKS; r++) {
            if (store.lines(r).size() < 2) {
                return false;
            }
        }
        return true;
    }

    /** The first run, in a JVM of its own so that it can be killed whole. */
    public static final class DiesWhole {
        public static void main(String[] args) {
            JobConfig config = job(ProtocolRegistry.get(args[1]), Path.of(args[2]), false);
            run(args[0], config);
            System.exit(0);
        }
    }
}
