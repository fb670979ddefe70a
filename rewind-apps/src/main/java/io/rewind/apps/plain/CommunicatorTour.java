package io.rewind.apps.plain;

import java.nio.IntBuffer;
import mpi.CartComm;
import mpi.Datatype;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Op;
import mpi.Request;
import mpi.Status;
import mpi.UserFunction;

/**
 * Per iteration: the nonblocking collectives ({@code iBcast} from a root that moves, {@code iGather},
 * {@code iScatter}, {@code iAllToAll} completed together with an {@code iBarrier}, {@code
 * iReduceScatterBlock}, {@code iScan}), a {@code reduce} with a user-defined operation that does not
 * commute, a matched probe ({@code Message.mProbe} and {@code mRecv}), a neighbour {@code allGather} on a
 * periodic Cartesian ring, an {@code allReduce} on a communicator made from a group ({@code
 * Intracomm.create}, the even ranks only), on an intercommunicator between the two halves of the world
 * and on the intracommunicator it merges into, sends of an indexed and a contiguous datatype, a ready
 * send ({@code rSend}) to a receive posted before a barrier, a synchronous {@code isSend} completed by
 * {@code waitSome}, and {@code pack} / {@code unpack}. Needs at least two ranks. Usage: {@code
 * CommunicatorTour [iterations] [work]}.
 */
public final class CommunicatorTour {
    private CommunicatorTour() {}

