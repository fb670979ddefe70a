package io.rewind.apps.workloads;

import io.rewind.api.Checkpointer;
import java.nio.LongBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Every rank exchanges a value with a few peers each step and folds what it gets in the order the
 * receives complete, found with waitAny and testSome, so the fold order depends on timing. The fold
 * feeds the next step's outgoing values through an order-independent part only (a sum), while an
 * order-dependent digest is kept as state: a restarted rank must see completions in the same order
 * as before its crash, or the digests its peers check at the end disagree.
 *
 * <p>Usage: {@code PollingExchange [steps]}. Prints {@code polling steps=.. checksum=..}.
 */
public final class PollingExchange {
    private PollingExchange() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        // Send to +1, -1, +2; receive from the matching -1, +1, -2.
        int[] to = {(rank + 1) % size, (rank + size - 1) % size, (rank + 2) % size};
        int[] from = {(rank + size - 1) % size, (rank + 1) % size, (rank + 2 * size - 2) % size};
        int k = to.length;
        long[] state = new long[3]; // step, value, order digest
        Checkpointer cp = Checkpointer.get();
        cp.register("state", state);
        if (!cp.restore()) {
            state[1] = rank + 1;
        }
        while (state[0] < steps) {
            cp.point();
            LongBuffer[] in = new LongBuffer[k];
            Request[] recvs = new Request[k];
            Request[] sends = new Request[k];
            for (int i = 0; i < k; i++) {
                in[i] = MPI.newLongBuffer(1);
                recvs[i] = MPI.COMM_WORLD.iRecv(in[i], 1, MPI.LONG, from[i], 5 + i);
            }
            for (int i = 0; i < k; i++) {
                LongBuffer b = MPI.newLongBuffer(1);
                b.put(0, state[1] * 7 + i);
                sends[i] = MPI.COMM_WORLD.iSend(b, 1, MPI.LONG, to[i], 5 + i);
            }
            long sum = 0;
            int done = 0;
            boolean useTestSome = state[0] % 2 == 1;
            while (done < k) {
                int[] got = useTestSome ? Request.testSome(recvs) : new int[] {Request.waitAny(recvs)};
                for (int i : got) {
                    sum += in[i].get(0);
                    state[2] = state[2] * 131 + i; // the completion order: timing-dependent
                    done++;
                }
            }
            Request.waitAll(sends);
            state[1] = (state[1] + sum) % 1_000_003;
            state[0]++;
        }
        long[] total = {state[1]};
        MPI.COMM_WORLD.allReduce(total, 1, MPI.LONG, MPI.SUM);
        if (rank == 0) {
            System.out.println("polling steps=" + steps + " checksum=" + total[0]);
        }
        MPI.Finalize();
    }
}
