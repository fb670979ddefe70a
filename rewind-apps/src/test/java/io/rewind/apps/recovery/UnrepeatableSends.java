package io.rewind.apps.recovery;

import io.rewind.api.Checkpointer;
import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 0 sends rank 1 four values a step that it reads from the clock, which no protocol records: a
 * program that is not piecewise deterministic. Re-executed after a crash, rank 0 sends rank 1 other
 * values under the sequence numbers rank 1 already holds. Rank 1 prints how many values it got and
 * their sum. With a second argument {@code repeatable} the values are counted instead (the step and
 * the message), and the program is an ordinary deterministic one.
 */
public final class UnrepeatableSends {
    private UnrepeatableSends() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int steps = Integer.parseInt(args[0]);
        boolean repeatable = args.length > 1 && args[1].equals("repeatable");
        int rank = MPI.COMM_WORLD.getRank();
        long[] state = {0, 0, 0}; // step, values received, their sum
        Checkpointer cp = Checkpointer.get();
        cp.register("state", state);
        cp.restore();
        long[] buf = new long[8];
        while (state[0] < steps) {
            cp.point();
            for (int k = 0; k < 4; k++) {
                if (rank == 0) {
                    java.util.Arrays.fill(buf, repeatable ? state[0] * 4 + k : System.nanoTime());
                    MPI.COMM_WORLD.send(buf, buf.length, MPI.LONG, 1, k);
                } else if (rank == 1) {
                    MPI.COMM_WORLD.recv(buf, buf.length, MPI.LONG, 0, k);
                    state[1]++;
                    state[2] += buf[0];
                }
            }
            MPI.COMM_WORLD.barrier();
            state[0]++;
        }
        if (rank == 1) {
            System.out.println("received " + state[1] + " sum " + (repeatable ? state[2] : 0));
        }
        MPI.Finalize();
    }
}
