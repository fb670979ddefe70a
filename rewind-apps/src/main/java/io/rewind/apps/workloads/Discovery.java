package io.rewind.apps.workloads;

import io.rewind.api.Checkpointer;
import io.rewind.api.Patterns;
import java.nio.LongBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * The data-dependent discovery exchange of the SPBC paper's figure 4 (a pattern found in
 * BoomerAMG), in "SPBC: hierarchical protocol for channel-deterministic applications". Every
 * iteration each rank picks, from its own data, a few ranks to contact and sends each a request. No
 * rank knows who will contact it or how many will, so it polls with {@code iProbe(ANY_SOURCE)} for
 * requests, receives each one and answers at once. The paper leaves the end of an iteration out;
 * two ends are here ({@link Form}): by default, a rank that has all its replies sends every other
 * rank a done message (on a communicator of its own) saying whether it sent that rank a request,
 * and leaves once it has everyone's and has answered as many requests as they announce;
 * {@code barrier} ends it with a non-blocking barrier tested beside the probes, as BoomerAMG does. A
 * rank can be one iteration ahead of another, so the tags alternate between even and odd iterations
 * (the always-happens-before relation the paper asks of code with anonymous receives).
 *
 * <p>Each iteration of the exchange is an iteration of a declared communication pattern ({@link
 * Patterns}): its messages carry the iteration's id, so a request of the next iteration is never
 * matched by a probe or receive of this one, however late messages arrive (as when a recovering rank
 * gets them replayed). The collectives (the barrier, the final sum) ignore patterns. Under {@code
 * spbc} the default form recovers in the crashed rank's cluster; the {@code barrier} form's tests
 * (which request completed first) are choices pattern ids do not order, and {@code plain}'s probes
 * are outside any pattern, so both are answered with a global rollback.
 *
 * <p>Which ranks a rank hears from, and in what order, depends on timing; the results do not: a
 * rank adds up the values it gets (replies and requests), and that sum chooses its next contacts.
 *
 * <p>Checksum: the sum of all ranks' accumulators (exact 64-bit arithmetic), equal to a sequential
 * simulation of the same exchange ({@link #contacts}, {@link #reply}).
 *
 * <p>Usage: {@code Discovery [iterations] [maxContacts] [seed] [patterns|plain|barrier]}
 * ({@code plain}: the default form without the pattern API). Rank 0 prints
 * {@code discovery iterations=.. checksum=<hex>}.
 */
public final class Discovery {
    static final int TAG_REQUEST = 41;
    static final int TAG_REPLY = 42;
    /** Tags per parity of the iteration: request 41/43, reply 42/44, done 45/47. */
    static final int TAG_DONE = 45;

    private Discovery() {}

    /** The distinct ranks {@code rank} contacts in an iteration, chosen from its accumulator. */
    static int[] contacts(long acc, long iteration, int rank, int size, int maxContacts, long seed) {
        if (size == 1) {
            return new int[0];
        }
        long h = Workloads.mix(seed, acc, iteration);
        int count = 1 + (int) Long.remainderUnsigned(h, Math.min(maxContacts, size - 1));
        int[] out = new int[count];
        int found = 0;
        for (long t = 0; found < count; t++) {
            int r = (int) Long.remainderUnsigned(Workloads.mix(h, t), size);
            boolean seen = r == rank;
            for (int i = 0; i < found && !seen; i++) {
                seen = out[i] == r;
            }
            if (!seen) {
                out[found++] = r;
            }
        }
        return out;
    }

    /** The request value a rank sends in an iteration. */
    static long request(long acc, long iteration, int rank) {
        return Workloads.mix(acc, iteration, rank) >>> 8;
    }

    /** The reply of {@code rank} to a request. */
    static long reply(long request, int rank) {
        return Workloads.mix(request, rank) >>> 8;
    }

    /** The initial accumulator of a rank. */
    static long initial(int rank) {
        return rank + 1;
    }

    /** How an iteration ends, and whether it is declared as a pattern (the fourth argument). */
    enum Form {
        /** Declared pattern; replies found by probes; termination by a done message to every rank. */
        PATTERNS,
        /** The same exchange without the pattern API, as a program written for MPI alone. */
        PLAIN,
        /** Declared pattern; replies checked with testAll, termination by a non-blocking barrier. */
        BARRIER;

        static Form of(String[] args) {
            if (args.length <= 3) {
                return PATTERNS;
            }
            try {
                return valueOf(args[3].toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("discovery form: patterns, plain or barrier, not " + args[3]);
            }
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int iterations = Workloads.intArg(args, 0, 40);
        int maxContacts = Workloads.intArg(args, 1, 3);
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 5;
        Form form = Form.of(args);
        boolean declared = form != Form.PLAIN;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        long[] state = new long[2]; // iteration, accumulator
        int exchange = declared ? Patterns.declare() : 0; // same order on every rank, so the same id
        Intracomm doneComm = MPI.COMM_WORLD.dup(); // created before restore(), as communicators must be
        Checkpointer cp = Checkpointer.get();
        cp.register("state", state);
        if (!cp.restore()) {
            state[1] = initial(rank);
        }
        while (state[0] < iterations) {
            cp.point();
            if (declared) {
                Patterns.beginIteration(exchange);
            }
            long it = state[0];
            long acc = state[1];
            int[] to = contacts(acc, it, rank, size, maxContacts, seed);
            long mine = request(acc, it, rank);
            // A rank that saw the iteration end may start the next while others still poll in this one:
            // its messages carry the other parity's tags so they wait for the next probe.
            int parity = 2 * (int) (it & 1);
            long gained = form == Form.BARRIER
                    ? exchangeWithBarrier(to, mine, rank, parity)
                    : exchangeWithDoneMessages(doneComm, to, mine, rank, size, parity);
            if (declared) {
                Patterns.endIteration(exchange); // every request of the iteration was received and answered
            }
            state[1] = acc + gained;
            state[0]++;
        }
        long[] sum = {state[1]};
        MPI.COMM_WORLD.allReduce(sum, 1, MPI.LONG, MPI.SUM);
        if (rank == 0) {
            System.out.printf("discovery iterations=%d checksum=%016x%n", iterations, sum[0]);
        }
        MPI.Finalize();
    }

    /** Receives one request that a probe found and answers it at once; returns its value. */
    private static long answer(Status st, int rank, int tagRequest) throws MPIException {
        long[] in = new long[1];
        int from = st.getSource();
        MPI.COMM_WORLD.recv(in, 1, MPI.LONG, from, tagRequest);
        MPI.COMM_WORLD.send(new long[] {reply(in[0], rank)}, 1, MPI.LONG, from, TAG_REPLY + (tagRequest - TAG_REQUEST));
        return in[0];
    }

    /**
     * One iteration ended by messages: once a rank has all its replies it sends every other rank a
     * done message saying whether it sent that rank a request; a rank leaves once it has everyone's
     * done message and has answered as many requests as they announce. When an iteration ends depends
     * on message counts only, never on which channel delivers first, so a recovery that replays logged
     * messages early ends iterations as the failure-free run did. The done messages travel on a
     * communicator of their own: on the world communicator they could come before or after a reply on
     * the same channel depending on timing, and every channel must carry the same sequence in every
     * run (the program is then channel-deterministic).
     */
    private static long exchangeWithDoneMessages(
            Intracomm doneComm, int[] to, long mine, int rank, int size, int parity) throws MPIException {
        int tagRequest = TAG_REQUEST + parity;
        int tagReply = TAG_REPLY + parity;
        int tagDone = TAG_DONE + parity;
        Request[] sends = new Request[to.length];
        LongBuffer out = MPI.newLongBuffer(1).put(0, mine);
        boolean[] contacted = new boolean[size];
        for (int i = 0; i < to.length; i++) {
            sends[i] = MPI.COMM_WORLD.iSend(out, 1, MPI.LONG, to[i], tagRequest);
            contacted[to[i]] = true;
        }
        long gained = 0;
        int replies = 0;
        int dones = 0;
        long announced = 0; // requests the others' done messages say were sent to this rank
        long answered = 0;
        boolean toldDone = false;
        long[] in = new long[1];
        Request[] doneSends = new Request[size];
        LongBuffer[] doneOut = new LongBuffer[size];
        while (!toldDone || dones < size - 1 || answered < announced) {
            boolean idle = true;
            Status st = MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, tagRequest);
            if (st != null) {
                gained += answer(st, rank, tagRequest);
                answered++;
                idle = false;
            }
            st = MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, tagReply);
            if (st != null) {
                MPI.COMM_WORLD.recv(in, 1, MPI.LONG, st.getSource(), tagReply);
                gained += in[0];
                replies++;
                idle = false;
            }
            if (!toldDone && replies == to.length) {
                for (int r = 0; r < size; r++) {
                    if (r != rank) {
                        doneOut[r] = MPI.newLongBuffer(1).put(0, contacted[r] ? 1 : 0);
                        doneSends[r] = doneComm.iSend(doneOut[r], 1, MPI.LONG, r, tagDone);
                    }
                }
                toldDone = true;
            }
            st = doneComm.iProbe(MPI.ANY_SOURCE, tagDone);
            if (st != null) {
                doneComm.recv(in, 1, MPI.LONG, st.getSource(), tagDone);
                announced += in[0];
                dones++;
                idle = false;
            }
            if (idle) {
                Thread.yield();
            }
        }
        Request.waitAll(sends);
        for (Request r : doneSends) {
            if (r != null) {
                r.waitFor();
            }
        }
        return gained;
    }

    /**
     * One iteration as in the paper's figure 4 with a non-blocking barrier to end it: once all its
     * replies are in, a rank enters the barrier and keeps answering until the barrier completes; by
     * then every request of the iteration has been answered, hence received.
     */
    private static long exchangeWithBarrier(int[] to, long mine, int rank, int parity) throws MPIException {
        int tagRequest = TAG_REQUEST + parity;
        int tagReply = TAG_REPLY + parity;
        Request[] reqs = new Request[2 * to.length];
        LongBuffer[] replies = new LongBuffer[to.length];
        LongBuffer out = MPI.newLongBuffer(1).put(0, mine);
        for (int i = 0; i < to.length; i++) {
            replies[i] = MPI.newLongBuffer(1);
            reqs[2 * i] = MPI.COMM_WORLD.iRecv(replies[i], 1, MPI.LONG, to[i], tagReply);
            reqs[2 * i + 1] = MPI.COMM_WORLD.iSend(out, 1, MPI.LONG, to[i], tagRequest);
        }
        long gained = 0;
        Request barrier = null;
        while (true) {
            boolean idle = true;
            Status st = MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, tagRequest);
            if (st != null) {
                gained += answer(st, rank, tagRequest);
                idle = false;
            }
            if (barrier == null) {
                if (Request.testAll(reqs)) {
                    barrier = MPI.COMM_WORLD.iBarrier();
                }
            } else if (barrier.test()) {
                break;
            }
            if (idle) {
                Thread.yield();
            }
        }
        for (LongBuffer r : replies) {
            gained += r.get(0);
        }
        return gained;
    }
}
