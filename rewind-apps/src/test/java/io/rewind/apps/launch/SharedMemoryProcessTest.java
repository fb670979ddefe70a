package io.rewind.apps.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.apps.workloads.CollectiveMix;
import io.rewind.apps.workloads.MasterWorker;
import io.rewind.apps.workloads.Stencil2D;
import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import io.rewind.transport.shm.ShmFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rank processes of one host talking through shared memory ({@code Launch.withSharedMemory}): two node
 * agents on this machine, so every rank shares the job's folder of memory files with every other. The
 * output must be bit for bit what ranks as threads print, and a rank process killed with SIGKILL in the
 * middle of the traffic must recover to that output under every protocol that recovers.
 */
@Tag("process")
class SharedMemoryProcessTest {
    private static final Launch SHM = Launch.local(2).withSharedMemory(true);

    static Stream<JobConfig> programs() {
        return Stream.of(
                ProcessRecoveryTest.program(Stencil2D.class, 4, "32", "16"),
                ProcessRecoveryTest.program(CollectiveMix.class, 4, "16", "8"),
                ProcessRecoveryTest.program(MasterWorker.class, 3, "12", "20"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("programs")
    void ranksOfOneHostPrintOverSharedMemoryWhatThreadsPrint(JobConfig program) {
        RecoveryCheck check = RecoveryCheck.of(program);
        RingWatch watch = RingWatch.start();
        JobResult result;
        try {
            result = ProcessJob.run(program, SHM);
        } finally {
            watch.stop();
        }
        assertTrue(result.ok(), result.describeFailures());
        for (int r = 0; r < program.ranks(); r++) {
            assertEquals(check.baseline().output(r), result.output(r), "rank " + r + " over shared memory");
        }
        assertTrue(watch.sawRings(), "no ring file was ever seen: the ranks did not talk through shared memory");
    }

    static Stream<ProtocolDescriptor> recovering() {
        return ProtocolRegistry.recovering().stream();
    }

    @ParameterizedTest(name = "under {0}")
    @MethodSource("recovering")
    void aRankProcessKilledMidTrafficRecoversOverSharedMemory(ProtocolDescriptor protocol) {
        JobConfig program = ProcessRecoveryTest.program(Stencil2D.class, 4, "32", "16");
        RecoveryCheck check = RecoveryCheck.of(program);
        JobResult failureFree = ProcessJob.run(program, SHM);
        assertTrue(failureFree.ok(), failureFree.describeFailures());
        long[] ops = failureFree.report().operations();
        for (int r = 0; r < ops.length; r++) {
            ops[r] = Math.max(1, ops[r] * 7 / 10);
        }
        for (FailureSchedule kills :
                check.schedules(program.program().mainClass().hashCode(), 1, ops)) {
            RecoveryCheck.Verdict v = check.run(protocol, 4, kills, c -> ProcessJob.run(c, SHM));
            assertTrue(v.ok(), v.describe());
            assertTrue(v.struck() > 0, "no kill struck: " + v.describe());
        }
    }

    @ParameterizedTest(name = "under {0}")
    @MethodSource("recovering")
    void theMasterOfAWildcardProgramKilledOverSharedMemoryRecovers(ProtocolDescriptor protocol) {
        JobConfig program = ProcessRecoveryTest.program(MasterWorker.class, 3, "12", "20");
        RecoveryCheck check = RecoveryCheck.of(program);
        RecoveryCheck.Verdict v =
                check.run(protocol, 4, FailureSchedule.parse("0@o40", 3), c -> ProcessJob.run(c, SHM));
        assertTrue(v.ok(), v.describe());
        assertTrue(v.struck() > 0, "no kill struck: " + v.describe());
    }

    /**
     * Looks, from a thread of its own, for ring files in the jobs' folders under the shared-memory root
     * while a job runs (their names are the job's secret's, which the test does not know).
     */
    private static final class RingWatch {
        private final AtomicBoolean seen = new AtomicBoolean();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final Thread thread;

        private RingWatch() {
            thread = Thread.ofPlatform().daemon().name("test-ring-watch").unstarted(this::watch);
        }

        static RingWatch start() {
            RingWatch w = new RingWatch();
            w.thread.start();
            return w;
        }

        private void watch() {
            Path root = ShmFolder.root();
            while (!stop.get() && !seen.get()) {
                try (Stream<Path> folders = Files.list(root)) {
                    for (Path f : folders.filter(p -> p.getFileName().toString().startsWith("rewind-shm-"))
                            .toList()) {
                        try (Stream<Path> files = Files.list(f)) {
                            if (files.anyMatch(p -> p.getFileName().toString().startsWith("ring-"))) {
                                seen.set(true);
                            }
                        } catch (IOException e) {
                            // removed meanwhile
                        }
                    }
                } catch (IOException e) {
                    // look again
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
        }

        void stop() {
            stop.set(true);
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        boolean sawRings() {
            return seen.get();
        }
    }
}
