package io.rewind.apps.workloads;

import io.rewind.api.Checkpointer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Master-worker whose schedule depends on timing: every round the master sends each worker a task,
 * then takes the answers with ANY_SOURCE, and the order they came in decides who gets which task
 * next round. The total is the same whatever the order (each task's value depends on the task only,
 * summed exactly), but what each worker did is not: workers keep a digest of their tasks and the
 * master checks at the end that they match what it assigned, so a restarted master must take the
 * very decisions it took before its crash.
 *
 * <p>On one rank the master does the tasks itself, one per round (the sequential reference).
 *
 * <p>Usage: {@code MasterWorker [rounds] [taskWork]}. Prints {@code masterworker rounds=.. result=..}.
 */
public final class MasterWorker {
    private static final int TAG_TASK = 1;
    private static final int TAG_RESULT = 2;
    private static final int TAG_DIGEST = 3;

    private MasterWorker() {}

    static long taskValue(long task, int work) {
        long x = task * 0x9E3779B97F4A7C15L + 1;
        for (int i = 0; i < work; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x & 0xFFFFFFFFL;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int work = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (size == 1) {
            // No workers: the master does every task itself (the sequential reference).
            long total = 0;
            for (long t = 0; t < (long) rounds; t++) {
                total += taskValue(t, work);
            }
            System.out.println("masterworker rounds=" + rounds + " result=" + total);
            MPI.Finalize();
            return;
        }
        int workers = size - 1;
        long[] state = new long[2]; // round; total (master) or digest (worker)
        long[] order = new long[size]; // master: the worker that answered k-th last round, at index k
        long[] assigned = new long[size]; // master: per worker, digest of the tasks assigned
        Checkpointer cp = Checkpointer.get();
        cp.register("state", state);
        cp.register("order", order);
        cp.register("assigned", assigned);
        if (!cp.restore()) {
            for (int k = 0; k < workers; k++) {
                order[k] = k + 1;
            }
        }
        long[] msg = new long[2];
        while (state[0] < rounds) {
            cp.point();
            long round = state[0];
            if (rank == 0) {
                for (int k = 0; k < workers; k++) {
                    int w = (int) order[k];
                    long task = round * workers + k;
                    assigned[w] = assigned[w] * 31 + task;
                    MPI.COMM_WORLD.send(new long[] {task, 0}, 2, MPI.LONG, w, TAG_TASK);
                }
                for (int k = 0; k < workers; k++) {
                    Status st = MPI.COMM_WORLD.recv(msg, 2, MPI.LONG, MPI.ANY_SOURCE, TAG_RESULT);
                    state[1] += msg[1];
                    order[k] = st.getSource();
                }
            } else {
                MPI.COMM_WORLD.recv(msg, 2, MPI.LONG, 0, TAG_TASK);
                state[1] = state[1] * 31 + msg[0];
                msg[1] = taskValue(msg[0], work);
                MPI.COMM_WORLD.send(msg, 2, MPI.LONG, 0, TAG_RESULT);
            }
            state[0]++;
        }
        if (rank == 0) {
            long[] d = new long[1];
            for (int w = 1; w <= workers; w++) {
                MPI.COMM_WORLD.recv(d, 1, MPI.LONG, w, TAG_DIGEST);
                if (d[0] != assigned[w]) {
                    throw new IllegalStateException("worker " + w + " did other tasks than the master assigned");
                }
            }
            long expected = 0;
            for (long t = 0; t < (long) rounds * workers; t++) {
                expected += taskValue(t, work);
            }
            if (expected != state[1]) {
                throw new IllegalStateException("total " + state[1] + " != " + expected);
            }
            System.out.println("masterworker rounds=" + rounds + " result=" + state[1]);
        } else {
            MPI.COMM_WORLD.send(new long[] {state[1]}, 1, MPI.LONG, 0, TAG_DIGEST);
        }
        MPI.Finalize();
    }
}
