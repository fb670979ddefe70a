package mpi.conformance.env;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.DoubleComplex;
import mpi.FloatComplex;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Status;
import mpi.UserFunction;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * MPI standard chapters 6, 8 and 9 (naming, caching, info objects, error handling) and the buffer
 * helpers of the Java bindings: info objects, names of communicators and datatypes, attributes,
 * raising errors through a communicator's handler, user exceptions, operator lifetime, direct buffers
 * and their slices, complex-number views.
 */
@Tag("conformance")
class InfoAndNamesTest {

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void infoObjects(int ranks) {
        runOk(InfoObjects.class, ranks);
    }

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void namesAttributesAndErrors(int ranks) {
        runOk(NamesAttributesErrors.class, ranks);
    }

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void buffersSlicesAndComplexViews(int ranks) {
        runOk(BuffersAndSlices.class, ranks);
    }

    // ------------------------------------------------------------------------------------------------

    public static final class InfoObjects {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int me = MPI.COMM_WORLD.getRank();
            Info info = new Info();
            check(!info.isNull(), "a new info is not null");
            checkEq(0, info.size(), "a new info is empty");
            info.set("alpha", "1");
            info.set("beta", "rank" + me);
            info.set("gamma", "3");
            checkEq(3, info.size(), "three keys");
            check("alpha".equals(info.getKey(0)), "key 0");
            check("beta".equals(info.getKey(1)), "key 1");
            check("gamma".equals(info.getKey(2)), "key 2");
            check(("rank" + me).equals(info.get("beta")), "value of beta");
            check(info.get("delta") == null, "absent key has no value");
            info.set("alpha", "one");
            checkEq(3, info.size(), "setting a key again replaces it");
            check("one".equals(info.get("alpha")), "replaced value");
            expectError(MPI.ERR_ARG, "key index out of range", () -> info.getKey(3));

            Info copy = info.dup();
            Info other = info.clone();
            info.delete("beta");
            checkEq(2, info.size(), "delete removes a key");
            check(info.get("beta") == null, "deleted key");
            check("gamma".equals(info.getKey(1)), "keys after delete keep their order");
            expectError(MPI.ERR_INFO_NOKEY, "delete an absent key", () -> info.delete("beta"));
            checkEq(3, copy.size(), "dup is independent");
            check(("rank" + me).equals(copy.get("beta")), "dup keeps values");
            checkEq(3, other.size(), "clone is independent");
            check("one".equals(other.get("alpha")), "clone keeps values");

            // Info passed to communicator calls: hints are accepted.
            Intracomm d = MPI.COMM_WORLD.dupWithInfo(copy);
            d.setInfo(copy);
            Info got = d.getInfo();
            check(got != null && !got.isNull(), "getInfo gives an info object");
            got.free();
            checkEq(MPI.COMM_WORLD.getSize(), d.getSize(), "dupWithInfo size");
            d.free();

