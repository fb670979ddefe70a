package io.rewind.apps.watch;

import io.rewind.api.Checkpointer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import mpi.MPI;
import mpi.MPIException;

/**
 * Test program: every rank reduces once a step at a checkpoint point each step; with ranks as threads
 * of a test, after its steps each rank counts down the latch the test put in the system properties
 * under {@link #REACHED} and waits (at most a minute) for the one under {@link #GATE}, so that the test
 * looks at the job while it runs. The latches are JDK classes, shared by the ranks' class loaders.
 */
public final class GatedSteps {
    public static final String REACHED = "rewind.test.reached";
    public static final String GATE = "rewind.test.gate";

    private GatedSteps() {}

    public static void main(String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int steps = Integer.parseInt(args[0]);
        Checkpointer cp = Checkpointer.get();
        int[] step = {0};
        long[] sum = {0};
        cp.register("step", step);
        cp.register("sum", sum);
        cp.restore();
        while (step[0] < steps) {
            cp.point();
            long[] v = {rank * 100L + step[0]};
            MPI.COMM_WORLD.allReduce(v, 1, MPI.LONG, MPI.SUM);
            sum[0] = sum[0] * 31 + v[0];
            step[0]++;
        }
        if (System.getProperties().get(REACHED) instanceof CountDownLatch reached
                && System.getProperties().get(GATE) instanceof CountDownLatch gate) {
            reached.countDown();
            if (!gate.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never opened the gate");
            }
        }
        MPI.COMM_WORLD.barrier();
        System.out.println("rank " + rank + " sum " + sum[0]);
        MPI.Finalize();
    }
}
