package io.rewind.apps.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.apps.workloads.Stencil2D;
import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.RunReport;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The failure detector on a loaded host: eight busy processes more than the cores compete with the
 * launcher, the agents and the ranks. Load delays heartbeats; it must not make a node look lost. A
 * node that really stops answering (SIGSTOP) must still be found within its heartbeat timeout.
 */
@Tag("process")
class DetectorUnderLoadTest {
    private static final int BUSY_PROCESSES = 8;
    /** Each busy process ends by itself after this, should this JVM die before it ends them. */
    private static final int BUSY_SECONDS = 600;

    /** How long the job of {@link #loadAloneLosesNoNode} runs: phi has a history from 20 s on. */
    private static final int LOADED_JOB_SECONDS = 40;

    private static final List<Process> busy = new ArrayList<>();

    /**
     * Rounds of a small allReduce with some computing between them, for as long as rank 0's clock
     * says ({@code args[0]} seconds), however fast the host: the job's length is what matters here.
     */
    public static final class ExchangesForSeconds {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int rank = MPI.COMM_WORLD.getRank();
            long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(Long.parseLong(args[0]));
            int[] go = {1};
            double[] sum = new double[1];
            double x = rank;
            long rounds = 0;
            while (true) {
                if (rank == 0) {
                    go[0] = System.nanoTime() < end ? 1 : 0;
                }
                MPI.COMM_WORLD.bcast(go, 1, MPI.INT, 0);
                if (go[0] == 0) {
                    break;
                }
                for (int i = 0; i < 20_000; i++) {
                    x = Math.sqrt(x * x + i);
                }
                sum[0] = x;
                MPI.COMM_WORLD.allReduce(sum, 1, MPI.DOUBLE, MPI.SUM);
                rounds++;
            }
            if (rank == 0) {
                System.out.println("rounds=" + rounds);
            }
            MPI.Finalize();
        }
    }

    @BeforeAll
    static void loadTheHost() throws IOException {
        for (int i = 0; i < BUSY_PROCESSES; i++) {
            busy.add(new ProcessBuilder("timeout", Integer.toString(BUSY_SECONDS), "sh", "-c", "while :; do :; done")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start());
        }
    }

    @AfterAll
    static void unloadTheHost() throws InterruptedException {
        for (Process p : busy) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : busy) {
            p.waitFor();
        }
        busy.clear();
    }

    private static JobConfig stencil(String size, String sweeps) {
        return JobConfig.builder(Stencil2D.class.getName())
                .ranks(4)
                .args(size, sweeps)
                .timeout(Duration.ofMinutes(4))
                .quiet()
                .build();
    }

    /**
     * Tens of seconds of rank processes on two nodes, with the default detector (10 s timeout, phi 8):
     * long enough for phi to have the history it needs to suspect, and no node is lost.
     */
    @Test
    void loadAloneLosesNoNode() {
        assertTrue(busy.stream().allMatch(Process::isAlive), "the load is not running");
        JobResult r = ProcessJob.run(
                JobConfig.builder(ExchangesForSeconds.class.getName())
                        .ranks(4)
                        .args(Integer.toString(LOADED_JOB_SECONDS))
                        .timeout(Duration.ofMinutes(3))
                        .quiet()
                        .build(),
                Launch.local(2));
        assertTrue(r.ok(), r.describeFailures());
        assertEquals(List.of(), r.report().failures(), "a node was taken for lost under load alone");
        assertTrue(String.join("\n", r.output(0)).contains("rounds="), "rank 0 printed " + r.output(0));
    }

    /**
     * The case that load once turned into two lost nodes: a 2 s timeout and one node frozen. The frozen
     * node is found within its timeout (and the few hundred milliseconds a loaded launcher takes to act
     * on it); the node that answers keeps its ranks, and the run prints what the failure-free run did.
     */
    @Test
    void aFrozenNodeIsStillFoundWithinItsTimeoutAndTheOtherIsKept() {
        Duration timeout = Duration.ofSeconds(2);
        JobConfig program = stencil("32", "16");
        RecoveryCheck check = RecoveryCheck.of(program);
        Launch freezing =
                Launch.local(2).freezingNodes(FailureSchedule.parse("3@o60", 4)).withHeartbeatTimeout(timeout);
        RecoveryCheck.Verdict v = check.run(
                ProtocolRegistry.get("pessimistic"), 4, FailureSchedule.NONE, c -> ProcessJob.run(c, freezing));
        assertTrue(v.ok(), v.describe());
        TreeSet<Integer> failed = new TreeSet<>();
        double detectMs = 0;
        for (RunReport.FailureRecord f : v.result().report().failures()) {
            failed.add(f.rank());
            detectMs = Math.max(detectMs, f.detectMs());
        }
        assertEquals(java.util.Set.of(2, 3), failed, "only the frozen node's ranks fail: " + v.describe());
        assertTrue(
                detectMs <= timeout.toMillis() + 1500,
                "the frozen node was found " + detectMs + " ms after it froze; its timeout is " + timeout.toMillis()
                        + " ms");
    }
}
