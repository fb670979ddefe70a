package io.rewind.apps.workloads;

import io.rewind.api.Checkpointer;
import java.nio.LongBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Sends that are cancelled, and sends whose cancel comes too late, beside a ring exchange whose
 * result is checked. Each step every rank:
 *
 * <ul>
 *   <li>posts a synchronous send to its right neighbour with a tag no receive asks for, cancels it
 *       and waits. Nothing can have matched it, so the cancel succeeds, unless the neighbour crashed
 *       meanwhile: a synchronous send whose receiver died is let go as sent (its logged copy reaches
 *       the next incarnation by replay). Which it was travels with the ring value: a send that was
 *       not cancelled is received, and after that no message of the tag may be left, so a cancelled
 *       send that reaches its receiver anyway (by replay, or sent again by a restarted sender) is
 *       caught;
 *   <li>posts a synchronous send its right neighbour does receive, learns that it did (the neighbour's
 *       answer), then cancels it: it must complete as sent, not cancelled;
 *   <li>sends a long message with a tag nobody receives and cancels it at once: whether that cancel
 *       succeeds depends on timing (a long logged message may have been detached into the receiver's
 *       queue already, and between processes only synchronous sends wait), so the outcome is not part
 *       of the result.
 * </ul>
 *
 * <p>A restarted rank re-executes its sends and cancels: the cancelled ones must be cancelled again
 * (else the neighbour waits for a message it cannot get) and must not reach their receiver by
 * replay. Usage: {@code CancelledSends [steps] [longBytes] [strict]} ({@code strict}: for a run without
 * failures, where every send nobody asks for must be cancelled). Prints {@code cancelled steps=..
 * checksum=..}.
 */
public final class CancelledSends {
    private static final int TAG_NEVER_RECEIVED = 77;
    private static final int TAG_LONG_NEVER_RECEIVED = 78;
    private static final int TAG_RECEIVED = 9;
    private static final int TAG_ANSWER = 10;
    private static final int TAG_RING = 11;
    private static final int TAG_PROBED = 12;

    private CancelledSends() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int longBytes = args.length > 1 ? Integer.parseInt(args[1]) : 64 << 10;
        // strict: nothing fails in this run, so every send nobody asks for must be cancelled
        boolean strict = args.length > 2 && args[2].equals("strict");
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        long[] state = new long[2]; // step, value
        Checkpointer cp = Checkpointer.get();
        cp.register("state", state);
        if (!cp.restore()) {
            state[1] = rank + 1;
        }
        byte[] longPayload = new byte[longBytes];
        while (state[0] < steps) {
            cp.point();
            long step = state[0];
            boolean cancelled = cancelSynchronousSendNobodyReceives(right, step);
            if (strict && !cancelled) {
                throw new IllegalStateException("rank " + rank + " step " + step + ": a send nobody asks for was not"
                        + " cancelled, and nothing failed");
            }
            cancelReceivedSynchronousSend(right, left, step);
            cancelLongSend(right, longPayload);
            // The ring value, and whether the send above to the right was cancelled.
            long[] out = {state[1] * 31 + step, cancelled ? 1 : 0};
            long[] in = new long[2];
            MPI.COMM_WORLD.sendRecv(out, 2, MPI.LONG, right, TAG_RING, in, 2, MPI.LONG, left, TAG_RING);
            if (in[1] == 0) {
                long[] notCancelled = new long[1];
                MPI.COMM_WORLD.recv(notCancelled, 1, MPI.LONG, left, TAG_NEVER_RECEIVED);
                if (notCancelled[0] != step) {
                    throw new IllegalStateException("rank " + rank + " step " + step + ": got the send of step "
                            + notCancelled[0] + " that was not cancelled");
                }
            }
            // The left neighbour's cancel is done (its ring value came after it), and it waits below before
            // its next step's send: nothing of the tag may be here.
            if (MPI.COMM_WORLD.iProbe(left, TAG_NEVER_RECEIVED) != null) {
                throw new IllegalStateException(
                        "rank " + rank + " step " + step + ": a cancelled send reached its receiver");
            }
            MPI.COMM_WORLD.sendRecv(
                    new long[] {step}, 1, MPI.LONG, left, TAG_PROBED, new long[1], 1, MPI.LONG, right, TAG_PROBED);
            state[1] = (state[1] + in[0]) % 1_000_000_007L;
            state[0]++;
        }
        long[] total = {state[1]};
        MPI.COMM_WORLD.allReduce(total, 1, MPI.LONG, MPI.SUM);
        if (rank == 0) {
            System.out.println("cancelled steps=" + steps + " checksum=" + total[0]);
        }
        MPI.Finalize();
    }

    /** No receive asks for this tag: cancelled, unless the receiver crashed first. */
    private static boolean cancelSynchronousSendNobodyReceives(int right, long step) throws MPIException {
        LongBuffer b = MPI.newLongBuffer(1).put(0, step);
        Request r = MPI.COMM_WORLD.isSend(b, 1, MPI.LONG, right, TAG_NEVER_RECEIVED);
        r.cancel();
        Status s = r.waitStatus();
        return s.isCancelled();
    }

    /** The neighbour has received the message (its answer says so) before the cancel: too late. */
    private static void cancelReceivedSynchronousSend(int right, int left, long step) throws MPIException {
        LongBuffer b = MPI.newLongBuffer(1).put(0, step);
        Request r = MPI.COMM_WORLD.isSend(b, 1, MPI.LONG, right, TAG_RECEIVED);
        long[] got = new long[1];
        MPI.COMM_WORLD.recv(got, 1, MPI.LONG, left, TAG_RECEIVED);
        MPI.COMM_WORLD.send(got, 1, MPI.LONG, left, TAG_ANSWER);
        MPI.COMM_WORLD.recv(new long[1], 1, MPI.LONG, right, TAG_ANSWER);
        r.cancel();
        Status s = r.waitStatus();
        if (s.isCancelled() || got[0] != step) {
            throw new IllegalStateException("step " + step + ": a received synchronous send was cancelled");
        }
    }

    /** Whether this cancel succeeds depends on timing; either way the send completes. */
    private static void cancelLongSend(int right, byte[] payload) throws MPIException {
        java.nio.ByteBuffer b = MPI.newByteBuffer(payload.length).put(payload).clear();
        Request r = MPI.COMM_WORLD.iSend(b, payload.length, MPI.BYTE, right, TAG_LONG_NEVER_RECEIVED);
        r.cancel();
        r.waitFor();
    }
}
