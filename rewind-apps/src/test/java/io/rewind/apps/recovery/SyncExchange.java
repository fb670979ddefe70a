package io.rewind.apps.recovery;

import io.rewind.api.Checkpointer;
import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 0 hands a token to rank 1 with a synchronous send every step and gets it back, changed: a
 * crash of rank 1 while rank 0 waits in its synchronous send must not leave rank 0 waiting forever.
 */
public final class SyncExchange {
    private SyncExchange() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int steps = Integer.parseInt(args[0]);
        int rank = MPI.COMM_WORLD.getRank();
        long[] state = {0, 1}; // step, token
        Checkpointer cp = Checkpointer.get();
        cp.register("state", state);
        cp.restore();
        long[] buf = new long[1];
        while (state[0] < steps) {
            cp.point();
            if (rank == 0) {
                buf[0] = state[1];
                MPI.COMM_WORLD.sSend(buf, 1, MPI.LONG, 1, 3);
                MPI.COMM_WORLD.recv(buf, 1, MPI.LONG, 1, 4);
                state[1] = buf[0];
            } else if (rank == 1) {
                MPI.COMM_WORLD.recv(buf, 1, MPI.LONG, 0, 3);
                buf[0] = buf[0] * 6364136223846793005L + 1442695040888963407L;
                MPI.COMM_WORLD.send(buf, 1, MPI.LONG, 0, 4);
            }
            state[0]++;
        }
        if (rank == 0) {
            System.out.println("sync token=" + state[1]);
        }
        MPI.Finalize();
    }
}
