package mpi.conformance.pt2pt;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.runOk;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.HashSet;
import java.util.Set;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import mpi.conformance.Jobs;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

/** MPI standard chapter 3: point-to-point communication. */
@Tag("conformance")
@Tag("sample")
class PointToPointTest {

    @ParameterizedTest
    @RankCounts({1, 2, 3, 5, 8})
    void blockingRingWithEveryBufferKind(int ranks) {
        runOk(Ring.class, ranks);
    }

    @ParameterizedTest
    @RankCounts(
            value = {2, 3, 5},
            min = 2)
    void wildcardsReceiveEveryMessageOnce(int ranks) {
        runOk(Wildcards.class, ranks);
    }

    @Test
    void messagesOnOneChannelDoNotOvertake() {
        runOk(NonOvertaking.class, 2);
    }

    @Test
    void truncationIsAnErrorOfTheReceive() {
        runOk(Truncation.class, 2);
    }

    @ParameterizedTest
    @RankCounts({1, 3})
    void procNullCompletesAtOnce(int ranks) {
        runOk(ProcNull.class, ranks);
    }

    @Test
    void sendModes() {
        runOk(SendModes.class, 2);
    }

    @ParameterizedTest
    @RankCounts(
            value = {2, 3},
            min = 2)
    void persistentRequests(int ranks) {
        runOk(Persistent.class, ranks);
    }

    @ParameterizedTest
    @RankCounts({1, 2, 4})
    void everyCompletionFunction(int ranks) {
        runOk(Completion.class, ranks);
    }

    @Test
    void cancelOfAnUnmatchedReceive() {
        runOk(Cancel.class, 1);
    }

    @ParameterizedTest
    @RankCounts(
            value = {2, 3},
            min = 2)
    void cancelOfSends(int ranks) {
        runOk(CancelSend.class, ranks);
    }

