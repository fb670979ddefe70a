package io.rewind.apps.plain;

import java.nio.DoubleBuffer;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * A rank of several threads ({@code MPI.InitThread} with {@code THREAD_MULTIPLE}). Per iteration, three
 * threads of each rank communicate at once, each on a communicator of its own, so the program's result
 * does not depend on how they interleave: a thread of a pool the program keeps for the whole run
 * exchanges with both ring neighbours on one duplicate of {@code COMM_WORLD} (a {@code sendRecv} and a
 * non-blocking receive against a blocking send); a thread started afresh in the iteration runs {@code
 * allReduce}, {@code allGather} and {@code bcast} on a second duplicate; the main thread computes and
 * then reduces on {@code COMM_WORLD} itself. A crash may strike any of the three. Usage: {@code
 * ThreadTour [iterations] [work]}.
 */
public final class ThreadTour {
    private ThreadTour() {}

    public static void main(String[] args) throws MPIException, InterruptedException, ExecutionException {
        int provided = MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        long work = args.length > 1 ? Long.parseLong(args[1]) : 1000;
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        Intracomm ring = world.dup();
        Intracomm collectives = world.dup();
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "ring-" + rank));
        long check = provided;
        for (int it = 0; it < iterations; it++) {
            int iteration = it;
            Future<Long> ringResult = pool.submit(() -> ringExchange(ring, rank, left, right, iteration, work));
            FutureTask<Long> collectiveResult =
                    new FutureTask<>(() -> collectives(collectives, rank, size, iteration, work));
            new Thread(collectiveResult, "collectives-" + rank + "-" + it).start();
            double[] mine = {Work.spin(rank + 0.5 * it, work)};
            world.allReduce(mine, 1, MPI.DOUBLE, MPI.MAX);
            check = check * 31 + Double.doubleToLongBits(mine[0]) % 100003;
            check = check * 31 + ringResult.get();
            check = check * 31 + collectiveResult.get();
        }
        pool.shutdown();
        if (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
            throw new IllegalStateException("the ring thread did not end");
        }
        ring.free();
        collectives.free();
        System.out.println("rank " + rank + " check " + check);
        MPI.Finalize();
    }

    private static long ringExchange(Intracomm ring, int rank, int left, int right, int iteration, long work)
            throws MPIException {
        int[] out = new int[64];
        int[] in = new int[64];
        for (int i = 0; i < out.length; i++) {
            out[i] = rank * 1000 + iteration * 7 + i;
        }
        ring.sendRecv(out, out.length, MPI.INT, right, iteration, in, in.length, MPI.INT, left, iteration);
        long check = 0;
        for (int v : in) {
            check = check * 31 + v;
        }
        DoubleBuffer fromRight = MPI.newDoubleBuffer(1);
        Request receive = ring.iRecv(fromRight, 1, MPI.DOUBLE, right, 100 + iteration);
        ring.send(new double[] {Work.spin(rank + iteration, work / 4)}, 1, MPI.DOUBLE, left, 100 + iteration);
        receive.waitFor();
        return check * 31 + Double.doubleToLongBits(fromRight.get(0)) % 100003;
    }

    private static long collectives(Intracomm comm, int rank, int size, int iteration, long work) throws MPIException {
        double[] sum = {Work.spin(iteration - rank, work / 4)};
        comm.allReduce(sum, 1, MPI.DOUBLE, MPI.SUM);
        int[] all = new int[size];
        comm.allGather(new int[] {rank * iteration}, 1, MPI.INT, all, 1, MPI.INT);
        int[] root = {iteration * 3 + 1};
        comm.bcast(root, 1, MPI.INT, iteration % size);
        long check = Double.doubleToLongBits(sum[0]) % 100003;
        for (int v : all) {
            check = check * 17 + v;
        }
        return check * 17 + root[0];
    }
}
