package io.rewind.testprograms;

import io.rewind.engine.BaseType;
import io.rewind.engine.Collectives;
import io.rewind.engine.Communicator;
import io.rewind.engine.Constants;
import io.rewind.engine.ErrorClass;
import io.rewind.engine.PredefinedOp;
import io.rewind.engine.RankEngine;
import io.rewind.engine.RecvRequest;
import io.rewind.engine.ReduceFunction;
import io.rewind.engine.Request;
import io.rewind.engine.RewindException;
import io.rewind.engine.SendMode;
import io.rewind.engine.SendRequest;
import io.rewind.runtime.rank.RankContext;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/** Programs that drive the engine directly, so the engine is tested without the facade. */
public final class EnginePrograms {
    private EnginePrograms() {}

    static Communicator world() {
        RankEngine e = RankContext.of(EnginePrograms.class).engine();
        return e.world();
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    static MemorySegment ints(int[] a) {
        return MemorySegment.ofArray(a);
    }

    /** Eager and rendezvous messages, both orders of post and arrival, wildcard sources, truncation. */
    public static final class PointToPoint {
        public static void main(String[] args) {
            Communicator w = world();
            int me = w.rank();
            int n = w.size();
            // Ring of eager messages: every rank sends its rank to the next, receives from the previous.
            int[] out = {me * 10};
            int[] in = new int[1];
            RecvRequest r = w.irecv(ints(in), 0, 4, (me - 1 + n) % n, 5);
            w.isend(ints(out), 0, 4, (me + 1) % n, 5, SendMode.STANDARD).await();
            r.await();
            check(in[0] == ((me - 1 + n) % n) * 10, "ring value " + in[0]);
            check(r.statusSource() == (me - 1 + n) % n && r.statusTag() == 5, "ring status");
            // Rendezvous: 1 MiB, receive posted late (after a barrier) so the frame waits borrowed.
            int big = 1 << 18;
            int[] payload = new int[big];
            for (int i = 0; i < big; i++) {
                payload[i] = i * 31 + me;
            }
            int[] got = new int[big];
            SendRequest s = w.isend(ints(payload), 0, 4L * big, (me + 1) % n, 6, SendMode.STANDARD);
            Collectives.barrier(w, w.reserveCollectiveTag());
            RecvRequest rr = w.irecv(ints(got), 0, 4L * big, (me - 1 + n) % n, 6);
            rr.await();
            s.await();
            int prev = (me - 1 + n) % n;
            for (int i = 0; i < big; i++) {
                check(got[i] == i * 31 + prev, "rendezvous payload at " + i);
            }
            // Non-overtaking: rank 0 gets 100 messages from every other rank through ANY_SOURCE, and each
            // source's messages must arrive in the order sent.
            if (me == 0) {
                int[] next = new int[n];
                int[] v = new int[2];
                for (int k = 0; k < 100 * (n - 1); k++) {
                    RecvRequest q = w.irecv(ints(v), 0, 8, Constants.ANY_SOURCE, Constants.ANY_TAG);
                    q.await();
                    int src = q.statusSource();
                    check(
                            v[0] == src && v[1] == next[src],
                            "order from " + src + ": got " + v[1] + " expected " + next[src]);
                    next[src]++;
                }
            } else {
                for (int k = 0; k < 100; k++) {
                    w.isend(ints(new int[] {me, k}), 0, 8, 0, k % 3, SendMode.STANDARD)
                            .await();
                }
            }
            // Truncation is an error at the receiver, not a silent cut.
            if (n >= 2) {
                if (me == 0) {
                    w.isend(ints(new int[] {1, 2, 3}), 0, 12, 1, 9, SendMode.STANDARD)
                            .await();
                } else if (me == 1) {
                    int[] small = new int[2];
                    RecvRequest t = w.irecv(ints(small), 0, 8, 0, 9);
                    try {
                        t.await();
                        check(false, "truncation not reported");
                    } catch (RewindException e) {
                        check(e.errorClass() == ErrorClass.TRUNCATE, "error class " + e.errorClass());
                    }
                }
            }
            // PROC_NULL completes at once with the MPI status.
            RecvRequest pn = w.irecv(ints(in), 0, 4, Constants.PROC_NULL, 1);
            check(pn.isComplete() && pn.statusSource() == Constants.PROC_NULL, "PROC_NULL receive");
            // Synchronous send completes only after the receive matched: the receiver posts after a barrier.
            if (n >= 2 && me < 2) {
                int peer = 1 - me;
                SendRequest ss = w.isend(ints(out), 0, 4, peer, 11, SendMode.SYNCHRONOUS);
                check(!ss.isComplete(), "synchronous send completed before any receive was posted");
                Collectives.barrier(w, w.reserveCollectiveTag());
                w.irecv(ints(in), 0, 4, peer, 11).await();
                ss.await();
            } else {
                Collectives.barrier(w, w.reserveCollectiveTag());
            }
            // Cancel an unmatched receive.
            RecvRequest never = w.irecv(ints(in), 0, 4, me, 12345);
            never.cancel();
            check(never.isComplete() && never.isCancelled(), "cancel");
            Collectives.barrier(w, w.reserveCollectiveTag());
        }
    }

    /** Every collective at every root, checked against values computed locally. */
    public static final class AllCollectives {
        public static void main(String[] args) {
            Communicator w = world();
            int me = w.rank();
            int n = w.size();
            for (int root = 0; root < n; root++) {
                int[] b = new int[3];
                if (me == root) {
                    b = new int[] {root, 7, -root};
                }
                Collectives.bcast(w, w.reserveCollectiveTag(), ints(b), 0, 12, root);
                check(Arrays.equals(b, new int[] {root, 7, -root}), "bcast from " + root);
                int[] contrib = {me + 1, me * me};
                int[] sum = new int[2];
                Collectives.reduce(
                        w,
                        w.reserveCollectiveTag(),
                        ints(contrib),
                        0,
                        ints(sum),
                        0,
                        2,
                        BaseType.INT,
                        PredefinedOp.SUM,
                        root);
                if (me == root) {
                    int s1 = n * (n + 1) / 2;
                    int s2 = (n - 1) * n * (2 * n - 1) / 6;
                    check(sum[0] == s1 && sum[1] == s2, "reduce at " + root + ": " + Arrays.toString(sum));
                }
                int[] gathered = new int[n];
                Collectives.gather(
                        w, w.reserveCollectiveTag(), ints(new int[] {me * 3}), 0, 4, ints(gathered), 0, 4, root);
                if (me == root) {
                    for (int i = 0; i < n; i++) {
                        check(gathered[i] == i * 3, "gather at " + root);
                    }
                }
                int[] all = new int[n];
                for (int i = 0; i < n; i++) {
                    all[i] = 100 * root + i;
                }
                int[] mine = new int[1];
                Collectives.scatter(w, w.reserveCollectiveTag(), ints(all), 0, 4, ints(mine), 0, 4, root);
                check(mine[0] == 100 * root + me, "scatter from " + root);
            }
            double[] x = {me + 0.5};
            double[] max = new double[1];
            Collectives.allReduce(
                    w,
                    w.reserveCollectiveTag(),
                    MemorySegment.ofArray(x),
                    0,
                    MemorySegment.ofArray(max),
                    0,
                    1,
                    BaseType.DOUBLE,
                    PredefinedOp.MAX);
            check(max[0] == n - 0.5, "allReduce max " + max[0]);
            int[] ag = new int[2 * n];
            Collectives.allGather(w, w.reserveCollectiveTag(), ints(new int[] {me, -me}), 0, ints(ag), 0, 8);
            for (int i = 0; i < n; i++) {
                check(ag[2 * i] == i && ag[2 * i + 1] == -i, "allGather");
            }
            int[] send = new int[n];
            for (int i = 0; i < n; i++) {
                send[i] = me * 1000 + i;
            }
            int[] recv = new int[n];
            Collectives.allToAll(w, w.reserveCollectiveTag(), ints(send), 0, 4, ints(recv), 0, 4);
            for (int i = 0; i < n; i++) {
                check(recv[i] == i * 1000 + me, "allToAll");
            }
            int[] scan = new int[1];
            Collectives.scan(
                    w,
                    w.reserveCollectiveTag(),
                    ints(new int[] {me + 1}),
                    0,
                    ints(scan),
                    0,
                    1,
                    BaseType.INT,
                    PredefinedOp.SUM);
            check(scan[0] == (me + 1) * (me + 2) / 2, "scan");
            int[] ex = {-1};
            Collectives.exScan(
                    w,
                    w.reserveCollectiveTag(),
                    ints(new int[] {me + 1}),
                    0,
                    ints(ex),
                    0,
                    1,
                    BaseType.INT,
                    PredefinedOp.SUM);
            check(me == 0 ? ex[0] == -1 : ex[0] == me * (me + 1) / 2, "exScan " + ex[0]);
            // A non-commutative operator must combine in rank order: string concatenation of digits.
            ReduceFunction concat = new ReduceFunction() {
                @Override
                public void apply(MemorySegment in, long inOff, MemorySegment io, long ioOff, int count, BaseType t) {
                    // Values are numbers in base 16: in followed by inout.
                    long a = in.get(ValueLayout.JAVA_LONG_UNALIGNED, inOff);
                    long b = io.get(ValueLayout.JAVA_LONG_UNALIGNED, ioOff);
                    int digits = Long.toHexString(b).length();
                    io.set(ValueLayout.JAVA_LONG_UNALIGNED, ioOff, (a << (4 * digits)) | b);
                }

                @Override
                public boolean isCommutative() {
                    return false;
                }
            };
            long[] digit = {me % 15 + 1};
            long[] res = new long[1];
            Collectives.reduce(
                    w,
                    w.reserveCollectiveTag(),
                    MemorySegment.ofArray(digit),
                    0,
                    MemorySegment.ofArray(res),
                    0,
                    1,
                    BaseType.LONG,
                    concat,
                    0);
            if (me == 0 && n <= 15) {
                StringBuilder expect = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    expect.append(Long.toHexString(i % 15 + 1));
                }
                check(
                        Long.toHexString(res[0]).equals(expect.toString()),
                        "non-commutative order " + Long.toHexString(res[0]) + " expected " + expect);
            }
            Communicator half = w.split(me % 2, -me);
            int[] hs = new int[1];
            Collectives.allReduce(
                    half,
                    half.reserveCollectiveTag(),
                    ints(new int[] {me}),
                    0,
                    ints(hs),
                    0,
                    1,
                    BaseType.INT,
                    PredefinedOp.SUM);
            int expect = 0;
            for (int i = me % 2; i < n; i += 2) {
                expect += i;
            }
            check(hs[0] == expect, "split allReduce");
            check(half.worldRankOf(0) == largestWithParity(n, me % 2), "split key order");
        }

        private static int largestWithParity(int n, int parity) {
            int r = n - 1;
            while (r % 2 != parity) {
                r--;
            }
            return r;
        }
    }

