package io.rewind.apps.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.rank.RankEvent;
import io.rewind.runtime.watch.JobMBeans;
import io.rewind.runtime.watch.JobObserver;
import io.rewind.runtime.watch.JobWatch;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job watched from its launcher, ranks as threads: the announcements of a failure and its recovery
 * on standard error as they happen, Rewind's JFR events in the job's recording, and the job's MBeans
 * read over a JMX connection while it runs.
 */
class JobWatchTest {
    private static final int STEPS = 12;

    static JobConfig.Builder steps(int ranks) {
        return JobConfig.builder(GatedSteps.class.getName())
                .ranks(ranks)
                .args(List.of(Integer.toString(STEPS)))
                .protocol("pessimistic")
                .checkpointEvery(3)
                .timeout(Duration.ofSeconds(120))
                .quiet();
    }

    /** Runs {@code job} with standard error captured: what it printed there. */
    static String capturingErr(Supplier<JobResult> job, JobResult[] result) {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            result[0] = job.get();
        } finally {
            System.setErr(saved);
        }
        return err.toString(StandardCharsets.UTF_8);
    }

    /** The Rewind events of a job's recording. */
    static List<RecordedEvent> rewindEvents(Path file) throws Exception {
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().startsWith("io.rewind."))
                .toList();
    }

    static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream()
                .filter(e -> e.getEventType().getName().equals(name))
                .toList();
    }

    /** What every test of a killed rank 1 finds in the announcements and the recording. */
    static void assertFailureWatched(String err, List<RecordedEvent> events, int ranks) {
        assertTrue(
                err.matches("(?s).*rewind: rank 1 failed at \\d+\\.\\d s \\(killed: --kill 1@7\\); restarting it "
                        + "from line \\d+ \\(1 of " + ranks + " ranks roll back\\)\n.*"),
                err);
        assertTrue(
                err.matches("(?s).*rewind: rank 1 recovered at \\d+\\.\\d s: line \\d+ restored, (\\d+ messages? "
                        + "replayed by " + (ranks - 1) + " peers?|nothing replayed), caught up in \\d+ ms\n.*"),
                err);
        assertTrue(err.indexOf("rank 1 failed") < err.indexOf("rank 1 recovered"), err);
        List<RecordedEvent> failures = named(events, "io.rewind.Failure");
        assertEquals(1, failures.size(), failures.toString());
        assertEquals(1, failures.getFirst().getInt("rank"));
        assertEquals("killed: --kill 1@7", failures.getFirst().getString("cause"));
        assertEquals(
                List.of("detect", "respawn", "restore", "replay"),
                named(events, "io.rewind.RecoveryPhase").stream()
                        .map(e -> e.getString("phase"))
                        .toList());
        assertEquals(1, named(events, "io.rewind.Recovery").size());
        // The survivors' replay to the restarted rank: at least one batch (empty when it needs nothing).
        assertTrue(
                named(events, "io.rewind.ReplayBatch").stream()
                        .anyMatch(e -> e.getInt("peer") == 1 && e.getInt("rank") != 1),
                "a replay batch to rank 1 in " + named(events, "io.rewind.ReplayBatch"));
        for (int r = 0; r < ranks; r++) {
            int rank = r;
            assertTrue(
                    named(events, "io.rewind.Checkpoint").stream().anyMatch(e -> e.getInt("rank") == rank),
                    "a checkpoint event of rank " + r + " in " + named(events, "io.rewind.Checkpoint") + "\n" + err);
        }
    }

    @Test
    void aFailureIsAnnouncedAsItHappensAndRecordedWithJfr(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("job.jfr");
        JobWatch watch = new JobWatch("steps", 3, null, jfr);
        JobConfig config = steps(3).failures(FailureSchedule.parse("1@7", 3)).build();
        JobResult[] result = new JobResult[1];
        String err = capturingErr(() -> Job.run(config, watch), result);
        assertTrue(result[0].ok(), result[0].describeFailures());
        assertFailureWatched(err, rewindEvents(jfr), 3);
        assertEquals(1, watch.figures().failures());
        assertEquals(1, watch.figures().recoveries());
        assertEquals("SUCCEEDED", watch.figures().state());
    }

    /**
     * Waits (at most a minute) for {@code latch}; fails at once, with what the job said, if the job ends
     * first: a job that failed before the gate is reported as it failed, not as a wait that timed out.
     */
    private static void awaitWhileTheJobRuns(CountDownLatch latch, CompletableFuture<JobResult> job, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!latch.await(50, TimeUnit.MILLISECONDS)) {
            if (job.isDone()) {
                String how = job.handle((r, e) -> e != null ? e.toString() : r.describeFailures())
                        .join();
                throw new AssertionError(what + ": the job ended first: " + how);
            }
            if (System.nanoTime() >= deadline) {
                throw new AssertionError(
                        what + " within a minute, the job still running; its threads:\n" + rewindThreads());
            }
        }
    }

    /** Where the threads of the runtime are, a few frames each: what a wait that timed out waited for. */
    private static String rewindThreads() {
        StringBuilder b = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, stack) -> {
            if (t.getName().startsWith("rewind")
                    || t.getName().startsWith("rank-")
                    || t.getName().startsWith("job-watch")) {
                b.append(t.getName()).append(' ').append(t.getState()).append('\n');
                for (int i = 0; i < Math.min(8, stack.length); i++) {
                    b.append("    at ").append(stack[i]).append('\n');
                }
            }
        });
        return b.toString();
    }

    @Test
    void theJobsMBeansShowItWhileItRunsOverJmx() throws Exception {
        CountDownLatch reached = new CountDownLatch(2);
        CountDownLatch gate = new CountDownLatch(1);
        System.getProperties().put(GatedSteps.REACHED, reached);
        System.getProperties().put(GatedSteps.GATE, gate);
        // An RMI connector without a registry: its address carries the server's stub, on loopback.
        JMXConnectorServer server = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi://127.0.0.1"), null, ManagementFactory.getPlatformMBeanServer());
        server.start();
        JobWatch watch = new JobWatch("gated", 2, null, null);
        // Every rank writes 4 lines (points 0, 3, 6, 9) before the gate: counted down as the watch
        // has taken each, so the test reads the MBeans once their figures are in.
        CountDownLatch lines = new CountDownLatch(8);
        JobObserver counting = new JobObserver() {
            @Override
            public void emit(RankEvent event) {
                watch.emit(event);
                if (event instanceof RankEvent.Checkpointed) {
                    lines.countDown();
                }
            }

            @Override
            public void started(int ranks, long startNanos) {
                watch.started(ranks, startNanos);
            }

            @Override
            public void ended(boolean ok) {
                watch.ended(ok);
            }
        };
        // On a thread of its own, not the common pool (one thread on two cores, and anything else in
        // this JVM that uses it would keep the job from starting).
        CompletableFuture<JobResult> job = new CompletableFuture<>();
        Thread.ofPlatform().name("job-watch-test-job").daemon(true).start(() -> {
            try {
                job.complete(Job.run(steps(2).build(), counting));
            } catch (Throwable t) {
                job.completeExceptionally(t);
            }
        });
        try (JMXConnector client = JMXConnectorFactory.connect(server.getAddress())) {
            awaitWhileTheJobRuns(reached, job, "both ranks reach the gate");
            awaitWhileTheJobRuns(lines, job, "the watch took every line");
            MBeanServerConnection jmx = client.getMBeanServerConnection();
            ObjectName jobName = JobMBeans.jobName(watch.registeredAs());
            assertEquals(2, jmx.getAttribute(jobName, "Ranks"));
            assertEquals("RUNNING", jmx.getAttribute(jobName, "State"));
            assertEquals(0L, jmx.getAttribute(jobName, "Failures"));
            assertTrue((double) jmx.getAttribute(jobName, "ElapsedSeconds") > 0);
            assertEquals(8L, jmx.getAttribute(jobName, "Checkpoints"));
            for (int r = 0; r < 2; r++) {
                ObjectName rank = JobMBeans.rankName(watch.registeredAs(), r);
                assertEquals(r, jmx.getAttribute(rank, "Rank"));
                assertEquals("RUNNING", jmx.getAttribute(rank, "State"));
                assertEquals(0, jmx.getAttribute(rank, "Incarnation"));
                assertEquals(4L, jmx.getAttribute(rank, "Lines"));
            }
            gate.countDown();
            JobResult result = job.get(60, TimeUnit.SECONDS);
            assertTrue(result.ok(), result.describeFailures());
            assertTrue(
                    jmx.queryNames(
                                    new ObjectName("io.rewind:job=" + ObjectName.quote(watch.registeredAs()) + ",*"),
                                    null)
                            .isEmpty(),
                    "unregistered at the end");
            assertFalse(jmx.isRegistered(jobName), "unregistered at the end");
        } finally {
            gate.countDown();
            System.getProperties().remove(GatedSteps.REACHED);
            System.getProperties().remove(GatedSteps.GATE);
            server.stop();
        }
    }
}
