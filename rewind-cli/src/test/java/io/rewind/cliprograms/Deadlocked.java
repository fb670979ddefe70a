package io.rewind.cliprograms;

import mpi.MPI;
import mpi.MPIException;

/**
 * Every rank receives first from its right neighbour, which receives first too: a deadlock. Outside
 * the runtime's packages (those are shared by all ranks of a JVM), so each rank has its own {@code mpi}.
 */
public final class Deadlocked {
    private Deadlocked() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int n = MPI.COMM_WORLD.getSize();
        int[] in = new int[1];
        MPI.COMM_WORLD.recv(in, 1, MPI.INT, (me + 1) % n, 0);
        MPI.COMM_WORLD.send(in, 1, MPI.INT, (me + n - 1) % n, 0);
        MPI.Finalize();
    }
}