            info.free();
            check(info.isNull(), "a freed info is null");
            expectError(MPI.ERR_INFO, "use of a freed info", () -> info.size());
            Info cloneOfFreed = info.clone();
            check(cloneOfFreed.isNull(), "clone of a freed info is null");
            copy.free();
            other.free();
            MPI.Finalize();
        }
    }

    public static final class NamesAttributesErrors {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm world = MPI.COMM_WORLD;
            int me = world.getRank();
            int n = world.getSize();

            // Communicator names.
            Intracomm d = world.dup();
            d.setName("workers-" + (me % 2));
            check(("workers-" + (me % 2)).equals(d.getName()), "communicator name");
            check(world.getName() != null, "COMM_WORLD has a name");

            // Attributes: set, get, replace, delete.
            int key = Comm.createKeyval();
            d.setAttr(key, "value" + me);
            check(("value" + me).equals(d.getAttr(key)), "attribute set");
            d.setAttr(key, me * 10);
            checkEq(me * 10, (Integer) d.getAttr(key), "attribute replaced");
            d.deleteAttr(key);
            check(d.getAttr(key) == null, "attribute deleted");
            d.deleteAttr(key); // deleting an absent attribute is harmless
            Comm.freeKeyval(key);

            // Raising an error through the handler: ERRORS_RETURN makes it an exception.
            d.setErrhandler(MPI.ERRORS_RETURN);
            expectError(MPI.ERR_ARG, "callErrhandler ERR_ARG", () -> d.callErrhandler(MPI.ERR_ARG));
            expectError(MPI.ERR_OTHER, "callErrhandler ERR_OTHER", () -> d.callErrhandler(MPI.ERR_OTHER));
            // The communicator still works.
            int[] sum = new int[1];
            d.allReduce(new int[] {me + 1}, sum, 1, MPI.INT, MPI.SUM);
            checkEq((long) n * (n + 1) / 2, sum[0], "allReduce after raised errors");
            d.free();

            // Datatype names, dup and clone.
            check(MPI.INT.getName() != null, "predefined type has a name");
            Datatype t = Datatype.createContiguous(2, MPI.INT);
            t.commit();
            t.setName("pair");
            check("pair".equals(t.getName()), "datatype name");
            Datatype u = t.dup();
            Datatype v = t.clone();
            checkEq(t.getExtent(), u.getExtent(), "dup keeps the extent");
            checkEq(t.getSize(), v.getSize(), "clone keeps the size");
            u.setName("pair-dup");
            check("pair".equals(t.getName()), "renaming the dup leaves the original");
            check("pair-dup".equals(u.getName()), "dup name");
            int[] out = {me, -me, 2 * me, -2 * me};
            int[] in = new int[4];
            int next = (me + 1) % n;
            int prev = (me + n - 1) % n;
            Status st = world.sendRecv(out, 2, u, next, 5, in, 2, v, prev, 5);
            checkEq(MPI.SUCCESS, st.getError(), "status error of a successful receive");
            checkEq(4, st.getCount(MPI.INT), "received ints");
            int[] expected = {prev, -prev, 2 * prev, -2 * prev};
            for (int k = 0; k < 4; k++) {
                checkEq(expected[k], in[k], "through dup and clone of a datatype, int " + k);
            }
            u.free();
            v.free();
            t.free();

            // User operator lifetime.
            Op max = new Op(
                    new UserFunction() {
                        @Override
                        public void call(Object in1, Object inOut, int count, Datatype type) {
                            int[] a = (int[]) in1;
                            int[] b = (int[]) inOut;
                            for (int k = 0; k < count; k++) {
                                b[k] = Math.max(a[k], b[k]);
                            }
                        }
                    },
                    true);
            check(!max.isNull(), "a new operator is not null");
            int[] m = new int[1];
            world.allReduce(new int[] {(me * 7) % n}, m, 1, MPI.INT, max);
            int expect = 0;
            for (int r = 0; r < n; r++) {
                expect = Math.max(expect, (r * 7) % n);
            }
            checkEq(expect, m[0], "user max");
            max.free();
            check(max.isNull(), "a freed operator is null");
            check(!MPI.SUM.isNull(), "predefined operator is not null");
            expectError(MPI.ERR_OP, "freeing a predefined operator", () -> MPI.SUM.free());

            // A user function implementing neither form.
            UserFunction none = new UserFunction() {};
            boolean threw = false;
            try {
                none.call(new int[1], new int[1], 1, MPI.INT);
            } catch (UnsupportedOperationException e) {
                threw = true;
            }
            check(threw, "a user function without a call form refuses the call");

            // User exceptions.
            MPIException e1 = new MPIException("custom failure");
            check("custom failure".equals(e1.getMessage()), "message of a user exception");
            checkEq(MPI.ERR_OTHER, e1.getErrorClass(), "class of a user exception");
            IllegalStateException cause = new IllegalStateException("root cause");
            MPIException e2 = new MPIException(cause);
            check(e2.getCause() == cause, "cause of a user exception");
            checkEq(MPI.ERR_OTHER, e2.getErrorCode(), "code of a user exception");

            // Profiling control and the library version.
            MPI.pControl(1, null);
            MPI.pControl(0, "ignored");
            String lib = MPI.getLibVersion();
            check(lib != null && !lib.isEmpty(), "library version");
            MPI.Finalize();
        }
    }

    public static final class BuffersAndSlices {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm world = MPI.COMM_WORLD;
            int me = world.getRank();
            int n = world.getSize();
            int next = (me + 1) % n;
            int prev = (me + n - 1) % n;

            // Direct buffers of chars, shorts and floats, sent in slices.
            CharBuffer cb = MPI.newCharBuffer(6);
            ShortBuffer sb = MPI.newShortBuffer(6);
            FloatBuffer fb = MPI.newFloatBuffer(6);
            check(cb.isDirect() && sb.isDirect() && fb.isDirect(), "direct buffers");
            for (int k = 0; k < 6; k++) {
                cb.put(k, (char) ('a' + me + k));
                sb.put(k, (short) (me * 100 + k));
                fb.put(k, me + k * 0.5f);
            }
            CharBuffer cr = MPI.newCharBuffer(6);
            ShortBuffer sr = MPI.newShortBuffer(6);
            FloatBuffer fr = MPI.newFloatBuffer(6);
            // Send elements 2..5 into elements 1..4 of the receivers.
            world.sendRecv(MPI.slice(cb, 2), 4, MPI.CHAR, next, 1, MPI.slice(cr, 1), 4, MPI.CHAR, prev, 1);
            world.sendRecv(MPI.slice(sb, 2), 4, MPI.SHORT, next, 2, MPI.slice(sr, 1), 4, MPI.SHORT, prev, 2);
            world.sendRecv(MPI.slice(fb, 2), 4, MPI.FLOAT, next, 3, MPI.slice(fr, 1), 4, MPI.FLOAT, prev, 3);
            for (int k = 0; k < 4; k++) {
                checkEq('a' + prev + k + 2, cr.get(k + 1), "char slice " + k);
                checkEq(prev * 100 + k + 2, sr.get(k + 1), "short slice " + k);
                check(fr.get(k + 1) == prev + (k + 2) * 0.5f, "float slice " + k);
            }
            checkEq(0, cr.get(0), "char before the slice untouched");
            checkEq(0, sr.get(5), "short after the slice untouched");

            // Long buffer slices and array slices.
            LongBuffer lb = MPI.newLongBuffer(4);
            for (int k = 0; k < 4; k++) {
                lb.put(k, (long) me << 33 | k);
            }
            long[] la = new long[4];
            world.sendRecv(MPI.slice(lb, 1), 3, MPI.LONG, next, 4, MPI.slice(la, 1), 3, MPI.LONG, prev, 4);
            checkEq(0, la[0], "long array before the slice");
            for (int k = 1; k < 4; k++) {
                checkEq((long) prev << 33 | k, la[k], "long slice " + k);
            }
            byte[] ba = new byte[5];
            char[] ca = new char[5];
            short[] sa = new short[5];
            float[] fa = new float[5];
            byte[] bo = {(byte) me, (byte) (me + 1), (byte) (me + 2)};
            char[] co = {(char) ('x' + me % 2), 'y', 'z'};
            short[] so = {(short) -me, 7, 8};
            float[] fo = {me * 1.5f, 2f, 3f};
            world.sendRecv(bo, 3, MPI.BYTE, next, 5, MPI.slice(ba, 2), 3, MPI.BYTE, prev, 5);
            world.sendRecv(co, 3, MPI.CHAR, next, 6, MPI.slice(ca, 2), 3, MPI.CHAR, prev, 6);
            world.sendRecv(so, 3, MPI.SHORT, next, 7, MPI.slice(sa, 2), 3, MPI.SHORT, prev, 7);
            world.sendRecv(fo, 3, MPI.FLOAT, next, 8, MPI.slice(fa, 2), 3, MPI.FLOAT, prev, 8);
            checkEq(0, ba[1], "byte array before the slice");
            checkEq((byte) (prev + 2), ba[4], "byte array slice");
            checkEq('x' + prev % 2, ca[2], "char array slice");
            checkEq(-prev, sa[2], "short array slice");
            check(fa[2] == prev * 1.5f && fa[4] == 3f, "float array slice");

            // Complex views over buffers and arrays.
            DoubleBuffer db = MPI.newDoubleBuffer(4);
            DoubleComplex z = DoubleComplex.get(db);
            z.putReal(me);
            z.putImag(-me);
            ByteBuffer bb = MPI.newByteBuffer(32);
            DoubleComplex z0 = DoubleComplex.get(bb);
            DoubleComplex z1 = DoubleComplex.get(bb, 1);
            z0.putReal(1.5);
            z1.putImag(me + 0.25);
            ByteBuffer rb = MPI.newByteBuffer(32);
            world.sendRecv(bb, 2, MPI.DOUBLE_COMPLEX, next, 9, rb, 2, MPI.DOUBLE_COMPLEX, prev, 9);
            check(DoubleComplex.get(rb).getReal() == 1.5, "double complex 0 real");
            check(DoubleComplex.get(rb, 1).getImag() == prev + 0.25, "double complex 1 imag");
            check(db.get(0) == me && db.get(1) == -me, "double complex over a double buffer");
            FloatBuffer fcb = MPI.newFloatBuffer(4);
            FloatComplex w1 = FloatComplex.get(fcb, 1);
            w1.putReal(me + 0.5f);
            w1.putImag(2f);
            float[] fca = new float[4];
            world.sendRecv(fcb, 2, MPI.FLOAT_COMPLEX, next, 10, fca, 2, MPI.FLOAT_COMPLEX, prev, 10);
            FloatComplex w = FloatComplex.get(fca);
            check(w.getReal() == 0f && w.getImag() == 0f, "float complex 0");
            check(fca[2] == prev + 0.5f && fca[3] == 2f, "float complex 1");
            MPI.Finalize();
        }
    }
}
