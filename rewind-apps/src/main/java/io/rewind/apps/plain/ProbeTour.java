package io.rewind.apps.plain;

import java.nio.IntBuffer;
import java.nio.LongBuffer;
import mpi.Datatype;
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
 * Per iteration: a ring of long messages (the rendezvous path), answers taken at rank 0 with {@code
 * mProbe}/{@code mRecv} from {@code ANY_SOURCE}, receives from every rank completed by {@code
 * waitSome}, a receive cancelled before anything can match it, a non-commutative user-defined
 * reduction, an exchange over an intercommunicator between the even and the odd ranks, a {@code
 * testAny} loop, and {@code gather}/{@code scatter} on a split communicator. Needs at least 2 ranks
 * (of an odd number, the last even rank has no partner across). Usage: {@code ProbeTour [iterations]
 * [work] [doubles per long message]}.
 */
public final class ProbeTour {
    private ProbeTour() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        long work = args.length > 1 ? Long.parseLong(args[1]) : 1000;
        int longCount = args.length > 2 ? Integer.parseInt(args[2]) : 1 << 15;
        Op threeXPlusY = new Op(
                new UserFunction() {
                    @Override
                    public void call(Object in, Object inOut, int count, Datatype type) {
                        long[] a = (long[]) in;
                        long[] b = (long[]) inOut;
                        for (int i = 0; i < count; i++) {
                            b[i] = b[i] * 3 + a[i];
                        }
                    }
                },
                false);
        Intracomm colour = world.split(rank % 2, rank);
        Intercomm evensAndOdds = world.createIntercomm(colour, 0, 1 - rank % 2, 99);
        double[] longOut = new double[longCount];
        double[] longIn = new double[longCount];
        long check = rank;
        for (int it = 0; it < iterations; it++) {
            check += (long) Work.spin(check, work) % 101;

            for (int i = 0; i < longCount; i += 1024) {
                longOut[i] = check + i;
            }
            world.sendRecv(
                    longOut,
                    longCount,
                    MPI.DOUBLE,
                    (rank + 1) % size,
                    5,
                    longIn,
                    longCount,
                    MPI.DOUBLE,
                    (rank + size - 1) % size,
                    5);
            for (int i = 0; i < longCount; i += 4096) {
                check = check * 5 + (long) longIn[i];
            }

            if (rank == 0) {
                long answers = 0;
                for (int n = 1; n < size; n++) {
                    Message m = new Message();
                    Status st = m.mProbe(MPI.ANY_SOURCE, 100, world);
                    long[] answer = new long[st.getCount(MPI.LONG)];
                    m.mRecv(answer, answer.length, MPI.LONG);
                    answers += answer[0] * (st.getSource() + 7) + answer[1];
                }
                check += answers;
            } else {
                world.send(new long[] {check % 100000, rank}, 2, MPI.LONG, 0, 100);
            }

            LongBuffer[] fromEach = new LongBuffer[size];
            LongBuffer[] toEach = new LongBuffer[size];
            Request[] receives = new Request[size];
            Request[] sends = new Request[size];
            for (int i = 0; i < size; i++) {
                fromEach[i] = MPI.newLongBuffer(1);
                receives[i] = world.iRecv(fromEach[i], 1, MPI.LONG, i, 200);
            }
            for (int i = 0; i < size; i++) {
                toEach[i] = MPI.newLongBuffer(1);
                toEach[i].put(0, check % 1000 + i);
                sends[i] = world.iSend(toEach[i], 1, MPI.LONG, i, 200);
            }
            long sum = 0;
            for (int done = 0; done < size; ) {
                for (int index : Request.waitSome(receives)) {
                    sum += fromEach[index].get(0) * (index + 1);
                    done++;
                }
            }
            Request.waitAll(sends);
            check = check * 11 + sum;

            Request never = world.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, MPI.ANY_SOURCE, 12345);
            never.cancel();
            check += never.waitStatus().isCancelled() ? 1 : 1000;

            long[] reduced = new long[2];
            world.allReduce(new long[] {rank + it, check % 997}, reduced, 2, MPI.LONG, threeXPlusY);
            check = check * 3 + reduced[0] + reduced[1];

            long[] across = new long[1];
            int me = colour.getRank();
            // Of an odd number of ranks, the last even one has no odd partner: nothing comes across.
            boolean paired = me < evensAndOdds.getRemoteSize();
            if (paired && rank % 2 == 0) {
                evensAndOdds.send(new long[] {check % 5000}, 1, MPI.LONG, me, 300);
                evensAndOdds.recv(across, 1, MPI.LONG, me, 301);
            } else if (paired) {
                evensAndOdds.recv(across, 1, MPI.LONG, me, 300);
                evensAndOdds.send(new long[] {check % 7000}, 1, MPI.LONG, me, 301);
            }
            check += across[0];

            IntBuffer tested = MPI.newIntBuffer(1);
            IntBuffer testedOut = MPI.newIntBuffer(1);
            testedOut.put(0, (int) (check & 0xfff));
            Request[] oneReceive = {world.iRecv(tested, 1, MPI.INT, (rank + size - 1) % size, 400)};
            Request send = world.iSend(testedOut, 1, MPI.INT, (rank + 1) % size, 400);
            while (Request.testAny(oneReceive) == MPI.UNDEFINED) {
                Thread.onSpinWait();
            }
            send.waitFor();
            check += tested.get(0);

            long[] gathered = new long[colour.getSize()];
            colour.gather(new long[] {check % 333}, 1, MPI.LONG, gathered, 1, MPI.LONG, 0);
            long[] scattered = new long[1];
            colour.scatter(gathered, 1, MPI.LONG, scattered, 1, MPI.LONG, 0);
            check += scattered[0];
        }
        world.barrier();
        System.out.println("rank " + rank + " check " + check);
        MPI.Finalize();
    }
}
