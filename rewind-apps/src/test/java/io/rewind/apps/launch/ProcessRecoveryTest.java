package io.rewind.apps.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.apps.workloads.CancelledSends;
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
import io.rewind.runtime.RunReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ranks as real processes over TCP, killed with SIGKILL at operation counts, under every protocol
 * that recovers: each run must print exactly what the failure-free run printed. Two node agents
 * share the ranks, so replay crosses agents too.
 */
@Tag("process")
class ProcessRecoveryTest {
    private static final Duration LIMIT = Duration.ofSeconds(120);

    /**
     * The failure-free runs of each program of {@link #cases()}, as threads and as processes, made once
     * and shared by its protocols: they do not depend on the protocol of the runs compared with them.
     */
    private static final Map<JobConfig, FailureFree> FAILURE_FREE = new ConcurrentHashMap<>();

    /** A program's failure-free run as threads (the reference) and as rank processes (checked equal). */
    private record FailureFree(RecoveryCheck check, JobResult processes) {
        static FailureFree of(JobConfig program) {
            RecoveryCheck check = RecoveryCheck.of(program);
            JobResult processes = ProcessJob.run(program, Launch.local(2));
            assertTrue(processes.ok(), processes.describeFailures());
            for (int r = 0; r < program.ranks(); r++) {
                assertEquals(check.baseline().output(r), processes.output(r), "rank " + r + " as a process");
            }
            return new FailureFree(check, processes);
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        List<JobConfig> programs = List.of(
                // Halo rows of 1100 doubles (8800 bytes): a logged message that long is written to its
                // socket from the sender's log (SenderLoggingRank.SEND_FROM_LOG_MIN_BYTES).
                program(Stencil2D.class, 4, "1100", "16"),
                program(CollectiveMix.class, 4, "16", "8"),
                program(MasterWorker.class, 3, "12", "20"),
                program(CancelledSends.class, 3, "10")); // cancels over the wire, replayed withdrawn
        // One kill schedule per program and protocol, of the three kinds in turn (one rank; two ranks at
        // the same point; one rank twice, the second time in its replacement), so that every program
        // meets every kind across the protocols: as many kinds as two schedules per case, which took
        // twice the time, and the third kind besides.
        List<ProtocolDescriptor> protocols = ProtocolRegistry.recovering();
        for (int pi = 0; pi < programs.size(); pi++) {
            for (int di = 0; di < protocols.size(); di++) {
                out.add(Arguments.of(programs.get(pi), protocols.get(di), (pi + di) % 3));
            }
        }
        return out.stream();
    }

    static JobConfig program(Class<?> main, int ranks, String... args) {
        return JobConfig.builder(main.getName())
                .ranks(ranks)
                .args(args)
                .timeout(LIMIT)
                .quiet()
                .build();
    }

    static Stream<ProtocolDescriptor> recovering() {
        return ProtocolRegistry.recovering().stream();
    }

    /**
     * Every protocol with each node's own folder; the shared folder, a matter of where lines are kept
     * rather than of the protocol, with the two protocols that read lines differently (all ranks from
     * one line, or only the failed ones from theirs).
     */
    static Stream<Arguments> storages() {
        List<Arguments> out = new ArrayList<>();
        for (ProtocolDescriptor d : ProtocolRegistry.recovering()) {
            out.add(Arguments.of(d, false));
        }
        out.add(Arguments.of(ProtocolRegistry.get("global"), true));
        out.add(Arguments.of(ProtocolRegistry.get("pessimistic"), true));
        return out.stream();
    }

