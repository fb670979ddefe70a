package mpi.conformance.pt2pt;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobResult;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import mpi.Status;
import mpi.conformance.Jobs;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * MPI standard chapter 3.8.2: matched probe and receive ({@code Message.mProbe imProbe mRecv
 * imRecv}). A matched probe takes its message out of matching, so the programs check that the message
 * received is the one probed, that nothing else sees it, and that under every protocol, with crashes,
 * a restarted rank takes the same messages in the same order.
 */
@Tag("conformance")
class MatchedProbeTest {

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void wildcardMatchedProbesReceiveEveryMessageOnce(int ranks) {
        runOk(AnySourceCollector.class, ranks);
    }

    /**
     * The collector itself crashes, at a quarter, half and three quarters of its run: restarted, it
     * must take the senders' replayed messages in the order it took them before (its output records
     * that order), under every protocol that recovers.
     */
    @Test
    void aRestartedCollectorTakesTheMessagesInTheSameOrder() {
        // Blocking probes only: polls would make the operation count, and so where a kill strikes, a matter
        // of timing.
        RecoveryCheck check = RecoveryCheck.of(Jobs.config(AnySourceCollector.class, 4, "blocking"));
        long ops = check.operations()[0];
        int struck = 0;
        for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
            for (int quarter = 1; quarter <= 3; quarter++) {
                FailureSchedule kill = new FailureSchedule(List.of(new FailureSchedule.Kill(
                        0, FailureSchedule.Trigger.OPERATION, Math.max(1, ops * quarter / 4))));
                RecoveryCheck.Verdict v = check.run(p, 0, kill);
                assertTrue(v.ok(), () -> "collector killed (" + kill + "): " + v.describe());
                struck += v.struck();
            }
        }
        assertTrue(struck > 0, "no kill struck, so nothing was checked");
    }

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void matchedProbesOnARing(int ranks) {
        runOk(MatchedRing.class, ranks, "12");
    }

    @ParameterizedTest
    @RankCounts({1, 2})
    void misuseIsAnErrorAndLosesNoMessage(int ranks) {
        runOk(Misuse.class, ranks);
    }

    /**
     * The reason matched probes exist: two threads of one rank probe and receive from the same
     * sources at once, and each receives exactly the message it probed. (Threads of one rank
     * interleave by timing, so this runs without a protocol.)
     */
    @Test
    void twoThreadsOfARankProbeAndReceiveConcurrently() {
        JobResult r = Jobs.run(ThreadedCollector.class, 3);
        assertTrue(r.ok(), r::describeFailures);
    }

    /** Words of message {@code k} from rank {@code r}: its length and values follow from (r, k). */
    static int length(int r, int k) {
        // Every third message of an odd rank is long enough to go by rendezvous.
        return (r % 2 == 1 && k % 3 == 1) ? 40_000 + r : 1 + (r * 7 + k * 13) % 50;
    }

    static int value(int r, int k, int i) {
        return r * 1_000_003 + k * 10_007 + i;
    }

    static int messagesFrom(int r) {
        return 3 + r % 3;
    }

    /**
     * Every rank (rank 0 too) sends rank 0 a few messages of varied lengths and tags, some
     * synchronous, some long; rank 0 takes them with wildcard matched probes (blocking and polling in
     * turn), sizes its buffer from the probe, receives them (blocking and non-blocking in turn) and
     * answers each sender with the place the message took in its order. At the end every sender hands
     * back the places it was told and rank 0 checks them against its own record: a restarted rank 0
     * that took the messages in another order than before its crash would contradict what the
     * survivors were told. (The order itself depends on timing, so it is never printed.)
     */
    public static final class AnySourceCollector {
        static final int MAX_MESSAGES = 5;

        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            List<Request> pending = new ArrayList<>();
            int mine = messagesFrom(me);
            boolean blocking = args.length > 0 && args[0].equals("blocking");
            for (int k = 0; k < mine; k++) {
                IntBuffer b = MPI.newIntBuffer(length(me, k));
                for (int i = 0; i < b.capacity(); i++) {
                    b.put(i, value(me, k, i));
                }
                pending.add(
                        k % 2 == 0
                                ? w.isSend(b, b.capacity(), MPI.INT, 0, 100 + k)
                                : w.iSend(b, b.capacity(), MPI.INT, 0, 100 + k));
            }
            IntBuffer places = MPI.newIntBuffer(MAX_MESSAGES);
            for (int k = 0; k < mine; k++) {
                pending.add(w.iRecv(MPI.slice(places, k), 1, MPI.INT, 0, 200 + k));
            }
            int total = 0;
            for (int r = 0; r < n; r++) {
                total += messagesFrom(r);
            }
            int[] takenFrom = new int[total];
            if (me == 0) {
                int[] nextK = new int[n];
                long sum = 0;
                for (int m = 0; m < total; m++) {
                    Message msg = new Message();
                    Status probed;
                    if (m % 2 == 0 || blocking) {
                        probed = msg.mProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, w);
                    } else {
                        do {
                            probed = msg.imProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, w);
                        } while (probed == null);
                    }
                    check(!msg.isNull() && !msg.isNoProc(), "a probed message is held");
                    int src = probed.getSource();
                    int k = nextK[src]++;
                    takenFrom[m] = src * MAX_MESSAGES + k;
                    checkEq(100 + k, probed.getTag(), "per-source order of tags from " + src);
                    int count = probed.getCount(MPI.INT);
                    checkEq(length(src, k), count, "probed count of message " + k + " from " + src);
                    // Nothing else can see the message now.
                    Status other = w.iProbe(src, 100 + k);
                    check(other == null, "a matched message is invisible to iProbe");
                    int[] got = new int[count];
                    Status s;
                    if (m % 4 < 2) {
                        s = msg.mRecv(got, count, MPI.INT);
                    } else {
                        IntBuffer direct = MPI.newIntBuffer(count);
                        Request q = msg.imRecv(direct, count, MPI.INT);
                        s = q.waitStatus();
                        direct.get(0, got);
                    }
                    check(msg.isNull(), "a received message handle is null");
                    checkEq(src, s.getSource(), "source of the receive");
                    checkEq(100 + k, s.getTag(), "tag of the receive");
                    checkEq(count, s.getCount(MPI.INT), "count of the receive");
                    for (int i = 0; i < count; i++) {
                        if (got[i] != value(src, k, i)) {
                            checkEq(value(src, k, i), got[i], "word " + i + " of message " + k + " from " + src);
                        }
                        sum += got[i];
                    }
                    pending.add(w.iSend(IntBuffer.wrap(new int[] {m}), 1, MPI.INT, src, 200 + k));
                }
                for (int r = 0; r < n; r++) {
                    checkEq(messagesFrom(r), nextK[r], "messages from " + r);
                }
                System.out.println("received " + total + " messages, sum " + sum);
            }
            Request.waitAll(pending.toArray(new Request[0]));
            int[] told = new int[MAX_MESSAGES];
            places.get(0, told, 0, mine);
            int[] allTold = new int[n * MAX_MESSAGES];
            w.gather(told, MAX_MESSAGES, MPI.INT, allTold, MAX_MESSAGES, MPI.INT, 0);
            if (me == 0) {
                for (int r = 0; r < n; r++) {
                    for (int k = 0; k < messagesFrom(r); k++) {
                        int place = allTold[r * MAX_MESSAGES + k];
                        checkEq(r * MAX_MESSAGES + k, takenFrom[place], "message taken at place " + place);
                    }
                }
                check(w.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null, "nothing left");
            }
            MPI.Finalize();
        }
    }

    /**
     * Each step every rank sends its right neighbour a message whose length and tag change with the
     * step, and takes its left neighbour's with a matched probe naming the source (blocking, or
     * polling with ANY_TAG), then receives it; a checksum of everything received ends the run.
     */
    public static final class MatchedRing {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            int steps = Integer.parseInt(args[0]);
            int right = (me + 1) % n;
            int left = (me + n - 1) % n;
            long sum = 0;
            for (int step = 0; step < steps; step++) {
                int len = 1 + (step * 31 + me * 5) % 97 + (step % 5 == 4 ? 30_000 : 0);
                IntBuffer out = MPI.newIntBuffer(len);
                for (int i = 0; i < len; i++) {
                    out.put(i, value(me, step, i));
                }
                Request send = w.iSend(out, len, MPI.INT, right, step % 7);
                Message msg = new Message();
                Status probed;
                if (step % 2 == 0) {
                    probed = msg.mProbe(left, step % 7, w);
                } else {
                    do {
                        probed = msg.imProbe(left, MPI.ANY_TAG, w);
                    } while (probed == null);
                }
                int expectedLen = 1 + (step * 31 + left * 5) % 97 + (step % 5 == 4 ? 30_000 : 0);
                checkEq(left, probed.getSource(), "probed source");
                checkEq(step % 7, probed.getTag(), "probed tag");
                checkEq(expectedLen, probed.getCount(MPI.INT), "probed count");
                int[] in = new int[expectedLen];
                msg.mRecv(in, expectedLen, MPI.INT);
                for (int i = 0; i < expectedLen; i++) {
                    if (in[i] != value(left, step, i)) {
                        checkEq(value(left, step, i), in[i], "word " + i + " at step " + step);
                    }
                    sum += in[i];
                }
                send.waitFor();
            }
            long[] total = {sum};
            w.allReduce(total, 1, MPI.LONG, MPI.SUM);
            long expected = 0;
            for (int r = 0; r < n; r++) {
                for (int step = 0; step < steps; step++) {
                    int len = 1 + (step * 31 + r * 5) % 97 + (step % 5 == 4 ? 30_000 : 0);
                    for (int i = 0; i < len; i++) {
                        expected += value(r, step, i);
                    }
                }
            }
            checkEq(expected, total[0], "ring checksum");
            if (me == 0) {
                System.out.println("ring of " + n + " ranks, " + steps + " steps, checksum " + total[0]);
            }
            MPI.Finalize();
        }
    }

    /** Misuse of message handles: each is an MPIException, and no message is lost by it. */
    public static final class Misuse {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            Message none = new Message();
            check(none.isNull() && !none.isNoProc(), "a new message is the null message");
            expectError(MPI.ERR_REQUEST, "mRecv of the null message", () -> none.mRecv(new int[1], 1, MPI.INT));
            check(none.imProbe(me, 999, w) == null, "imProbe with nothing there");
            check(none.isNull(), "a failed imProbe leaves the handle null");

            Message noProc = new Message();
            Status ps = noProc.mProbe(MPI.PROC_NULL, 3, w);
            check(noProc.isNoProc(), "probing PROC_NULL gives the no-process message");
            checkEq(MPI.PROC_NULL, ps.getSource(), "source of a PROC_NULL probe");
            Status rs = noProc.mRecv(new int[4], 4, MPI.INT);
            checkEq(MPI.PROC_NULL, rs.getSource(), "source of a no-process receive");
            checkEq(0, rs.getCount(MPI.INT), "count of a no-process receive");
            check(noProc.isNull(), "after its receive the handle is null");

            expectError(MPI.ERR_RANK, "mProbe of a rank outside the communicator", () -> new Message()
                    .mProbe(w.getSize(), 0, w));
            expectError(MPI.ERR_TAG, "mProbe of a negative tag", () -> new Message().mProbe(me, -5, w));

            // Two messages to itself with one tag: the first is taken, the second stays visible.
            Request a = w.iSend(IntBuffer.wrap(new int[] {1, 2, 3}), 3, MPI.INT, me, 4);
            Request b = w.iSend(IntBuffer.wrap(new int[] {7, 8}), 2, MPI.INT, me, 4);
            Message first = new Message();
            checkEq(3, first.mProbe(me, 4, w).getCount(MPI.INT), "first message probed");
            Status visible = w.probe(me, 4);
            checkEq(2, visible.getCount(MPI.INT), "the second message is what a probe sees now");
            expectError(MPI.ERR_REQUEST, "probing into a handle that holds a message", () -> first.mProbe(me, 4, w));
            int[] second = new int[2];
            w.recv(second, 2, MPI.INT, me, 4);
            checkEq(7, second[0], "an ordinary receive takes the second message");
            int[] small = new int[2];
            expectError(
                    MPI.ERR_COUNT, "mRecv into a buffer shorter than the count", () -> first.mRecv(small, 3, MPI.INT));
            check(!first.isNull(), "a refused mRecv keeps the message");
            expectError(MPI.ERR_TRUNCATE, "mRecv of 3 ints into 2", () -> first.mRecv(small, 2, MPI.INT));
            check(first.isNull(), "a truncated receive still consumes the message");
            checkEq(1, small[0], "the truncated receive got the start of the first message");
            Request.waitAll(new Request[] {a, b});
            w.barrier();
            if (me == 0) {
                System.out.println("misuse checked");
            }
            MPI.Finalize();
        }
    }

    /** Two threads of rank 0 share the messages of ranks 1..n-1 by matched probes. */
    public static final class ThreadedCollector {
        static final int PER_SENDER = 200;

        public static void main(String[] args) throws Exception {
            MPI.InitThread(args, MPI.THREAD_MULTIPLE);
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            if (me == 0) {
                int total = PER_SENDER * (n - 1);
                AtomicLong sum = new AtomicLong();
                java.util.concurrent.atomic.AtomicInteger taken = new java.util.concurrent.atomic.AtomicInteger();
                Thread[] workers = new Thread[2];
                Throwable[] failure = new Throwable[1];
                for (int t = 0; t < workers.length; t++) {
                    workers[t] = new Thread(
                            () -> {
                                try {
                                    while (taken.getAndIncrement() < total) {
                                        Message msg = new Message();
                                        Status s = msg.mProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, w);
                                        int count = s.getCount(MPI.INT);
                                        int[] in = new int[count];
                                        msg.mRecv(in, count, MPI.INT);
                                        // The payload names its own sender, tag and length: a mix-up shows.
                                        checkEq(s.getSource(), in[0], "sender in the payload");
                                        checkEq(s.getTag(), in[1], "tag in the payload");
                                        checkEq(count, in[2], "length in the payload");
                                        sum.addAndGet(in[1]);
                                    }
                                } catch (Throwable e) {
                                    failure[0] = e;
                                }
                            },
                            "collector-" + t);
                    workers[t].start();
                }
                for (Thread t : workers) {
                    t.join();
                }
                if (failure[0] != null) {
                    throw new AssertionError("collector thread failed", failure[0]);
                }
                long expected = (long) (n - 1) * PER_SENDER * (PER_SENDER - 1) / 2;
                checkEq(expected, sum.get(), "sum of the tags received");
            } else {
                for (int k = 0; k < PER_SENDER; k++) {
                    int len = 3 + (k * 17 + me) % 40;
                    int[] out = new int[len];
                    out[0] = me;
                    out[1] = k;
                    out[2] = len;
                    w.send(out, len, MPI.INT, 0, k);
                }
            }
            MPI.Finalize();
        }
    }
}
