package io.rewind.apps.crossing;

import io.rewind.api.Checkpointer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 0 sends rank 1 one message per iteration, right after its checkpoint point and a pause, and
 * rank 1 takes each message {@code lag} iterations later: message {@code i} in iteration {@code i +
 * lag}, the last ones after the loop. Rank 1 does not pause, so it waits at the receive of message
 * {@code i} having passed points {@code i + 1 .. i + lag} already: the message is sent before the
 * sender's line {@code i + 1} and received after the receiver's, in flight across up to {@code lag}
 * lines.
 *
 * <p>Sends are standard ({@code send}: a message over the eager limit waits until rank 1 matches it,
 * which rank 1 does without waiting for anything rank 0 has not sent yet) or buffered ({@code bsend}:
 * through an attached buffer, which rank 1 keeps from overflowing by acknowledging every message it
 * takes; rank 0 takes the acknowledgement of message {@code i - lag - 1} before it sends message
 * {@code i}, so at most {@code lag + 1} messages are in the buffer). Either way every send has
 * completed when rank 0 reaches its next point.
 *
 * <p>Usage: {@code LateReceivePair [iterations] [bytes] [lag] [pauseMillis] [send|bsend]}, two ranks.
 * Prints {@code latepair iterations=.. bytes=.. lag=.. mode=.. received=.. bad=.. checksum=..}, where
 * {@code bad} counts messages that were not the one expected and the checksum folds every word
 * received, in order.
 */
public final class LateReceivePair {
    private static final int TAG_MESSAGE = 1;
    private static final int TAG_ACK = 2;
    private static final int TAG_RESULT = 3;

    private LateReceivePair() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        int bytes = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        int lag = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        long pause = args.length > 3 ? Long.parseLong(args[3]) : 20;
        String mode = args.length > 4 ? args[4] : "send";
        boolean buffered = mode.equals("bsend");
        Comm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        if (world.getSize() != 2 || lag < 0 || bytes < 8 || !(buffered || mode.equals("send"))) {
            if (rank == 0) {
                System.err.println("LateReceivePair runs on 2 ranks, with lag >= 0, bytes >= 8 and mode send or bsend");
            }
            world.abort(2);
            return;
        }
        int words = (bytes + 7) / 8;
        if (buffered) {
            // An attached buffer is local state, not communication: attaching it again on a restart,
            // before restore(), is what the first run did too.
            MPI.attachBuffer(new byte[(lag + 1) * (words * 8 + MPI.BSEND_OVERHEAD)]);
        }
        Checkpointer cp = Checkpointer.get();
        // The loop counter; on the receiver also the checksum, the messages received and the messages
        // that were not the one expected.
        long[] state = new long[4];
        cp.register("state", state);
        cp.restore();
        if (rank == 0) {
            send(cp, state, iterations, words, lag, pause, buffered);
        } else {
            receive(cp, state, iterations, words, lag, buffered);
        }
        if (buffered) {
            MPI.detachBuffer();
        }
        MPI.Finalize();
    }

    private static void send(
            Checkpointer cp, long[] state, int iterations, int words, int lag, long pause, boolean buffered)
            throws MPIException {
        Comm world = MPI.COMM_WORLD;
        long[] message = new long[words];
        long[] ack = new long[1];
        while (state[0] < iterations) {
            cp.point();
            long i = state[0];
            Pause.millis(pause);
            if (buffered && i - lag - 1 >= 0) {
                world.recv(ack, 1, MPI.LONG, 1, TAG_ACK);
            }
            fill(message, i);
            if (buffered) {
                world.bSend(message, words, MPI.LONG, 1, TAG_MESSAGE);
            } else {
                world.send(message, words, MPI.LONG, 1, TAG_MESSAGE);
            }
            state[0]++;
        }
        if (buffered) {
            for (long j = Math.max(0, iterations - lag - 1); j < iterations; j++) {
                world.recv(ack, 1, MPI.LONG, 1, TAG_ACK);
            }
        }
        long[] result = new long[3];
        world.recv(result, 3, MPI.LONG, 1, TAG_RESULT);
        System.out.println("latepair iterations=" + iterations + " bytes=" + words * 8 + " lag=" + lag + " mode="
                + (buffered ? "bsend" : "send") + " received=" + result[1] + " bad=" + result[2] + " checksum="
                + Long.toHexString(result[0]));
    }

    private static void receive(Checkpointer cp, long[] state, int iterations, int words, int lag, boolean buffered)
            throws MPIException {
        long[] message = new long[words];
        while (state[0] < iterations) {
            cp.point();
            long i = state[0];
            if (i - lag >= 0) {
                take(state, message, i - lag, buffered);
            }
            state[0]++;
        }
        for (long j = Math.max(0, iterations - lag); j < iterations; j++) {
            take(state, message, j, buffered);
        }
        MPI.COMM_WORLD.send(new long[] {state[1], state[2], state[3]}, 3, MPI.LONG, 0, TAG_RESULT);
    }

    /** Receives message {@code expected} into {@code message} and folds it into the checksum. */
    private static void take(long[] state, long[] message, long expected, boolean buffered) throws MPIException {
        Comm world = MPI.COMM_WORLD;
        world.recv(message, message.length, MPI.LONG, 0, TAG_MESSAGE);
        if (message[0] != expected || message[message.length - 1] != last(message.length, expected)) {
            state[3]++;
        }
        state[1] = Fold.in(Fold.in(state[1], expected), message, message.length);
        state[2]++;
        if (buffered) {
            world.send(new long[] {expected}, 1, MPI.LONG, 0, TAG_ACK);
        }
    }

    /** Message {@code i}: its number, then words made from it. */
    private static void fill(long[] message, long i) {
        message[0] = i;
        for (int k = 1; k < message.length; k++) {
            message[k] = Fold.word(i, k);
        }
    }

    private static long last(int words, long i) {
        return words == 1 ? i : Fold.word(i, words - 1);
    }
}
