package io.rewind.apps.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.api.Checkpointer;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.FailureSchedule.Kill;
import io.rewind.runtime.FailureSchedule.Trigger;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.RankOutcome;
import io.rewind.runtime.rank.RankEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/**
 * The events a rank reports, as the job's coordinator takes them (recorded by an observer of the
 * job): a rank's lines, a kill that fires and strikes it, its next incarnation's restore and catch-up,
 * and the ends that {@code System.exit} makes before and after {@code MPI.Finalize}.
 */
class RankEventSequenceTest {
    private static final int STEPS = 12;

    /** Two ranks reduce once a step, at a checkpoint point each step; rank 0 exits with status 0 after MPI.Finalize. */
    public static final class StepsThenExits {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int rank = MPI.COMM_WORLD.getRank();
            Checkpointer cp = Checkpointer.get();
            int[] step = {0};
            long[] sum = {0};
            cp.register("step", step);
            cp.register("sum", sum);
            cp.restore();
            while (step[0] < STEPS) {
                cp.point();
                long[] v = {rank * 100L + step[0]};
                MPI.COMM_WORLD.allReduce(v, 1, MPI.LONG, MPI.SUM);
                sum[0] = sum[0] * 31 + v[0];
                step[0]++;
            }
            System.out.println("rank " + rank + " sum " + sum[0]);
            MPI.Finalize();
            if (rank == 0) {
                System.exit(0);
            }
        }
    }

    /** Rank 1 gives up with status 3 before MPI.Finalize. */
    public static final class GivesUp {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            if (MPI.COMM_WORLD.getRank() == 1) {
                System.exit(3);
            }
            MPI.COMM_WORLD.barrier();
            MPI.Finalize();
        }
    }

    /** Runs {@code config}, recording every event but the periodic samples (progress, log held). */
    private static List<RankEvent> run(JobConfig config, List<JobResult> result) {
        List<RankEvent> events = Collections.synchronizedList(new ArrayList<>());
        result.add(Job.run(config, e -> {
            if (!(e instanceof RankEvent.Progress) && !(e instanceof RankEvent.LogHeld)) {
                events.add(e);
            }
        }));
        return List.copyOf(events);
    }

    private static List<RankEvent> of(List<RankEvent> events, int rank) {
        return events.stream().filter(e -> e.rank() == rank).toList();
    }

    /** The kinds of {@code events} with their incarnations, runs of lines folded into one ("Checkpointed.0"). */
    static List<String> shape(List<RankEvent> events) {
        List<String> out = new ArrayList<>();
        for (RankEvent e : events) {
            String s = e.getClass().getSimpleName() + "." + e.incarnation();
            if (out.isEmpty() || !out.getLast().equals(s) || !(e instanceof RankEvent.Checkpointed)) {
                out.add(s);
            }
        }
        return out;
    }

    @Test
    void aStruckRankReportsItsLinesItsStrikeAndItsNextIncarnationsRestoreAndCatchUp() {
        JobConfig plain = JobConfig.builder(StepsThenExits.class.getName())
                .ranks(2)
                .protocol("pessimistic")
                .checkpointEvery(3)
                .timeout(Duration.ofSeconds(60))
                .quiet()
                .build();
        List<JobResult> results = new ArrayList<>();
        List<RankEvent> reference = run(plain, results);
        JobResult ref = results.getFirst();
        assertTrue(ref.ok(), ref.describeFailures());
        assertEquals(List.of("Checkpointed.0", "Ended.0"), shape(of(reference, 0)), reference.toString());
        assertEquals(List.of("Checkpointed.0", "Ended.0"), shape(of(reference, 1)), reference.toString());

        // Rank 1 struck at its 8th checkpoint point: its newest line then is the one at point 6.
        JobConfig killed = plain.toBuilder()
                .failures(new FailureSchedule(List.of(new Kill(1, Trigger.ITERATION, 8))))
                .build();
        List<RankEvent> events = run(killed, results);
        JobResult r = results.getLast();
        assertTrue(r.ok(), r.describeFailures());
        assertEquals(ref.output(1), r.output(1));
        List<RankEvent> one = of(events, 1);
        assertEquals(
                List.of(
                        "Checkpointed.0",
                        "KillFired.0",
                        "Struck.0",
                        "Restored.1",
                        "CaughtUp.1",
                        "Checkpointed.1",
                        "Ended.1",
                        "Released.1"),
                shape(one),
                one.toString());
        long newestBefore = one.stream()
                .filter(e -> e instanceof RankEvent.Checkpointed && e.incarnation() == 0)
                .mapToLong(e -> ((RankEvent.Checkpointed) e).line())
                .max()
                .orElseThrow();
        RankEvent.Restored restored = (RankEvent.Restored) one.stream()
                .filter(e -> e instanceof RankEvent.Restored)
                .findFirst()
                .orElseThrow();
        assertEquals(newestBefore, restored.line(), "restarted from its newest line");
        RankEvent.Ended end = (RankEvent.Ended) one.stream()
                .filter(e -> e instanceof RankEvent.Ended)
                .findFirst()
                .orElseThrow();
        assertEquals(RankOutcome.Status.COMPLETED, end.status());
        // Rank 0 ended by System.exit(0) after MPI.Finalize: a normal end, as its main returning would be.
        assertEquals(List.of("Checkpointed.0", "Ended.0"), shape(of(events, 0)), events.toString());
    }

    @Test
    void anExitBeforeFinalizeAsksForTheAbortThenEndsTheRankAsFailed() {
        JobConfig c = JobConfig.builder(GivesUp.class.getName())
                .ranks(2)
                .protocol("pessimistic")
                .timeout(Duration.ofSeconds(60))
                .quiet()
                .build();
        List<JobResult> results = new ArrayList<>();
        List<RankEvent> events = run(c, results);
        assertEquals(3, results.getFirst().exitCode(), results.getFirst().describeFailures());
        List<RankEvent> one = of(events, 1);
        assertEquals(List.of("AbortRequested.0", "Ended.0"), shape(one), one.toString());
        RankEvent.AbortRequested abort = (RankEvent.AbortRequested) one.getFirst();
        assertEquals(3, abort.errorCode());
        assertTrue(abort.reason().contains("System.exit(3) before MPI.Finalize"), abort.reason());
        assertEquals(RankOutcome.Status.FAILED, ((RankEvent.Ended) one.getLast()).status());
    }
}