    @Test
    void anUnaskedSynchronousSendIsCancelledUnderEveryProtocolWhenNothingFails() {
        RecoveryCheck check = RecoveryCheck.of(Jobs.config(CancelSend.class, 3, "strict"));
        for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
            RecoveryCheck.Verdict v = check.run(p, 0, FailureSchedule.NONE);
            assertTrue(v.ok(), v::describe);
        }
    }

    @ParameterizedTest
    @RankCounts(
            value = {2, 3},
            min = 2)
    void probeAndIprobe(int ranks) {
        runOk(Probe.class, ranks);
    }

    @Test
    void derivedDatatypesAndOtherElementTypes() {
        runOk(Datatypes.class, 2);
    }

    // ------------------------------------------------------------------------------------------------

    /** Passes data around a ring with arrays, heap and direct buffers, slices, sendRecv and sendRecvReplace. */
    public static final class Ring {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            int right = (me + 1) % n;
            int left = (me - 1 + n) % n;

            int[] out = {me, me * 10, me * 100};
            int[] in = new int[3];
            Request r = w.iRecv(IntBuffer.wrap(in), 3, MPI.INT, left, 7);
            w.send(out, 3, MPI.INT, right, 7);
            Status s = r.waitStatus();
            checkEq(left, s.getSource(), "source");
            checkEq(7, s.getTag(), "tag");
            checkEq(3, s.getCount(MPI.INT), "count");
            checkEq(left * 100, in[2], "int payload");
            check(r.isNull(), "a completed request becomes the null request");

            DoubleBuffer d = MPI.newDoubleBuffer(4);
            d.put(0, me + 0.5).put(3, -me);
            d.position(2); // ignored: data starts at index 0
            DoubleBuffer dIn = MPI.newDoubleBuffer(4);
            Status ds = w.sendRecv(d, 4, MPI.DOUBLE, right, 1, dIn, 4, MPI.DOUBLE, left, 1);
            check(dIn.get(0) == left + 0.5 && dIn.get(3) == -left, "direct buffer payload");
            checkEq(4, ds.getCount(MPI.DOUBLE), "sendRecv count");
            checkEq(MPI.UNDEFINED, countInTriplesOfDoubles(ds), "32 bytes are not a whole number of 24-byte items");

            // Slices offset into arrays and buffers.
            int[] big = new int[10];
            big[5] = me + 1;
            int[] got = new int[10];
            w.sendRecv(MPI.slice(big, 5), 1, MPI.INT, right, 2, MPI.slice(got, 9), 1, MPI.INT, left, 2);
            checkEq(left + 1, got[9], "slice of an array");
            ByteBuffer bb = MPI.newByteBuffer(16);
            bb.put(8, (byte) (me + 3));
            ByteBuffer bin = ByteBuffer.allocate(16);
            w.sendRecv(MPI.slice(bb, 8), 1, MPI.BYTE, right, 3, MPI.slice(bin, 4), 1, MPI.BYTE, left, 3);
            checkEq(left + 3, bin.get(4), "slice of a buffer");

            long[] rep = {me, me};
            Status rs = w.sendRecvReplace(rep, 2, MPI.LONG, right, 4, left, 4);
            checkEq(left, rep[0], "sendRecvReplace");
            checkEq(left, rs.getSource(), "sendRecvReplace source");

            // Non-blocking with arrays wrapped as heap buffers and direct buffers.
            IntBuffer hin = IntBuffer.allocate(2);
            Request[] reqs = {
                w.iRecv(hin, 2, MPI.INT, left, 5), w.iSend(IntBuffer.wrap(new int[] {me, -me}), 2, MPI.INT, right, 5)
            };
            Request.waitAll(reqs);
            checkEq(-left, hin.get(1), "heap buffer iRecv");
            MPI.Finalize();
        }

        private static int countInTriplesOfDoubles(Status s) throws MPIException {
            Datatype triple = Datatype.createContiguous(3, MPI.DOUBLE);
            triple.commit();
            return s.getCount(triple);
        }
    }

    /** Rank 0 receives from ANY_SOURCE with ANY_TAG; every other rank sends three messages. */
    public static final class Wildcards {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            if (me == 0) {
                Set<Long> seen = new HashSet<>();
                int[] lastSeq = new int[n];
                java.util.Arrays.fill(lastSeq, -1);
                for (int i = 0; i < 3 * (n - 1); i++) {
                    int[] m = new int[2];
                    Status s = w.recv(m, 2, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                    checkEq(m[0], s.getSource(), "source matches payload");
                    checkEq(10 + m[1], s.getTag(), "tag matches payload");
                    check(m[1] > lastSeq[m[0]], "per-source order");
                    lastSeq[m[0]] = m[1];
                    check(seen.add((long) m[0] << 32 | m[1]), "received once");
                }
                check(w.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null, "nothing left");
            } else {
                for (int k = 0; k < 3; k++) {
                    w.send(new int[] {me, k}, 2, MPI.INT, 0, 10 + k);
                }
            }
            MPI.Finalize();
        }
    }

    /** 200 messages with mixed tags; receives by tag and by ANY_TAG must see each tag's messages in order. */
    public static final class NonOvertaking {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int count = 200;
            if (w.getRank() == 1) {
                for (int i = 0; i < count; i++) {
                    // Some tag-2 messages are large (rendezvous: the sender waits for the match), the rest eager.
                    int[] payload = new int[i % 3 == 2 && (i / 3) % 5 == 0 ? 20_000 : 2];
                    payload[0] = i;
                    w.send(payload, payload.length, MPI.INT, 0, i % 3);
                }
            } else {
                int[] next = new int[3];
                int[] buf = new int[20_000];
                int received = 0;
                // First drain tag 2 specifically, then everything else with ANY_TAG.
                int tag2 = (count + 0) / 3;
                for (int i = 0; i < tag2; i++) {
                    w.recv(buf, buf.length, MPI.INT, 1, 2);
                    checkEq(2 + 3L * i, buf[0], "tag 2 message order");
                    received++;
                }
                next[2] = Integer.MAX_VALUE;
                int lastAny = -1;
                while (received < count) {
                    Status s = w.recv(buf, buf.length, MPI.INT, 1, MPI.ANY_TAG);
                    check(buf[0] > lastAny, "ANY_TAG order: " + buf[0] + " after " + lastAny);
                    checkEq(buf[0] % 3, s.getTag(), "tag");
                    lastAny = buf[0];
                    received++;
                }
            }
            MPI.Finalize();
        }
    }

    public static final class Truncation {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            if (w.getRank() == 0) {
                w.send(new int[10], 10, MPI.INT, 1, 0);
                w.send(new int[10], 10, MPI.INT, 1, 1);
            } else {
                mpi.conformance.Jobs.expectError(
                        MPI.ERR_TRUNCATE, "blocking receive", () -> w.recv(new int[5], 5, MPI.INT, 0, 0));
                Request r = w.iRecv(IntBuffer.allocate(4), 4, MPI.INT, 0, 1);
                mpi.conformance.Jobs.expectError(MPI.ERR_TRUNCATE, "wait on a non-blocking receive", r::waitFor);
            }
            MPI.Finalize();
        }
    }

    public static final class ProcNull {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            w.send(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);
            int[] buf = {42};
            Status s = w.recv(buf, 1, MPI.INT, MPI.PROC_NULL, 0);
            checkEq(MPI.PROC_NULL, s.getSource(), "source");
            checkEq(MPI.ANY_TAG, s.getTag(), "tag");
            checkEq(0, s.getCount(MPI.INT), "count");
            checkEq(42, buf[0], "buffer untouched");
            Request r = w.iRecv(IntBuffer.wrap(buf), 1, MPI.INT, MPI.PROC_NULL, 3);
            check(r.test(), "iRecv from PROC_NULL completes at once");
            Status p = w.probe(MPI.PROC_NULL, MPI.ANY_TAG);
            checkEq(MPI.PROC_NULL, p.getSource(), "probe source");
            MPI.Finalize();
        }
    }

    /** sSend completes only after the matching receive started; bSend and rSend deliver. */
    public static final class SendModes {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            if (w.getRank() == 0) {
                Request ss = w.isSend(IntBuffer.wrap(new int[] {1}), 1, MPI.INT, 1, 1);
                // Rank 1 posts the receive only after it gets the token, so the send cannot be complete.
                check(!ss.test(), "synchronous send completed before its receive was posted");
                w.send(new int[] {0}, 1, MPI.INT, 1, 2);
                ss.waitFor();
                MPI.attachBuffer(new byte[1024]);
                w.bSend(new int[] {3}, 1, MPI.INT, 1, 3);
                check(MPI.detachBuffer().length == 1024, "detach returns the attached buffer");
                w.recv(new int[1], 1, MPI.INT, 1, 4); // rank 1's receive for rSend is posted
                w.rSend(new int[] {5}, 1, MPI.INT, 1, 5);
                w.sSend(new int[] {6}, 1, MPI.INT, 1, 6);
                w.ibSend(IntBuffer.wrap(new int[] {7}), 1, MPI.INT, 1, 7).waitFor();
                w.irSend(IntBuffer.wrap(new int[] {8}), 1, MPI.INT, 1, 8).waitFor();
            } else {
                int[] b = new int[1];
                w.recv(b, 1, MPI.INT, 0, 2);
                w.recv(b, 1, MPI.INT, 0, 1);
                checkEq(1, b[0], "ssend payload");
                w.recv(b, 1, MPI.INT, 0, 3);
                checkEq(3, b[0], "bsend payload");
                Request r = w.iRecv(IntBuffer.wrap(b), 1, MPI.INT, 0, 5);
                w.send(new int[1], 1, MPI.INT, 0, 4);
                r.waitFor();
                checkEq(5, b[0], "rsend payload");
                for (int t = 6; t <= 8; t++) {
                    w.recv(b, 1, MPI.INT, 0, t);
                    checkEq(t, b[0], "payload of tag " + t);
                }
            }
            MPI.Finalize();
        }
    }

    /** Persistent send/receive started several times, with data changing between starts. */
    public static final class Persistent {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            IntBuffer out = MPI.newIntBuffer(2);
            IntBuffer in = IntBuffer.allocate(2);
            Prequest send = w.sendInit(out, 2, MPI.INT, (me + 1) % n, 9);
            Prequest recv = w.recvInit(in, 2, MPI.INT, (me - 1 + n) % n, 9);
            for (int it = 0; it < 5; it++) {
                out.put(0, me).put(1, it);
                Prequest.startAll(new Prequest[] {recv, send});
                mpi.conformance.Jobs.expectError(MPI.ERR_REQUEST, "start while active", recv::start);
                Request.waitAll(new Request[] {recv, send});
                checkEq((me - 1 + n) % n, in.get(0), "source payload");
                checkEq(it, in.get(1), "iteration payload");
                check(!recv.isNull(), "persistent request stays usable");
            }
            send.free();
            recv.free();
            check(send.isNull(), "freed");
            mpi.conformance.Jobs.expectError(MPI.ERR_REQUEST, "start after free", send::start);
            MPI.Finalize();
        }
    }

    /** waitAny/testAny/waitSome/testSome/waitAll/testAll and their Status forms, with null requests. */
    public static final class Completion {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            int k = 4;
            // Receives from myself, completed one at a time by my own sends.
            IntBuffer[] bufs = new IntBuffer[k];
            Request[] r = new Request[k + 1];
            for (int i = 0; i < k; i++) {
                bufs[i] = IntBuffer.allocate(1);
                r[i] = w.iRecv(bufs[i], 1, MPI.INT, me, i);
            }
            r[k] = MPI.REQUEST_NULL;
            checkEq(MPI.UNDEFINED, Request.testAny(r), "testAny with nothing complete");
            check(Request.testAnyStatus(r) == null, "testAnyStatus with nothing complete");
            int[] none = Request.testSome(r);
            checkEq(0, none.length, "testSome with nothing complete");
            check(!Request.testAll(r), "testAll with nothing complete");
            check(Request.testAllStatus(r) == null, "testAllStatus with nothing complete");
            check(r[2].getStatus() == null, "getStatus of an incomplete request");

            w.send(new int[] {20}, 1, MPI.INT, me, 2);
            check(r[2].getStatus() != null, "getStatus of a complete request");
            checkEq(2, Request.waitAny(r), "waitAny index");
            checkEq(20, bufs[2].get(0), "waitAny payload");
            check(r[2].isNull(), "completed request is null");

            w.send(new int[] {30}, 1, MPI.INT, me, 3);
            Status s = Request.waitAnyStatus(r);
            checkEq(3, s.getIndex(), "waitAnyStatus index");
            checkEq(3, s.getTag(), "waitAnyStatus tag");

            w.send(new int[] {0}, 1, MPI.INT, me, 0);
            Status t = null;
            while (t == null) {
                t = Request.testAnyStatus(r);
            }
            checkEq(0, t.getIndex(), "testAnyStatus index");

            w.send(new int[] {10}, 1, MPI.INT, me, 1);
            int[] some = Request.waitSome(r);
            checkEq(1, some.length, "waitSome count");
            checkEq(1, some[0], "waitSome index");
            check(Request.waitSome(r) == null, "waitSome with no active request");
            check(Request.testSome(r) == null, "testSome with no active request");
            checkEq(MPI.UNDEFINED, Request.waitAny(r), "waitAny with no active request");
            check(Request.testAll(r), "testAll with no active request");

            // waitSomeStatus / testSomeStatus / waitAllStatus across ranks.
            int right = (me + 1) % n;
            int left = (me - 1 + n) % n;
            IntBuffer a = IntBuffer.allocate(1);
            IntBuffer b = IntBuffer.allocate(1);
            Request[] q = {w.iRecv(a, 1, MPI.INT, left, 50), w.iRecv(b, 1, MPI.INT, left, 51)};
            w.send(new int[] {me}, 1, MPI.INT, right, 50);
            w.send(new int[] {me + 1}, 1, MPI.INT, right, 51);
            int done = 0;
            while (done < 2) {
                Status[] ss = (done % 2 == 0) ? Request.waitSomeStatus(q) : Request.testSomeStatus(q);
                for (Status x : ss) {
                    checkEq(50 + x.getIndex(), x.getTag(), "status index/tag");
                    checkEq(left, x.getSource(), "status source");
                }
                done += ss.length;
            }
            checkEq(left + 1, b.get(0), "payload");
            Request[] q2 = {
                w.iRecv(a, 1, MPI.INT, left, 60), w.iSend(IntBuffer.wrap(new int[] {7}), 1, MPI.INT, right, 60)
            };
            Status[] all = Request.waitAllStatus(q2);
            checkEq(left, all[0].getSource(), "waitAllStatus source");
            checkEq(2, all.length, "waitAllStatus length");
            MPI.Finalize();
        }
    }

    public static final class Cancel {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            Request r = w.iRecv(IntBuffer.allocate(1), 1, MPI.INT, 0, 99);
            r.cancel();
            Status s = r.waitStatus();
            check(s.isCancelled(), "an unmatched receive is cancelled");
            // A later message with that tag is not consumed by the cancelled receive.
            w.send(new int[] {5}, 1, MPI.INT, 0, 99);
            int[] b = new int[1];
            w.recv(b, 1, MPI.INT, 0, 99);
            checkEq(5, b[0], "message after cancel");
            MPI.Finalize();
        }
    }

    /**
     * A synchronous send nobody asks for is cancelled; one its receiver took first completes as sent,
     * though cancelled after; a receive after the cancel gets the next message, not the cancelled one.
     * (A crash of the receiver lets a waiting synchronous send go as sent, its message then reaching
     * the receiver's next incarnation: the outcome travels to the receiver, which takes such a message,
     * so the program's result is the same either way.)
     */
    public static final class CancelSend {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            boolean strict = args.length > 0 && args[0].equals("strict");
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            int right = (me + 1) % n;
            int left = (me + n - 1) % n;
            for (int round = 0; round < 3; round++) {
                IntBuffer never = MPI.newIntBuffer(1).put(0, round);
                Request unasked = w.isSend(never, 1, MPI.INT, right, 7);
                unasked.cancel();
                int[] outcome = {unasked.waitStatus().isCancelled() ? 1 : 0};
                if (strict) {
                    check(outcome[0] == 1, "an unasked synchronous send is cancelled when nothing fails");
                }
                int[] leftOutcome = new int[1];
                w.sendRecv(outcome, 1, MPI.INT, right, 6, leftOutcome, 1, MPI.INT, left, 6);
                int[] got = new int[1];
                if (leftOutcome[0] == 0) {
                    w.recv(got, 1, MPI.INT, left, 7); // not cancelled: it is here to take
                    checkEq(round, got[0], "the send that was not cancelled");
                }

                IntBuffer taken = MPI.newIntBuffer(1).put(0, 100 + round);
                Request late = w.isSend(taken, 1, MPI.INT, right, 8);
                w.recv(got, 1, MPI.INT, left, 8);
                checkEq(100 + round, got[0], "the synchronous send that was taken");
                w.barrier(); // every receive above has started: the cancels below come too late
                late.cancel();
                check(!late.waitStatus().isCancelled(), "a send its receiver took is not cancelled");

                // The cancelled message's tag now carries a real one, which is the one received.
                w.send(new int[] {200 + round}, 1, MPI.INT, right, 7);
                w.recv(got, 1, MPI.INT, left, 7);
                checkEq(200 + round, got[0], "the message after a cancelled one");
            }
            MPI.Finalize();
        }
    }

    /** probe to size a receive; iProbe polling; probes do not consume. */
    public static final class Probe {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            if (me == 0) {
                for (int src = 1; src < n; src++) {
                    Status p = w.probe(MPI.ANY_SOURCE, 4);
                    int count = p.getCount(MPI.DOUBLE);
                    checkEq(p.getSource() * 3L, count, "probed count");
                    double[] b = new double[count];
                    Status s = w.recv(b, count, MPI.DOUBLE, p.getSource(), 4);
                    checkEq(p.getSource(), s.getSource(), "receive what was probed");
                }
                Status q = null;
                while (q == null) {
                    q = w.iProbe(1, MPI.ANY_TAG);
                }
                checkEq(5, q.getTag(), "iProbe tag");
                check(w.iProbe(1, 5) != null, "iProbe does not consume");
                w.recv(new int[1], 1, MPI.INT, 1, 5);
            } else {
                w.send(new double[me * 3], me * 3, MPI.DOUBLE, 0, 4);
                if (me == 1) {
                    w.send(new int[1], 1, MPI.INT, 0, 5);
                }
            }
            MPI.Finalize();
        }
    }

    /** Vector and contiguous types, boolean/char/long/short/float arrays, pair types. */
    public static final class Datatypes {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            // A 4x4 matrix in row-major order: send column 1, receive it into a row.
            Datatype column = Datatype.createVector(4, 1, 4, MPI.INT);
            column.commit();
            Datatype pairOfInts = Datatype.createContiguous(2, MPI.INT);
            pairOfInts.commit();
            checkEq(13, column.getExtent(), "vector extent");
            checkEq(4, column.getSize(), "vector size");
            if (me == 0) {
                int[] m = new int[16];
                for (int i = 0; i < 16; i++) {
                    m[i] = i;
                }
                w.send(MPI.slice(m, 1), 1, column, 1, 0);
                w.send(new int[] {1, 2, 3, 4}, 2, pairOfInts, 1, 1);
                w.send(new boolean[] {true, false, true}, 3, MPI.BOOLEAN, 1, 2);
                w.send(new char[] {'h', 'i'}, 2, MPI.CHAR, 1, 3);
                w.send(new long[] {Long.MAX_VALUE}, 1, MPI.LONG, 1, 4);
                w.send(new short[] {-3}, 1, MPI.SHORT, 1, 5);
                w.send(new float[] {1.5f}, 1, MPI.FLOAT, 1, 6);
                ByteBuffer pairs = MPI.newByteBuffer(MPI.doubleInt.getExtent() * 2);
                mpi.DoubleInt.Data d = MPI.doubleInt.getData(pairs, 1);
                d.putValue(2.5);
                d.putIndex(7);
                w.send(pairs, 2, MPI.DOUBLE_INT, 1, 7);
                int[] m2 = new int[16];
                w.recv(MPI.slice(m2, 2), 1, column, 1, 8);
                for (int i = 0; i < 16; i++) {
                    checkEq(i % 4 == 2 ? 100 + i / 4 : 0, m2[i], "received column element " + i);
                }
            } else if (me == 1) {
                int[] row = new int[4];
                Status s = w.recv(row, 4, MPI.INT, 0, 0);
                checkEq(4, s.getCount(MPI.INT), "column as ints");
                for (int i = 0; i < 4; i++) {
                    checkEq(1 + 4L * i, row[i], "column element " + i);
                }
                int[] pr = new int[4];
                Status ps = w.recv(pr, 2, pairOfInts, 0, 1);
                checkEq(2, ps.getCount(pairOfInts), "count of contiguous items");
                checkEq(4, ps.getElements(pairOfInts), "elements of contiguous items");
                checkEq(4, pr[3], "contiguous payload");
                boolean[] bs = new boolean[3];
                w.recv(bs, 3, MPI.BOOLEAN, 0, 2);
                check(bs[0] && !bs[1] && bs[2], "boolean payload");
                char[] cs = new char[2];
                w.recv(cs, 2, MPI.CHAR, 0, 3);
                check(cs[0] == 'h' && cs[1] == 'i', "char payload");
                long[] ls = new long[1];
                w.recv(ls, 1, MPI.LONG, 0, 4);
                check(ls[0] == Long.MAX_VALUE, "long payload");
                short[] sh = new short[1];
                w.recv(sh, 1, MPI.SHORT, 0, 5);
                checkEq(-3, sh[0], "short payload");
                float[] fs = new float[1];
                w.recv(fs, 1, MPI.FLOAT, 0, 6);
                check(fs[0] == 1.5f, "float payload");
                byte[] pairs = new byte[32];
                Status pst = w.recv(pairs, 2, MPI.DOUBLE_INT, 0, 7);
                checkEq(2, pst.getCount(MPI.DOUBLE_INT), "pair count");
                mpi.DoubleInt.Data d = MPI.doubleInt.getData(pairs, 1);
                check(d.getValue() == 2.5 && d.getIndex() == 7, "pair payload");
                w.send(new int[] {100, 101, 102, 103}, 4, MPI.INT, 0, 8);
            }
            column.free();
            MPI.Finalize();
        }
    }
}