    /**
     * Two agents, each running half the ranks with a checkpoint folder of its own; one is lost with all
     * its ranks and its folder (a power cut, not one process): they restart on the other node from the
     * copies it kept of their lines. With a folder both nodes share, from that folder.
     */
    @ParameterizedTest(name = "under {0}, shared folder {1}")
    @MethodSource("storages")
    void theRanksOfALostNodeRestartOnTheOther(ProtocolDescriptor protocol, boolean sharedFolder, @TempDir Path dir) {
        JobConfig program = program(Stencil2D.class, 4, "32", "16");
        RecoveryCheck check = RecoveryCheck.of(program);
        FailureSchedule loss = FailureSchedule.parse("3@o60", 4);
        RecoveryCheck.Verdict v = check.run(
                protocol,
                4,
                FailureSchedule.NONE,
                c -> ProcessJob.run(
                        sharedFolder ? c.toBuilder().checkpointDir(dir).build() : c,
                        Launch.local(2).losingNodes(loss)));
        assertTrue(v.ok(), v.describe());
        // Ranks 2 and 3 ran on the lost node: both failed, whatever the protocol rolled back, and came
        // back from a checkpoint (their node's own folder was gone with it).
        List<Integer> failed = new ArrayList<>();
        v.result().report().failures().forEach(f -> {
            failed.add(f.rank());
            assertTrue(
                    f.line() > 0,
                    "restarted from the beginning: " + v.result().report().failures());
        });
        assertTrue(
                failed.containsAll(List.of(2, 3)),
                "failures: " + v.result().report().failures());
        assertTrue(v.result().report().killsNotStruck().isEmpty(), v.describe());
        if (sharedFolder) {
            assertTrue(Files.isDirectory(dir.resolve("rank-00003")), "nothing in the shared folder " + dir);
        }
    }

    /**
     * A cancel between processes asks the receiver over the wire: over TCP and over shared memory,
     * without and with a logging protocol, every synchronous send nobody asks for is cancelled and none
     * reaches its receiver (the workload checks both; before, such a cancel did nothing and the wait
     * after it never ended).
     */
    @ParameterizedTest(name = "shared memory {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void sendsAreCancelledBetweenProcesses(boolean sharedMemory) {
        JobConfig strict = program(CancelledSends.class, 3, "6", "65536", "strict");
        for (String protocol : List.of("none", "pessimistic")) {
            JobConfig c = strict.toBuilder()
                    .protocol(ProtocolRegistry.get(protocol))
                    .checkpointEvery(0)
                    .failures(FailureSchedule.NONE)
                    .build();
            JobResult r = ProcessJob.run(c, Launch.local(2).withSharedMemory(sharedMemory));
            assertTrue(r.ok(), protocol + ": " + r.describeFailures());
            assertTrue(String.join("\n", r.output(0)).contains("cancelled steps=6"), protocol + ": " + r.output(0));
        }
    }

    /**
     * spbc with one cluster per node: three nodes of two ranks, so the clusters ({0,1}, {2,3}, {4,5})
     * differ from spbc's default two blocks ({0,1,2}, {3,4,5}). The lost node's ranks alone roll back,
     * and replay comes from the other nodes' logs of what crossed between nodes.
     */
    @Test
    void spbcWithAClusterPerNodeRollsBackOnlyTheLostNodesCluster() {
        JobConfig program = program(Stencil2D.class, 6, "36", "16");
        RecoveryCheck check = RecoveryCheck.of(program);
        FailureSchedule loss = FailureSchedule.parse("5@o60", 6);
        RecoveryCheck.Verdict v = check.run(
                ProtocolRegistry.get("spbc"),
                6,
                FailureSchedule.NONE,
                c -> ProcessJob.run(
                        c.toBuilder()
                                .protocolOptions(
                                        c.faultTolerance().protocolOptions().with("--clusters", "node"))
                                .build(),
                        Launch.local(3).losingNodes(loss)));
        assertTrue(v.ok(), v.describe());
        assertTrue(!v.result().report().failures().isEmpty(), v.describe());
        for (RunReport.FailureRecord f : v.result().report().failures()) {
            assertEquals(java.util.Set.of(4, 5), f.rolledBack(), "the lost node's cluster alone: " + v.describe());
        }
    }