    /** Rank 1 fails while the others wait for it: the job must end, not hang. */
    public static final class FailsWhileOthersWait {
        public static void main(String[] args) {
            Communicator w = world();
            if (w.rank() == 1) {
                throw new IllegalStateException("deliberate failure in rank 1");
            }
            w.irecv(ints(new int[1]), 0, 4, 1, 0).await();
        }
    }

    /**
     * Every rank but 0 waits for a message from rank 0, which first sleeps for the number of
     * milliseconds in its first argument: a long wait that is no deadlock, since rank 0 is not in MPI.
     */
    public static final class SlowSender {
        public static void main(String[] args) throws InterruptedException {
            Communicator w = world();
            if (w.rank() == 0) {
                Thread.sleep(Long.parseLong(args[0]));
                for (int r = 1; r < w.size(); r++) {
                    w.isend(ints(new int[] {r}), 0, 4, r, 0, SendMode.STANDARD).await();
                }
            } else {
                w.irecv(ints(new int[1]), 0, 4, 0, 0).await();
            }
            System.out.println("done");
        }
    }

    /** Every rank waits for a message nobody sends. */
    public static final class Deadlock {
        public static void main(String[] args) {
            Communicator w = world();
            System.out.println("waiting forever");
            w.irecv(ints(new int[1]), 0, 4, Constants.ANY_SOURCE, 0).await();
        }
    }