    /** {@code inOut[i] = 3 * in[i] + inOut[i]}: the order of the operands matters. */
    private static final class Affine extends UserFunction {
        @Override
        public void call(Object in, Object inOut, int count, Datatype datatype) {
            int[] a = (int[]) in;
            int[] b = (int[]) inOut;
            for (int i = 0; i < count; i++) {
                b[i] = 3 * a[i] + b[i];
            }
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        long work = args.length > 1 ? Long.parseLong(args[1]) : 1000;
        if (size < 2) {
            throw new IllegalArgumentException("CommunicatorTour needs at least two ranks");
        }
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;

        Op affine = new Op(new Affine(), false);
        int[] evens = new int[(size + 1) / 2];
        for (int i = 0; i < evens.length; i++) {
            evens[i] = 2 * i;
        }
        Group worldGroup = world.getGroup();
        Group evenGroup = worldGroup.incl(evens);
        Intracomm evenComm = world.create(evenGroup); // a null communicator on the odd ranks
        boolean lowHalf = rank < size / 2;
        Intracomm half = world.split(lowHalf ? 0 : 1, rank);
        Intercomm halves = world.createIntercomm(half, 0, lowHalf ? size / 2 : 0, 77);
        Intracomm merged = halves.merge(!lowHalf);
        CartComm ring = world.createCart(new int[] {size}, new boolean[] {true}, false);
        Datatype indexed = Datatype.createIndexed(new int[] {1, 2}, new int[] {0, 3}, MPI.INT);
        indexed.commit();
        Datatype triple = Datatype.createContiguous(3, MPI.LONG);
        triple.commit();

        long check = rank + 1;
        for (int it = 0; it < iterations; it++) {
            check += (long) Work.spin(check, work) % 89;

            IntBuffer broadcast = MPI.newIntBuffer(4);
            int root = it % size;
            if (rank == root) {
                for (int i = 0; i < 4; i++) {
                    broadcast.put(i, (int) (check + i));
                }
            }
            world.iBcast(broadcast, 4, MPI.INT, root).waitFor();
            check = check * 31 + broadcast.get(3);

            IntBuffer mine = MPI.newIntBuffer(1);
            IntBuffer gathered = MPI.newIntBuffer(size);
            IntBuffer scattered = MPI.newIntBuffer(1);
            mine.put(0, (int) (check % 10007));
            world.iGather(mine, 1, MPI.INT, gathered, 1, MPI.INT, 0).waitFor();
            world.iScatter(gathered, 1, MPI.INT, scattered, 1, MPI.INT, 0).waitFor();
            check += scattered.get(0);

            IntBuffer toEach = MPI.newIntBuffer(size);
            IntBuffer fromEach = MPI.newIntBuffer(size);
            for (int i = 0; i < size; i++) {
                toEach.put(i, (int) (check % 1000) + i);
            }
            Request.waitAll(
                    new Request[] {world.iAllToAll(toEach, 1, MPI.INT, fromEach, 1, MPI.INT), world.iBarrier()});
            for (int i = 0; i < size; i++) {
                check = check * 5 + fromEach.get(i);
            }

            int[] reduced = new int[2];
            world.reduce(new int[] {(int) (check & 0xff), rank}, reduced, 2, MPI.INT, affine, (it + 1) % size);
            check += reduced[0] + reduced[1];
            IntBuffer blocks = MPI.newIntBuffer(size);
            IntBuffer myBlock = MPI.newIntBuffer(1);
            for (int i = 0; i < size; i++) {
                blocks.put(i, rank + i + it);
            }
            world.iReduceScatterBlock(blocks, myBlock, 1, MPI.INT, MPI.SUM).waitFor();
            check += myBlock.get(0);
            IntBuffer scanIn = MPI.newIntBuffer(1);
            IntBuffer scanOut = MPI.newIntBuffer(1);
            scanIn.put(0, (int) (check % 101));
            world.iScan(scanIn, scanOut, 1, MPI.INT, MPI.SUM).waitFor();
            check += scanOut.get(0);

            world.send(new int[] {(int) (check % 9999), it}, 2, MPI.INT, right, 5);
            Message matched = new Message();
            Status probed = matched.mProbe(left, 5, world);
            int[] got = new int[probed.getCount(MPI.INT)];
            matched.mRecv(got, got.length, MPI.INT);
            check = check * 7 + got[0] + got[1];

            int[] neighbours = new int[2];
            ring.neighborAllGather(new int[] {(int) (check % 777)}, 1, MPI.INT, neighbours, 1, MPI.INT);
            check += neighbours[0] * 3L + neighbours[1];

            if (!evenComm.isNull()) {
                int[] max = new int[1];
                evenComm.allReduce(new int[] {(int) (check % 55)}, max, 1, MPI.INT, MPI.MAX);
                check += max[0];
            }
            int[] otherHalf = new int[1];
            halves.allReduce(new int[] {(int) (check % 33)}, otherHalf, 1, MPI.INT, MPI.SUM);
            check += otherHalf[0];
            int[] mergedSum = new int[1];
            merged.allReduce(new int[] {merged.getRank()}, mergedSum, 1, MPI.INT, MPI.SUM);
            check += mergedSum[0];

            if (rank == 0) {
                for (int p = 1; p < size; p++) {
                    world.send(new int[] {p + it, -1, -1, p * 2, p * 3}, 1, indexed, p, 9);
                }
            } else {
                int[] picked = new int[5];
                world.recv(picked, 1, indexed, 0, 9);
                check += picked[0] + picked[3] + picked[4];
            }
            long[] fromLeft = new long[3];
            world.sendRecv(new long[] {check, it, rank}, 1, triple, right, 11, fromLeft, 1, triple, left, 11);
            check ^= fromLeft[0] + fromLeft[1] + fromLeft[2];

            IntBuffer ready = MPI.newIntBuffer(1);
            Request posted = world.iRecv(ready, 1, MPI.INT, left, 12);
            world.barrier(); // every rank's receive is posted before any ready send
            world.rSend(new int[] {(int) (check % 1234)}, 1, MPI.INT, right, 12);
            posted.waitFor();
            check += ready.get(0);

            IntBuffer syncOut = MPI.newIntBuffer(1);
            IntBuffer syncIn = MPI.newIntBuffer(1);
            syncOut.put(0, (int) (check % 4321));
            Request[] pair = {world.iRecv(syncIn, 1, MPI.INT, left, 13), world.isSend(syncOut, 1, MPI.INT, right, 13)};
            int completed = 0;
            while (completed < pair.length) {
                int[] indices = Request.waitSome(pair);
                if (indices == null) {
                    break;
                }
                completed += indices.length;
            }
            check += syncIn.get(0);

            byte[] packed = new byte[64];
            world.pack(new int[] {(int) check, it}, 2, MPI.INT, packed, 0);
            int[] unpacked = new int[2];
            world.unpack(packed, 0, unpacked, 2, MPI.INT);
            check += unpacked[1];
        }
        world.barrier();
        System.out.println("rank " + rank + " check " + check);
        MPI.Finalize();
    }
}
