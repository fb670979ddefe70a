package io.rewind.apps.plain;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Catches every {@code Throwable} around its communication, counts what it caught and carries on, as
 * defensive programs do: without failures it catches nothing. Per iteration an {@code allReduce}, a ring
 * {@code sendRecv} and a {@code bcast}, each inside its own {@code try}, the middle one in a helper that
 * also prints what it caught. A crashed rank must not go on behind such a {@code catch}: its successor
 * runs instead, and the output is the failure-free one. Usage: {@code CatchingTour [iterations] [work]}.
 */
public final class CatchingTour {
    private CatchingTour() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        long work = args.length > 1 ? Long.parseLong(args[1]) : 1000;
        long check = 0;
        int caught = 0;
        for (int it = 0; it < iterations; it++) {
            long[] sum = {(long) Work.spin(rank + it, work) % 1000 + it};
            try {
                world.allReduce(sum, 1, MPI.LONG, MPI.SUM);
            } catch (Throwable t) {
                caught++;
            }
            Long fromLeft = ring(world, rank, size, check % 1000 + it);
            if (fromLeft == null) {
                caught++;
                fromLeft = 0L;
            }
            int[] root = {it * 7 + rank};
            try {
                world.bcast(root, 1, MPI.INT, it % size);
            } catch (Error e) {
                caught++;
            }
            check = check * 31 + sum[0] + fromLeft + root[0];
        }
        System.out.println("rank " + rank + " check " + check + " caught " + caught);
        MPI.Finalize();
    }

    /** What the left neighbour sent, or null (printed) if the exchange threw. */
    private static Long ring(Intracomm world, int rank, int size, long value) {
        long[] in = new long[1];
        try {
            world.sendRecv(
                    new long[] {value},
                    1,
                    MPI.LONG,
                    (rank + 1) % size,
                    3,
                    in,
                    1,
                    MPI.LONG,
                    (rank + size - 1) % size,
                    3);
            return in[0];
        } catch (Throwable t) {
            System.out.println("rank " + rank + " caught " + t);
            return null;
        }
    }
}