    /**
     * A node that stops answering (its agent and ranks stopped with SIGSTOP, connections open) is found
     * by the heartbeats alone, taken for lost, and its ranks restart on the other node.
     */
    @ParameterizedTest(name = "under {0}")
    @MethodSource("recovering")
    void aSilentNodeIsFoundByItsHeartbeatsAndItsRanksRestartOnTheOther(ProtocolDescriptor protocol) {
        JobConfig program = program(Stencil2D.class, 4, "32", "16");
        RecoveryCheck check = RecoveryCheck.of(program);
        Launch freezing = Launch.local(2)
                .freezingNodes(FailureSchedule.parse("3@o60", 4))
                .withHeartbeatTimeout(Duration.ofSeconds(2));
        RecoveryCheck.Verdict v = check.run(protocol, 4, FailureSchedule.NONE, c -> ProcessJob.run(c, freezing));
        assertTrue(v.ok(), v.describe());
        List<Integer> failed = new ArrayList<>();
        v.result().report().failures().forEach(f -> failed.add(f.rank()));
        assertTrue(
                failed.containsAll(List.of(2, 3)),
                "failures: " + v.result().report().failures());
    }

    /**
     * The event logger process is killed with SIGKILL once its journal holds outcomes, while the job
     * runs; another takes over its journal, the ranks send it what waited for an answer, and a worker
     * killed later is driven down the same path by what both of them hold.
     */
    @org.junit.jupiter.api.Test
    void anotherEventLoggerTakesOverTheJournalOfOneThatDied() throws Exception {
        JobConfig program = program(MasterWorker.class, 3, "12", "20");
        RecoveryCheck check = RecoveryCheck.of(program);
        JobResult failureFree = ProcessJob.run(program, Launch.local(2));
        assertTrue(failureFree.ok(), failureFree.describeFailures());
        long late = Math.max(1, failureFree.report().operations()[1] * 8 / 10);
        FailureSchedule kill = FailureSchedule.parse("1@o" + late, 3);
        java.util.concurrent.atomic.AtomicLong killedPid = new java.util.concurrent.atomic.AtomicLong();
        Thread killer = Thread.ofPlatform()
                .name("test-event-logger-killer")
                .start(() -> killedPid.set(killEventLoggerOnceItHolds(200)));
        RecoveryCheck.Verdict v =
                check.run(ProtocolRegistry.get("pessimistic"), 4, kill, c -> ProcessJob.run(c, Launch.local(2)));
        killer.join();
        assertTrue(killedPid.get() > 0, "the event logger was not found and killed");
        assertTrue(v.ok(), v.describe());
        assertTrue(v.struck() > 0, "the worker's kill did not strike: " + v.describe());
    }

    /** Finds this JVM's event logger process, waits until its journal holds {@code bytes}, SIGKILLs it. */
    private static long killEventLoggerOnceItHolds(long bytes) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            for (ProcessHandle p : ProcessHandle.current().descendants().toList()) {
                String[] args = p.info().arguments().orElse(new String[0]);
                List<String> words = List.of(args);
                int at = words.indexOf("--journal");
                if (words.contains("io.rewind.launch.EventLoggerProcess") && at >= 0) {
                    Path journal = Path.of(words.get(at + 1));
                    try {
                        if (Files.exists(journal) && Files.size(journal) >= bytes) {
                            p.destroyForcibly();
                            return p.pid();
                        }
                    } catch (java.io.IOException e) {
                        // not there yet
                    }
                }
            }
            java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(10));
        }
        return 0;
    }

    @ParameterizedTest(name = "{0} under {1}, kill schedule of kind {2}")
    @MethodSource("cases")
    void killedProcessesRecoverToTheFailureFreeResult(JobConfig program, ProtocolDescriptor protocol, int kind) {
        FailureFree reference = FAILURE_FREE.computeIfAbsent(program, FailureFree::of);
        RecoveryCheck check = reference.check();
        // Kills in the first 70% of each rank's operations: the count of completion calls that find
        // nothing depends on timing, so a kill near the end may find its rank already finished.
        // A copy: the report is shared by every protocol's case, and its array is scaled below.
        long[] ops = reference.processes().report().operations().clone();
        for (int r = 0; r < ops.length; r++) {
            ops[r] = Math.max(1, ops[r] * 7 / 10);
        }
        FailureSchedule kills = check.schedules(
                        program.program().mainClass().hashCode()
                                + protocol.name().hashCode(),
                        3,
                        ops)
                .get(kind);
        RecoveryCheck.Verdict v = check.run(protocol, 4, kills, c -> ProcessJob.run(c, Launch.local(2)));
        assertTrue(v.ok(), v.describe());
        assertTrue(v.struck() > 0, "no kill struck: " + v.describe());
    }
}
