package io.rewind.apps.examples;

import mpi.MPI;
import mpi.MPIException;

/**
 * A token goes around the ring a number of times (default 10); every rank adds its rank to it. Rank 0
 * prints the final token, which must equal {@code laps * size * (size - 1) / 2}.
 */
public final class Ring {
    private Ring() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int laps = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        long[] token = new long[1];
        for (int lap = 0; lap < laps; lap++) {
            if (rank == 0) {
                token[0] += rank;
                MPI.COMM_WORLD.send(token, 1, MPI.LONG, next, 7);
                MPI.COMM_WORLD.recv(token, 1, MPI.LONG, prev, 7);
            } else {
                MPI.COMM_WORLD.recv(token, 1, MPI.LONG, prev, 7);
                token[0] += rank;
                MPI.COMM_WORLD.send(token, 1, MPI.LONG, next, 7);
            }
        }
        if (rank == 0) {
            long expected = (long) laps * size * (size - 1) / 2;
            System.out.println("token " + token[0] + " after " + laps + " laps (expected " + expected + ")");
            if (token[0] != expected) {
                throw new IllegalStateException("ring token " + token[0] + " != " + expected);
            }
        }
        MPI.Finalize();
    }
}
