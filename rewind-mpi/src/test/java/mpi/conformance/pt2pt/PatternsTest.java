package mpi.conformance.pt2pt;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.api.Checkpointer;
import io.rewind.api.Patterns;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.nio.LongBuffer;
import java.time.Duration;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Status;
import mpi.conformance.Jobs;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Communication patterns ({@link Patterns}) seen from MPI programs: a message sent in one iteration
 * of a pattern is matched only by receives and probes of that iteration, collectives ignore patterns,
 * persistent receives take the ids active at each start, misuse is refused, and a rank restarted
 * from a checkpoint continues with the iteration ids of the original execution.
 */
@Tag("conformance")
class PatternsTest {

    @ParameterizedTest
    @RankCounts({2, 3, 4})
    void aMessageOfTheNextIterationWaitsForThatIteration(int ranks) {
        JobResult r = Jobs.run(IterationSkew.class, ranks);
        assertTrue(r.ok(), r.describeFailures());
    }

    @ParameterizedTest
    @RankCounts({1, 2})
    void misuseOfTheApiIsRefused(int ranks) {
        JobResult r = Jobs.run(Misuse.class, ranks);
        assertTrue(r.ok(), r.describeFailures());
    }

    /**
     * Ranks are killed and restarted from their checkpoints: each checks, every iteration, that its
     * iteration id is the one the loop counter (restored from the checkpoint) implies, and the
     * exchange, all inside the pattern, must still match and give the failure-free result. The
     * checkpoint point lies before the iteration begins, or inside it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"before", "inside"})
    void iterationIdsContinueAfterARestartFromACheckpoint(String where) {
        JobResult reference = Jobs.run(RestartedExchange.class, 4, "12", where);
        assertTrue(reference.ok(), reference.describeFailures());
        JobResult r = Job.run(JobConfig.builder(RestartedExchange.class.getName())
                .ranks(4)
                .args("12", where)
                .protocol("global")
                .checkpointEvery(3)
                .failures(FailureSchedule.parse("1@8,3@11", 4))
                .timeout(Duration.ofSeconds(60))
                .quiet()
                .build());
        assertTrue(r.ok(), r.describeFailures());
        assertFalse(r.report().failures().isEmpty(), "a kill struck and was recovered");
        assertEquals(reference.output(0), r.output(0));
    }

    @Test
    void theExchangeGivesTheSameSumWithAndWithoutPatterns() {
        for (String where : List.of("none", "before", "inside")) {
            JobResult r = Jobs.run(RestartedExchange.class, 3, "6", where);
            assertTrue(r.ok(), r.describeFailures());
            assertEquals(List.of("exchange sum=" + RestartedExchange.expectedSum(3, 6)), r.output(0), where);
        }
    }

    // ------------------------------------------------------------------------------------------------

    /**
     * Rank 0 is an iteration ahead of rank 1 and sends it a message of iteration 2; rank 1, still in
     * iteration 1, must neither probe nor receive it with wildcards, and gets it once it reaches
     * iteration 2. Barriers order the steps; the ranks are in different patterns during them.
     */
    public static final class IterationSkew {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int me = MPI.COMM_WORLD.getRank();
            int p = Patterns.declare();
            checkEq(1, p, "the first declared pattern");
            long[] in = new long[1];
            if (me == 0) {
                Patterns.beginIteration(p);
                Patterns.endIteration(p);
                Patterns.beginIteration(p);
                checkEq(2, Patterns.iteration(p), "rank 0 is in iteration 2");
                MPI.COMM_WORLD.send(new long[] {2}, 1, MPI.LONG, 1, 5);
                Patterns.endIteration(p);
            } else if (me == 1) {
                Patterns.beginIteration(p);
            }
            MPI.COMM_WORLD.barrier(); // the iteration-2 message is at rank 1 now
            if (me == 1) {
                check(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null, "iteration 1 sees no message");
                LongBuffer buf = MPI.newLongBuffer(1);
                // Created in iteration 1, started in iteration 2: a persistent receive carries the ids of its start.
                Prequest persistent = MPI.COMM_WORLD.recvInit(buf, 1, MPI.LONG, MPI.ANY_SOURCE, MPI.ANY_TAG);
                Patterns.endIteration(p);
                check(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null, "outside, no message either");
                Patterns.beginIteration(p);
                Status seen = MPI.COMM_WORLD.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
                checkEq(0, seen.getSource(), "probed source");
                persistent.start();
                Status st = persistent.waitStatus();
                checkEq(2, buf.get(0), "the iteration-2 message");
                checkEq(5, st.getTag(), "its tag");
                Patterns.endIteration(p);
                MPI.COMM_WORLD.barrier();
                persistent.start(); // outside the pattern now: takes the first default-pattern message
                MPI.COMM_WORLD.recv(in, 1, MPI.LONG, MPI.ANY_SOURCE, MPI.ANY_TAG);
                persistent.waitFor();
                checkEq(4, buf.get(0), "the first default-pattern message");
                checkEq(3, in[0], "then the second");
                persistent.free();
            } else {
                MPI.COMM_WORLD.barrier();
            }
            if (me == 0) {
                MPI.COMM_WORLD.send(new long[] {4}, 1, MPI.LONG, 1, 6);
                MPI.COMM_WORLD.send(new long[] {3}, 1, MPI.LONG, 1, 6);
            }
            // A collective while some ranks are inside a pattern and others are not.
            if (me % 2 == 0) {
                Patterns.beginIteration(p);
            }
            long[] sum = {me};
            MPI.COMM_WORLD.allReduce(sum, 1, MPI.LONG, MPI.SUM);
            int n = MPI.COMM_WORLD.getSize();
            checkEq((long) n * (n - 1) / 2, sum[0], "allReduce across patterns");
            if (me % 2 == 0) {
                Patterns.endIteration(p);
            }
            MPI.Finalize();
        }
    }

    /** Every misuse is refused with a clear exception and leaves the state as it was. */
    public static final class Misuse {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            expect(IllegalArgumentException.class, "undeclared", () -> Patterns.beginIteration(1));
            int p = Patterns.declare();
            int q = Patterns.declare();
            expect(IllegalArgumentException.class, "the default pattern", () -> Patterns.beginIteration(0));
            expect(IllegalStateException.class, "no pattern active", () -> Patterns.endIteration(p));
            Patterns.beginIteration(p);
            expect(IllegalStateException.class, "nesting", () -> Patterns.beginIteration(q));
            expect(IllegalStateException.class, "ending another", () -> Patterns.endIteration(q));
            checkEq(p, Patterns.active(), "still active");
            checkEq(1, Patterns.iteration(p), "still iteration 1");
            checkEq(0, Patterns.iteration(q), "q untouched");
            Patterns.endIteration(p);
            checkEq(0, Patterns.active(), "the default pattern");
            MPI.Finalize();
        }

        private static void expect(Class<? extends RuntimeException> type, String what, Runnable call) {
            try {
                call.run();
            } catch (RuntimeException e) {
                check(type.isInstance(e), what + ": " + e);
                return;
            }
            throw new AssertionError(what + ": no exception");
        }
    }

    /**
     * A ring exchange with anonymous receives, one iteration of a pattern per loop iteration, with
     * checkpoints. Arguments: iterations, and where the checkpoint point is: {@code before} the
     * iteration begins, {@code inside} it, or {@code none} (no pattern declared at all).
     */
    public static final class RestartedExchange {
        static long expectedSum(int ranks, int iterations) {
            long s = 0;
            for (int it = 0; it < iterations; it++) {
                for (int r = 0; r < ranks; r++) {
                    s += 1000L * it + r;
                }
            }
            return s;
        }

        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int iterations = Integer.parseInt(args[0]);
            String where = args[1];
            int me = MPI.COMM_WORLD.getRank();
            int n = MPI.COMM_WORLD.getSize();
            boolean patterns = !where.equals("none");
            int p = patterns ? Patterns.declare() : 0;
            long[] state = new long[2]; // iteration, sum of what this rank received
            Checkpointer cp = Checkpointer.get();
            cp.register("state", state);
            cp.restore();
            long[] in = new long[1];
            while (state[0] < iterations) {
                if (where.equals("before")) {
                    cp.point();
                }
                if (patterns) {
                    Patterns.beginIteration(p);
                    checkEq(state[0] + 1, Patterns.iteration(p), "iteration id of loop iteration " + state[0]);
                }
                if (!where.equals("before")) {
                    cp.point();
                }
                // Every rank sends to the next and the one after: two anonymous receives per iteration.
                long mine = 1000L * state[0] + me;
                MPI.COMM_WORLD.send(new long[] {mine}, 1, MPI.LONG, (me + 1) % n, 1);
                MPI.COMM_WORLD.send(new long[] {mine}, 1, MPI.LONG, (me + 2) % n, 1);
                for (int k = 0; k < 2; k++) {
                    MPI.COMM_WORLD.recv(in, 1, MPI.LONG, MPI.ANY_SOURCE, 1);
                    if (patterns) {
                        // Without patterns a neighbour an iteration ahead may be received here instead.
                        checkEq(state[0], in[0] / 1000, "a message of this iteration");
                    }
                    state[1] += in[0];
                }
                if (patterns) {
                    Patterns.endIteration(p);
                }
                state[0]++;
            }
            long[] sum = {state[1]};
            MPI.COMM_WORLD.allReduce(sum, 1, MPI.LONG, MPI.SUM);
            if (me == 0) {
                System.out.println("exchange sum=" + sum[0] / 2); // each value arrives at two ranks
            }
            MPI.Finalize();
        }
    }
}
