package io.rewind.apps.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Programs that end themselves with {@code System.exit}, treated as {@code mpirun} treats their
 * processes, as rank processes and as threads of one JVM (where the call would otherwise end the JVM):
 * after {@code MPI.Finalize} status 0 is a normal end; otherwise the job ends with the status. Neither
 * is a crash to recover (a re-execution would exit again).
 */
@Tag("process")
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

    /** Every rank reduces and prints; rank 0 then ends its process with status 3 after MPI.Finalize. */
    public static final class ExitsWithStatusAfterFinalize {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int rank = MPI.COMM_WORLD.getRank();
            long[] v = {rank + 1};
            MPI.COMM_WORLD.allReduce(v, 1, MPI.LONG, MPI.SUM);
            System.out.println("rank " + rank + " sum " + v[0]);
            MPI.Finalize();
            if (rank == 0) {
                System.exit(3);
            }
        }
    }

    /**
     * The whole program in a {@code try} whose {@code catch (Throwable t)} prints and exits with status
     * 1, and {@code System.exit(0)} after {@code MPI.Finalize} inside it: a crash must neither print
     * nor end the job, and the exit at the end must not be caught as a failure.
     */
    public static final class CatchesAndExits {
        public static void main(String[] args) {
            try {
                MPI.Init(args);
                int rank = MPI.COMM_WORLD.getRank();
                long check = 0;
                for (int it = 0; it < 60; it++) {
                    long[] v = {rank * 31L + it};
                    MPI.COMM_WORLD.allReduce(v, 1, MPI.LONG, MPI.SUM);
                    check = check * 7 + v[0];
                }
                System.out.println("rank " + rank + " check " + check);
                MPI.Finalize();
                System.exit(0);
            } catch (Throwable t) {
                t.printStackTrace();
                System.exit(1);
            }
        }
    }

    private static JobConfig job(Class<?> program) {
        return JobConfig.builder(program.getName())
                .ranks(3)
                .timeout(Duration.ofSeconds(60))
                .quiet()
                .build();
    }

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
                plain.toBuilder()
                        .protocol(ProtocolRegistry.get("pessimistic"))
                        .checkpointEvery(0)
                        .failures(crash)
                        .build(),
                Launch.local(1));
        assertTrue(crashed.ok(), crashed.describeFailures());
        assertEquals(1, crashed.report().failures().size(), crashed.report().summary());
        for (int r = 0; r < 3; r++) {
            assertEquals(reference.output(r), crashed.output(r), "rank " + r);
        }
    }

    @Test
    void anExitBeforeFinalizeEndsTheJobWithItsStatusInsteadOfRecovering() {
        JobConfig c = job(ExitsBeforeFinalize.class).toBuilder()
                .protocol(ProtocolRegistry.get("pessimistic"))
                .checkpointEvery(0)
                .failures(FailureSchedule.NONE)
                .build();
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

    /**
     * A status other than 0 given after {@code MPI.Finalize} ends the job with it, as {@code mpirun} does,
     * as rank processes and as threads (a rank process's shutdown hook cannot see the status: the job
     * used to end with 0 there).
     */
    @Test
    void anExitWithAStatusAfterFinalizeEndsTheJobWithIt() {
        JobConfig c = job(ExitsWithStatusAfterFinalize.class).toBuilder()
                .protocol(ProtocolRegistry.get("pessimistic"))
                .checkpointEvery(0)
                .failures(FailureSchedule.NONE)
                .build();
        for (JobResult r : List.of(ProcessJob.run(c, Launch.local(1)), io.rewind.runtime.Job.run(c))) {
            assertEquals(3, r.exitCode(), r.describeFailures());
            RankOutcome zero = r.ranks().get(0);
            assertEquals(RankOutcome.Status.FAILED, zero.status(), r.describeFailures());
            assertEquals("called System.exit(3)", zero.message());
            assertEquals(List.of("rank 0 sum 6"), r.output(0));
            assertTrue(
                    r.report().failures().isEmpty(),
                    "recovered instead of ending: " + r.report().summary());
        }
    }

    @Test
    void asThreadsAnExitAfterFinalizeIsANormalEndUnderEveryProtocolAndCrash() {
        for (Class<?> program : List.of(ExitsAfterFinalize.class, CatchesAndExits.class)) {
            RecoveryCheck check = RecoveryCheck.of(job(program));
            for (int r = 0; r < 3; r++) {
                assertEquals(1, check.baseline().output(r).size(), program.getSimpleName() + " rank " + r);
            }
            for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
                for (FailureSchedule kills : check.schedules(program.getName().hashCode(), 2)) {
                    RecoveryCheck.Verdict v = check.run(p, 0, kills);
                    assertTrue(v.ok(), program.getSimpleName() + ": " + v.describe());
                }
            }
        }
    }

    @Test
    void asThreadsAnExitBeforeFinalizeEndsTheJobWithItsStatus() {
        JobResult r = io.rewind.runtime.Job.run(job(ExitsBeforeFinalize.class).toBuilder()
                .protocol(ProtocolRegistry.get("pessimistic"))
                .checkpointEvery(0)
                .failures(FailureSchedule.NONE)
                .build());
        assertEquals(3, r.exitCode(), r.describeFailures());
        RankOutcome one = r.ranks().get(1);
        assertEquals(RankOutcome.Status.FAILED, one.status(), r.describeFailures());
        assertEquals("called System.exit(3) before MPI.Finalize", one.message());
        assertEquals(List.of("rank 1 gives up"), r.output(1));
        assertTrue(
                r.report().failures().isEmpty(),
                "recovered instead of ending: " + r.report().summary());
    }

    /**
     * A crash under a protocol that cannot recover ends the job, and every other rank process hears
     * which rank's crash it was (the end of the job used to be told as aborted by rank -1).
     */
    @Test
    void aCrashThatCannotBeRecoveredEndsTheJobNamingTheCrashedRank() {
        JobConfig plain = job(ExitsAfterFinalize.class);
        FailureSchedule crash = new FailureSchedule(List.of(new Kill(2, Trigger.OPERATION, 20)));
        JobResult r = ProcessJob.run(
                plain.toBuilder()
                        .protocol(ProtocolRegistry.get("none"))
                        .checkpointEvery(0)
                        .failures(crash)
                        .build(),
                Launch.local(1));
        assertEquals(1, r.exitCode(), r.describeFailures());
        assertEquals(RankOutcome.Status.FAILED, r.ranks().get(2).status(), r.describeFailures());
        for (int rank : new int[] {0, 1}) {
            RankOutcome o = r.ranks().get(rank);
            assertEquals(RankOutcome.Status.ABORTED, o.status(), r.describeFailures());
            assertTrue(o.message().contains("job aborted by rank 2 "), o.message());
        }
    }
}
