package io.rewind.apps.plain;

import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Per iteration: persistent sends and receives started again on a {@code dup} of the world, receives
 * from every rank completed by {@code waitAny}, an {@code iProbe} loop before a receive sized from it,
 * {@code sSend}, {@code bSend} from an attached buffer, {@code sendRecv} with {@code PROC_NULL} at the
 * ends of a line, a {@code testAll} loop, {@code allGather} and {@code allToAll} on the {@code dup}, and
 * {@code exScan} on a communicator split anew (and freed) every iteration. Usage: {@code RequestTour
 * [iterations] [work]}.
 */
public final class RequestTour {
    private RequestTour() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        long work = args.length > 1 ? Long.parseLong(args[1]) : 1000;
        Intracomm dup = world.dup();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        IntBuffer persistentIn = MPI.newIntBuffer(4);
        IntBuffer persistentOut = MPI.newIntBuffer(4);
        Prequest persistentSend = dup.sendInit(persistentOut, 4, MPI.INT, right, 21);
        Prequest persistentReceive = dup.recvInit(persistentIn, 4, MPI.INT, left, 21);
        MPI.attachBuffer(new byte[1 << 16]);
        long check = rank;
        for (int it = 0; it < iterations; it++) {
            check += (long) Work.spin(check, work) % 97;

            for (int i = 0; i < 4; i++) {
                persistentOut.put(i, (int) (check + i + it));
            }
            persistentReceive.start();
            persistentSend.start();
            Request.waitAll(new Request[] {persistentReceive, persistentSend});
            check = check * 31 + persistentIn.get(0) + persistentIn.get(3);

            IntBuffer[] fromEach = new IntBuffer[size];
            Request[] receives = new Request[size];
            int tag = 30 + it % 3;
            for (int i = 0; i < size; i++) {
                fromEach[i] = MPI.newIntBuffer(1);
                receives[i] = world.iRecv(fromEach[i], 1, MPI.INT, i, tag);
            }
            for (int i = 0; i < size; i++) {
                world.send(new int[] {rank * 100 + it}, 1, MPI.INT, i, tag);
            }
            long sum = 0;
            for (int done = 0; done < size; done++) {
                int index = Request.waitAny(receives);
                sum += (long) fromEach[index].get(0) * (index + 1);
            }
            check = check * 7 + sum;

            if (rank % 2 == 0 && rank + 1 < size) {
                world.sSend(new long[] {check}, 1, MPI.LONG, rank + 1, 40);
            } else if (rank % 2 == 1) {
                Status probed = world.iProbe(rank - 1, 40);
                while (probed == null) {
                    probed = world.iProbe(rank - 1, 40);
                }
                long[] got = new long[probed.getCount(MPI.LONG)];
                world.recv(got, got.length, MPI.LONG, rank - 1, 40);
                check ^= got[0];
            }

            world.bSend(new int[] {(int) check}, 1, MPI.INT, right, 50);
            int[] buffered = new int[1];
            world.recv(buffered, 1, MPI.INT, left, 50);
            check += buffered[0];

            int up = rank + 1 < size ? rank + 1 : MPI.PROC_NULL;
            int down = rank > 0 ? rank - 1 : MPI.PROC_NULL;
            int[] fromBelow = {0};
            world.sendRecv(new int[] {(int) (check & 0xffff)}, 1, MPI.INT, up, 60, fromBelow, 1, MPI.INT, down, 60);
            if (down != MPI.PROC_NULL) {
                check += fromBelow[0];
            }

            IntBuffer tested = MPI.newIntBuffer(1);
            IntBuffer testedOut = MPI.newIntBuffer(1);
            testedOut.put(0, rank + it);
            Request[] pair = {world.iRecv(tested, 1, MPI.INT, left, 70), world.iSend(testedOut, 1, MPI.INT, right, 70)};
            while (!Request.testAll(pair)) {
                Thread.onSpinWait();
            }
            check += tested.get(0);

            int[] all = new int[size];
            dup.allGather(new int[] {(int) (check % 1000)}, 1, MPI.INT, all, 1, MPI.INT);
            int[] toEach = new int[size];
            int[] fromAll = new int[size];
            for (int i = 0; i < size; i++) {
                toEach[i] = all[i] + i * rank;
            }
            dup.allToAll(toEach, 1, MPI.INT, fromAll, 1, MPI.INT);
            for (int v : fromAll) {
                check = check * 3 + v;
            }

            Intracomm part = world.split(it % 2 == 0 ? 0 : rank % 2, size - rank);
            int[] before = new int[1];
            part.exScan(new int[] {rank + 1}, before, 1, MPI.INT, MPI.SUM);
            if (part.getRank() > 0) {
                check += before[0];
            }
            part.free();
        }
        MPI.detachBuffer();
        persistentSend.free();
        persistentReceive.free();
        world.barrier();
        System.out.println("rank " + rank + " check " + check);
        MPI.Finalize();
    }
}
