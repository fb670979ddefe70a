package io.rewind.apps.ulfm;

import io.rewind.api.Checkpointer;
import io.rewind.api.Ulfm;
import java.util.Arrays;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;

/**
 * What a failure costs a program that handles it, the figures ULFM's own benchmarks report; rank 0
 * prints one line of each. After a warm-up every rank enters a barrier; the last rank dies at its first
 * checkpoint point right after it (run with {@code --kill N-1@1}), and the others, their clocks started
 * as they leave the barrier, wait in a receive from it.
 *
 * <ul>
 *   <li>{@code kill-to-error}: from the barrier the victim dies after to each survivor's error, first and last;
 *   <li>{@code first agree after the failure} (it reports the failure) and the one after it;
 *   <li>{@code shrink after the failure}, then a failure-free shrink (median of {@code reps});
 *   <li>{@code revoke}: from a revocation at rank 0 to the last member's error in a receive it waits
 *       in, against {@code bcast}: from a one-long broadcast's start at rank 0 to its last member's
 *       return, medians of {@code reps} alternating rounds.
 * </ul>
 *
 * <p>Arguments: repetitions (default 30), milliseconds of agreements and all-reduces before the
 * failure (default 3000: a failure in a job that has run a while, not in its start-up).
 */
public final class FailureBench {
    private FailureBench() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        long warmMillis = args.length > 1 ? Long.parseLong(args[1]) : 3000;
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int victim = world.getSize() - 1;
        // A job that has run a while, not one in its first second: every rank's classes loaded and its
        // communication compiled before the failure.
        long warmUntil = System.nanoTime() + warmMillis * 1_000_000L;
        int[] go = {1};
        while (go[0] == 1) {
            Ulfm.agree(world, 1);
            world.allReduce(new int[] {1}, new int[1], 1, MPI.INT, MPI.SUM);
            go[0] = System.nanoTime() < warmUntil ? 1 : 0;
            world.bcast(go, 1, MPI.INT, 0);
        }
        // The victim dies right after this barrier; each survivor's clock starts as it leaves the barrier,
        // so no message of the measurement itself falls inside the time measured.
        world.barrier();
        if (rank == victim) {
            Checkpointer.get().point(); // dies here
            return;
        }
        long killedAt = System.nanoTime();
        try {
            world.recv(new long[1], 1, MPI.LONG, victim, 2); // never sent
            throw new IllegalStateException("a receive from the dead rank completed");
        } catch (MPIException e) {
            if (e.getErrorClass() != Ulfm.ERR_PROC_FAILED) {
                throw e;
            }
        }
        long toError = System.nanoTime() - killedAt;
        long start = System.nanoTime();
        Ulfm.agree(world, 1);
        long firstAgree = System.nanoTime() - start;
        start = System.nanoTime();
        Ulfm.agree(world, 1);
        long nextAgree = System.nanoTime() - start;
        Ulfm.revoke(world);
        start = System.nanoTime();
        Intracomm alive = Ulfm.shrink(world);
        long shrinkAfter = System.nanoTime() - start;

        long[] shrink = new long[reps];
        long[] revoke = new long[reps];
        long[] bcast = new long[reps];
        for (int i = 0; i < reps; i++) {
            alive.barrier();
            start = System.nanoTime();
            Intracomm s = Ulfm.shrink(alive);
            shrink[i] = System.nanoTime() - start;
            s.free();
            boolean revokeFirst = i % 2 == 0;
            for (int half = 0; half < 2; half++) {
                if ((half == 0) == revokeFirst) {
                    revoke[i] = revokeLatency(alive);
                } else {
                    bcast[i] = bcastLatency(alive);
                }
            }
        }
        long firstError = reduced(alive, toError, MPI.MIN);
        long lastError = reduced(alive, toError, MPI.MAX);
        if (alive.getRank() == 0) {
            Locale l = Locale.ROOT;
            System.out.printf(
                    l,
                    "ranks %d: kill-to-error (first survivor) %.1f us, kill-to-error (last survivor) %.1f us%n",
                    world.getSize(),
                    us(firstError),
                    us(lastError));
            System.out.printf(
                    l,
                    "ranks %d: first agree after the failure %.1f us, the next agree %.1f us%n",
                    world.getSize(),
                    us(firstAgree),
                    us(nextAgree));
            System.out.printf(
                    l,
                    "ranks %d: shrink after the failure %.1f us, failure-free shrink %.1f us (median of %d)%n",
                    world.getSize(),
                    us(shrinkAfter),
                    us(median(shrink)),
                    reps);
            System.out.printf(
                    l,
                    "ranks %d: revoke %.1f us, bcast(1 long) %.1f us, ratio %.2f (median of %d)%n",
                    world.getSize(),
                    us(median(revoke)),
                    us(median(bcast)),
                    (double) median(revoke) / median(bcast),
                    reps);
        }
        MPI.Finalize();
    }

    /**
     * From rank 0's revocation of a fresh duplicate to the last member's error in a receive from rank 0
     * it waits in (the same at every member: the maximum over the members).
     */
    private static long revokeLatency(Intracomm comm) throws MPIException {
        Intracomm d = comm.dup();
        Request wait = comm.getRank() == 0 ? null : d.iRecv(MPI.newLongBuffer(1), 1, MPI.LONG, 0, 5);
        comm.barrier(); // every receive is posted
        long[] t0 = new long[1];
        long took = 0;
        if (comm.getRank() == 0) {
            t0[0] = System.nanoTime();
            Ulfm.revoke(d);
        } else {
            try {
                wait.waitFor();
                throw new IllegalStateException("a receive on the revoked communicator completed");
            } catch (MPIException e) {
                if (e.getErrorClass() != Ulfm.ERR_REVOKED) {
                    throw e;
                }
            }
            took = System.nanoTime();
        }
        comm.bcast(t0, 1, MPI.LONG, 0);
        d.free();
        return reduced(comm, comm.getRank() == 0 ? 0 : took - t0[0], MPI.MAX);
    }

    /** From a one-long broadcast's start at rank 0 to the last member's return. */
    private static long bcastLatency(Intracomm comm) throws MPIException {
        comm.barrier();
        long[] t0 = {System.nanoTime()};
        comm.bcast(t0, 1, MPI.LONG, 0);
        long took = comm.getRank() == 0 ? 0 : System.nanoTime() - t0[0];
        return reduced(comm, took, MPI.MAX);
    }

    /** {@code op} of every member's {@code value}. */
    private static long reduced(Intracomm comm, long value, Op op) throws MPIException {
        long[] out = new long[1];
        comm.allReduce(new long[] {value}, out, 1, MPI.LONG, op);
        return out[0];
    }

    private static long median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static double us(long nanos) {
        return nanos / 1e3;
    }
}
