package io.rewind.apps.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.ft.ProtocolRegistry;
import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.FailureSchedule.Kill;
import io.rewind.runtime.FailureSchedule.Trigger;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.RankOutcome;
import java.time.Duration;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/**
 * Rank processes whose program ends its process itself with {@code System.exit}, as {@code mpirun}
 * treats them: after {@code MPI.Finalize} that is a normal end; before it, the job ends with the
 * process's status. Neither is a crash to recover (a re-execution would exit again).
 */
class ProgramExitTest {
    /** Every rank reduces and prints; rank 0 then ends its process with status 0 after MPI.Finalize. */
    public static final class ExitsAfterFinalize {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int rank = MPI.COMM_WORLD.getRank();
            long[] sum = {0};
            for (int it = 0; it < 50; it++) {
                long[] v = {rank * 1000L + it};
                MPI.COMM_WORLD.allReduce(v, 1, MPI.LONG, MPI.SUM);
                sum[0] = sum[0] * 7 + v[0];
            }
            System.out.println("rank " + rank + " sum " + sum[0]);
            MPI.Finalize();
            if (rank == 0) {
                System.exit(0);
            }
        }
    }

    /** Rank 1 gives up with status 3 before a barrier the others wait in. */
    public static final class ExitsBeforeFinalize {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            if (MPI.COMM_WORLD.getRank() == 1) {
                System.out.println("rank 1 gives up");
                System.exit(3);
            }
            MPI.COMM_WORLD.barrier();
            MPI.Finalize();
        }
    }

    private static JobConfig job(Class<?> program) {
        return JobConfig.builder(program.getName())
                .ranks(3)
                .timeout(Duration.ofSeconds(60))
                .quiet()
                .build();
    }

    // As threads of one JVM, System.exit ends that JVM (the test's, too): these run as processes only.

    @Test
    void anExitAfterFinalizeIsANormalEndEvenAfterACrash() {
        JobConfig plain = job(ExitsAfterFinalize.class);
        JobResult reference = ProcessJob.run(plain, Launch.local(1));
        assertTrue(reference.ok(), reference.describeFailures());
        for (int r = 0; r < 3; r++) {
            assertEquals(1, reference.output(r).size(), "rank " + r + ": " + reference.output(r));
        }
        FailureSchedule crash = new FailureSchedule(
                List.of(new Kill(0, Trigger.OPERATION, reference.report().operations()[0] / 2)));
        JobResult crashed = ProcessJob.run(
                plain.withFaultTolerance(ProtocolRegistry.get("pessimistic"), 0, crash), Launch.local(1));
        assertTrue(crashed.ok(), crashed.describeFailures());
        assertEquals(1, crashed.report().failures().size(), crashed.report().summary());
        for (int r = 0; r < 3; r++) {
            assertEquals(reference.output(r), crashed.output(r), "rank " + r);
        }
    }

    @Test
    void anExitBeforeFinalizeEndsTheJobWithItsStatusInsteadOfRecovering() {
        JobConfig c = job(ExitsBeforeFinalize.class)
                .withFaultTolerance(ProtocolRegistry.get("pessimistic"), 0, FailureSchedule.NONE);
        JobResult r = ProcessJob.run(c, Launch.local(1));
        assertEquals(3, r.exitCode(), r.describeFailures());
        RankOutcome one = r.ranks().get(1);
        assertEquals(RankOutcome.Status.FAILED, one.status(), r.describeFailures());
        assertTrue(one.message().contains("exited with status 3 before MPI.Finalize"), one.message());
        assertEquals(List.of("rank 1 gives up"), r.output(1));
        assertTrue(
                r.report().failures().isEmpty(),
                "recovered instead of ending: " + r.report().summary());
    }
}
