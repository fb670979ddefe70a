package io.rewind.apps.workloads;

import io.rewind.api.Checkpointer;
import io.rewind.api.Patterns;
import java.nio.LongBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * The data-dependent discovery exchange of the SPBC paper's figure 4 (a pattern found in
 * BoomerAMG), in "SPBC: hierarchical protocol for channel-deterministic applications". Every
 * iteration each rank picks, from its own data, a few ranks to contact; it posts a receive for each
 * one's reply and sends each a request. No rank knows who will contact it or how many will, so it
 * polls with {@code iProbe(ANY_SOURCE)} for requests, receives each one and answers at once, and
 * checks its replies with {@code testAll}. Termination: once all its replies are in, a rank enters
 * a non-blocking barrier and keeps answering until the barrier completes; by then every request of
 * the iteration has been answered, hence received. A rank can be one iteration ahead of another,
 * so the tags alternate between even and odd iterations (the always-happens-before relation the
 * paper asks of code with anonymous receives).
 *
 * <p>Each iteration of the exchange is an iteration of a declared communication pattern ({@link
 * Patterns}): its messages carry the iteration's id, so a request of the next iteration is never
 * matched by a probe or receive of this one, however late messages arrive (as when a recovering rank
 * gets them replayed). The collectives (the barrier, the final sum) ignore patterns.
 *
 * <p>Which ranks a rank hears from, and in what order, depends on timing; the results do not: a
 * rank adds up the values it gets (replies and requests), and that sum chooses its next contacts.
 *
 * <p>Checksum: the sum of all ranks' accumulators (exact 64-bit arithmetic), equal to a sequential
 * simulation of the same exchange ({@link #contacts}, {@link #reply}).
 *
 * <p>Usage: {@code Discovery [iterations] [maxContacts] [seed] [patterns|plain]}
 * ({@code plain}: without the pattern API). Rank 0 prints
 * {@code discovery iterations=.. checksum=<hex>}.
 */
public final class Discovery {
    static final int TAG_REQUEST = 41;
    static final int TAG_REPLY = 42;

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

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int iterations = Workloads.intArg(args, 0, 40);
        int maxContacts = Workloads.intArg(args, 1, 3);
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 5;
        // "plain": the same exchange without the pattern API, as a program written for MPI alone
        boolean declared = args.length <= 3 || !args[3].equals("plain");
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        long[] state = new long[2]; // iteration, accumulator
        int exchange = declared ? Patterns.declare() : 0; // same order on every rank, so the same id
        Checkpointer cp = Checkpointer.get();
        cp.register("state", state);
        if (!cp.restore()) {
            state[1] = initial(rank);
        }
        long[] in = new long[1];
        while (state[0] < iterations) {
            cp.point();
            if (declared) {
                Patterns.beginIteration(exchange);
            }
            long it = state[0];
            long acc = state[1];
            int[] to = contacts(acc, it, rank, size, maxContacts, seed);
            long mine = request(acc, it, rank);
            // A rank that saw the barrier complete may start the next iteration while others still poll
            // in this one: its requests carry the other parity's tags so they wait for the next probe.
            int tagRequest = TAG_REQUEST + 2 * (int) (it & 1);
            int tagReply = TAG_REPLY + 2 * (int) (it & 1);
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
                    int from = st.getSource();
                    MPI.COMM_WORLD.recv(in, 1, MPI.LONG, from, tagRequest);
                    gained += in[0];
                    MPI.COMM_WORLD.send(new long[] {reply(in[0], rank)}, 1, MPI.LONG, from, tagReply);
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
            if (declared) {
                Patterns.endIteration(exchange); // every request of the iteration was received and answered
            }
            for (LongBuffer r : replies) {
                gained += r.get(0);
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
}
