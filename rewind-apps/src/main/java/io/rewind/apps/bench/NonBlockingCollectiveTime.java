package io.rewind.apps.bench;

import java.nio.IntBuffer;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Time per call of a small all-gather three ways: blocking, non-blocking waited alone, and non-blocking
 * waited together with a non-blocking barrier started after it ({@code waitAll}). The third is what
 * programs that overlap collectives do; the second collective's thread then waits for the first while
 * the program waits for it too. A plain {@code mpi} program.
 *
 * <p>Usage: {@code NonBlockingCollectiveTime [calls] [rounds]}. Rank 0 prints one line per round:
 * {@code round R blocking_us B alone_us A together_us T} (mean microseconds per call).
 */
public final class NonBlockingCollectiveTime {
    private NonBlockingCollectiveTime() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int size = world.getSize();
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int[] mine = {world.getRank()};
        int[] all = new int[size];
        IntBuffer mineBuffer = MPI.newIntBuffer(1);
        IntBuffer allBuffer = MPI.newIntBuffer(size);
        mineBuffer.put(0, world.getRank());
        for (int round = 1; round <= rounds; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                world.allGather(mine, 1, MPI.INT, all, 1, MPI.INT);
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                world.iAllGather(mineBuffer, 1, MPI.INT, allBuffer, 1, MPI.INT).waitFor();
            }
            long t2 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                Request.waitAll(
                        new Request[] {world.iAllGather(mineBuffer, 1, MPI.INT, allBuffer, 1, MPI.INT), world.iBarrier()
                        });
            }
            long t3 = System.nanoTime();
            if (world.getRank() == 0) {
                System.out.printf(
                        Locale.ROOT,
                        "round %d blocking_us %.1f alone_us %.1f together_us %.1f%n",
                        round,
                        (t1 - t0) / 1e3 / calls,
                        (t2 - t1) / 1e3 / calls,
                        (t3 - t2) / 1e3 / calls);
            }
        }
        MPI.Finalize();
    }
}
