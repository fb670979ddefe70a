package io.rewind.apps.plain;

import java.nio.DoubleBuffer;
import mpi.CartComm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.ShiftParms;
import mpi.Status;

/**
 * Per iteration: nonblocking sends and receives on a periodic Cartesian ring, {@code sendRecvReplace},
 * {@code allReduce}, {@code reduce} to a root that moves, {@code bcast}, the v-collectives ({@code
 * gatherv}, {@code scatterv}, {@code allGatherv}, {@code allToAllv}), {@code scan}, {@code
 * reduceScatter}, a reduction on a split communicator, a strided vector datatype, a gather at rank 0
 * from {@code ANY_SOURCE} (summed, so the order does not matter) and a nonblocking {@code
 * iAllReduce}. Usage: {@code CollectiveTour [iterations] [work]}.
 */
public final class CollectiveTour {
    private CollectiveTour() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        long work = args.length > 1 ? Long.parseLong(args[1]) : 1000;
        Intracomm half = world.split(rank % 2, rank);
        CartComm ring = world.createCart(new int[] {size}, new boolean[] {true}, false);
        ShiftParms shift = ring.shift(0, 1);
        Datatype everyOther = Datatype.createVector(4, 1, 2, MPI.DOUBLE);
        everyOther.commit();
        DoubleBuffer out = MPI.newDoubleBuffer(8);
        DoubleBuffer in = MPI.newDoubleBuffer(8);
        double acc = rank + 1;
        long check = 0;
        for (int it = 0; it < iterations; it++) {
            acc = Work.spin(acc, work) % 1000.0 + it;

            for (int i = 0; i < 8; i++) {
                out.put(i, acc + i * rank);
            }
            Request received = ring.iRecv(in, 8, MPI.DOUBLE, shift.getRankSource(), 7);
            Request sent = ring.iSend(out, 8, MPI.DOUBLE, shift.getRankDest(), 7);
            Request.waitAll(new Request[] {received, sent});
            acc += in.get(3) * 1e-3;

            double[] replaced = {acc, it};
            world.sendRecvReplace(replaced, 2, MPI.DOUBLE, (rank + 1) % size, 3, (rank + size - 1) % size, 3);
            acc += replaced[0] * 1e-4;

            double[] sums = new double[2];
            world.allReduce(new double[] {acc, -acc}, sums, 2, MPI.DOUBLE, MPI.SUM);
            double[] max = new double[1];
            world.reduce(new double[] {acc}, max, 1, MPI.DOUBLE, MPI.MAX, it % size);
            double[] broadcast = {rank == it % size ? max[0] : 0};
            world.bcast(broadcast, 1, MPI.DOUBLE, it % size);
            acc += sums[0] * 1e-5 + broadcast[0] * 1e-6;

            int[] counts = new int[size];
            int[] displacements = new int[size];
            for (int i = 0, d = 0; i < size; i++) {
                counts[i] = i + 1;
                displacements[i] = d;
                d += i + 1;
            }
            int total = displacements[size - 1] + counts[size - 1];
            long[] mine = new long[rank + 1];
            for (int i = 0; i <= rank; i++) {
                mine[i] = (long) (acc * 1000) + i;
            }
            long[] gathered = new long[total];
            world.gatherv(mine, rank + 1, MPI.LONG, gathered, counts, displacements, MPI.LONG, 0);
            long[] back = new long[rank + 1];
            world.scatterv(gathered, counts, displacements, MPI.LONG, back, rank + 1, MPI.LONG, 0);
            long[] everyone = new long[total];
            world.allGatherv(mine, rank + 1, MPI.LONG, everyone, counts, displacements, MPI.LONG);
            for (long v : everyone) {
                check = check * 31 + v;
            }
            for (long v : back) {
                check = check * 17 + v;
            }

            int[] sendCounts = new int[size];
            int[] sendDisplacements = new int[size];
            int[] receiveCounts = new int[size];
            int[] receiveDisplacements = new int[size];
            int sendTotal = 0;
            int receiveTotal = 0;
            for (int i = 0; i < size; i++) {
                sendCounts[i] = (rank + i) % 3 + 1;
                sendDisplacements[i] = sendTotal;
                sendTotal += sendCounts[i];
                receiveCounts[i] = (i + rank) % 3 + 1;
                receiveDisplacements[i] = receiveTotal;
                receiveTotal += receiveCounts[i];
            }
            int[] toAll = new int[sendTotal];
            int[] fromAll = new int[receiveTotal];
            for (int i = 0; i < sendTotal; i++) {
                toAll[i] = rank * 1000 + i + it;
            }
            world.allToAllv(
                    toAll,
                    sendCounts,
                    sendDisplacements,
                    MPI.INT,
                    fromAll,
                    receiveCounts,
                    receiveDisplacements,
                    MPI.INT);
            for (int v : fromAll) {
                check = check * 13 + v;
            }

            int[] prefix = new int[1];
            world.scan(new int[] {rank + it}, prefix, 1, MPI.INT, MPI.SUM);
            int[] contributions = new int[size];
            int[] ones = new int[size];
            for (int i = 0; i < size; i++) {
                contributions[i] = rank * i + it;
                ones[i] = 1;
            }
            int[] mySum = new int[1];
            world.reduceScatter(contributions, mySum, ones, MPI.INT, MPI.SUM);
            check = check * 7 + prefix[0] + mySum[0];

            double[] halfMin = new double[1];
            half.allReduce(new double[] {acc}, halfMin, 1, MPI.DOUBLE, MPI.MIN);
            acc += halfMin[0] * 1e-7;

            double[] strided = new double[8];
            double[] stridedIn = new double[8];
            for (int i = 0; i < 8; i++) {
                strided[i] = acc + i;
            }
            world.sendRecv(
                    strided,
                    1,
                    everyOther,
                    (rank + 1) % size,
                    9,
                    stridedIn,
                    1,
                    everyOther,
                    (rank + size - 1) % size,
                    9);
            acc += stridedIn[2] * 1e-8;

            if (rank == 0) {
                long sum = 0;
                for (int i = 1; i < size; i++) {
                    long[] one = new long[1];
                    Status st = world.recv(one, 1, MPI.LONG, MPI.ANY_SOURCE, 11);
                    sum += one[0] * (st.getSource() + 1);
                }
                check += sum;
            } else {
                world.send(new long[] {(long) (acc * 100)}, 1, MPI.LONG, 0, 11);
            }

            DoubleBuffer mineNow = MPI.newDoubleBuffer(1);
            DoubleBuffer total2 = MPI.newDoubleBuffer(1);
            mineNow.put(0, acc);
            world.iAllReduce(mineNow, total2, 1, MPI.DOUBLE, MPI.SUM).waitFor();
            acc += total2.get(0) * 1e-9;
        }
        world.barrier();
        System.out.printf("rank %d acc %.12e check %d%n", rank, acc, check);
        MPI.Finalize();
    }
}