    /**
     * Barriers for ever; rank 2 swallows whatever stops it (a rollback, an abort) and lingers until
     * the system property {@link #RELEASE} is true: a rank thread that does not stop when told to.
     */
    public static final class IgnoresItsStop {
        public static final String RELEASE = "rewind.test.releaseStuckRank";

        public static void main(String[] args) throws Throwable {
            Communicator w = world();
            try {
                while (true) {
                    Collectives.barrier(w, w.reserveCollectiveTag());
                }
            } catch (Throwable t) {
                if (w.rank() == 2) {
                    while (!Boolean.getBoolean(RELEASE)) {
                        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                    }
                }
                throw t;
            }
        }
    }

    /** Static state is per rank: every rank increments the same static field once. */
    public static final class StaticsArePerRank {
        static int counter;

        public static void main(String[] args) {
            counter++;
            Communicator w = world();
            Collectives.barrier(w, w.reserveCollectiveTag());
            check(counter == 1, "static counter " + counter + " shared between ranks");
            System.out.println("counter=" + counter);
        }
    }

    /** A small ring exchange, for many-rank runs. */
    public static final class ManyRanks {
        public static void main(String[] args) {
            Communicator w = world();
            int me = w.rank();
            int n = w.size();
            int[] v = {me};
            int[] in = new int[1];
            for (int round = 0; round < 20; round++) {
                Request r = w.irecv(ints(in), 0, 4, (me - 1 + n) % n, round);
                w.isend(ints(v), 0, 4, (me + 1) % n, round, SendMode.STANDARD).await();
                r.await();
                v[0] = in[0];
            }
            int[] sum = new int[1];
            Collectives.allReduce(
                    w, w.reserveCollectiveTag(), ints(v), 0, ints(sum), 0, 1, BaseType.INT, PredefinedOp.SUM);
            check(sum[0] == n * (n - 1) / 2, "sum " + sum[0]);
            if (me == 0) {
                System.out.println("ok " + n);
            }
        }
    }
}
