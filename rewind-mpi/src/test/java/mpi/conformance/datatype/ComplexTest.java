package mpi.conformance.datatype;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.DoubleComplex;
import mpi.FloatComplex;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * {@code MPI.FLOAT_COMPLEX} and {@code MPI.DOUBLE_COMPLEX} in reductions (SUM, and PROD as complex
 * multiplication), and the {@link FloatComplex}/{@link DoubleComplex} views. The parts are small
 * integers, so every result is exact in float and double whatever order ranks are combined in; the
 * programs compute the expected values in {@code long} arithmetic.
 */
@Tag("conformance")
class ComplexTest {

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void complexReductions(int ranks) {
        runOk(ComplexReductions.class, ranks);
    }

    @ParameterizedTest
    @RankCounts({1})
    void complexViews(int ranks) {
        runOk(ComplexViews.class, ranks);
    }

    /** A complex number with integer parts, for the expected values. */
    record Z(long re, long im) {
        static final Z ONE = new Z(1, 0);
        static final Z ZERO = new Z(0, 0);

        Z plus(Z o) {
            return new Z(re + o.re, im + o.im);
        }

        Z times(Z o) {
            return new Z(re * o.re - im * o.im, re * o.im + im * o.re);
        }
    }

    /** Rank {@code r}'s item {@code k} for sums. */
    static Z sumItem(int r, int k) {
        return new Z(r + 1 + k, k - 2L * r);
    }

    /** Rank {@code r}'s item {@code k} for products: parts in {1, 2} and {-1, 0, 1}, to stay small. */
    static Z prodItem(int r, int k) {
        return new Z(1 + (r + k) % 2, (r + k) % 3 - 1);
    }

    interface Item {
        Z at(int rank, int k);
    }

    /** Sum (or product) of item {@code k} over ranks {@code from} to {@code to} (exclusive). */
    static Z combine(Item item, boolean product, int from, int to, int k) {
        Z acc = product ? Z.ONE : Z.ZERO;
        for (int r = from; r < to; r++) {
            acc = product ? acc.times(item.at(r, k)) : acc.plus(item.at(r, k));
        }
        return acc;
    }

    static double[] doubles(Item item, int rank, int m) {
        double[] a = new double[2 * m];
        for (int k = 0; k < m; k++) {
            DoubleComplex z = DoubleComplex.get(a, k);
            z.putReal(item.at(rank, k).re());
            z.putImag(item.at(rank, k).im());
        }
        return a;
    }

    static float[] floats(Item item, int rank, int m) {
        float[] a = new float[2 * m];
        for (int k = 0; k < m; k++) {
            FloatComplex z = FloatComplex.get(a, k);
            z.putReal(item.at(rank, k).re());
            z.putImag(item.at(rank, k).im());
        }
        return a;
    }

    static void checkZ(Z want, double re, double im, String what) {
        check(want.re() == re && want.im() == im, what + ": expected " + want + " but was (" + re + ", " + im + ")");
    }

    public static final class ComplexReductions {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            int m = 3;

            // allReduce SUM and PROD, double and float.
            double[] dsum = new double[2 * m];
            w.allReduce(doubles(ComplexTest::sumItem, me, m), dsum, m, MPI.DOUBLE_COMPLEX, MPI.SUM);
            double[] dprod = new double[2 * m];
            w.allReduce(doubles(ComplexTest::prodItem, me, m), dprod, m, MPI.DOUBLE_COMPLEX, MPI.PROD);
            float[] fsum = new float[2 * m];
            w.allReduce(floats(ComplexTest::sumItem, me, m), fsum, m, MPI.FLOAT_COMPLEX, MPI.SUM);
            float[] fprod = floats(ComplexTest::prodItem, me, m);
            w.allReduce(fprod, m, MPI.FLOAT_COMPLEX, MPI.PROD); // in place
            for (int k = 0; k < m; k++) {
                Z s = combine(ComplexTest::sumItem, false, 0, n, k);
                Z p = combine(ComplexTest::prodItem, true, 0, n, k);
                DoubleComplex ds = DoubleComplex.get(dsum, k);
                checkZ(s, ds.getReal(), ds.getImag(), "allReduce SUM double complex " + k);
                DoubleComplex dp = DoubleComplex.get(dprod, k);
                checkZ(p, dp.getReal(), dp.getImag(), "allReduce PROD double complex " + k);
                FloatComplex fs = FloatComplex.get(fsum, k);
                checkZ(s, fs.getReal(), fs.getImag(), "allReduce SUM float complex " + k);
                FloatComplex fp = FloatComplex.get(fprod, k);
                checkZ(p, fp.getReal(), fp.getImag(), "in-place allReduce PROD float complex " + k);
            }

            // reduce PROD to the last rank, float complex in direct byte buffers.
            ByteBuffer in = MPI.newByteBuffer(8 * m);
            for (int k = 0; k < m; k++) {
                FloatComplex z = FloatComplex.get(in, k);
                z.putReal(prodItem(me, k).re());
                z.putImag(prodItem(me, k).im());
            }
            ByteBuffer out = MPI.newByteBuffer(8 * m);
            w.reduce(in, out, m, MPI.FLOAT_COMPLEX, MPI.PROD, n - 1);
            if (me == n - 1) {
                for (int k = 0; k < m; k++) {
                    FloatComplex z = FloatComplex.get(out, k);
                    checkZ(combine(ComplexTest::prodItem, true, 0, n, k), z.getReal(), z.getImag(), "reduce PROD " + k);
                }
            }

            // scan PROD and exScan SUM, double complex.
            double[] scanned = new double[2 * m];
            w.scan(doubles(ComplexTest::prodItem, me, m), scanned, m, MPI.DOUBLE_COMPLEX, MPI.PROD);
            double[] exScanned = new double[2 * m];
            w.exScan(doubles(ComplexTest::sumItem, me, m), exScanned, m, MPI.DOUBLE_COMPLEX, MPI.SUM);
            for (int k = 0; k < m; k++) {
                DoubleComplex z = DoubleComplex.get(scanned, k);
                checkZ(combine(ComplexTest::prodItem, true, 0, me + 1, k), z.getReal(), z.getImag(), "scan PROD " + k);
                if (me > 0) {
                    DoubleComplex e = DoubleComplex.get(exScanned, k);
                    checkZ(combine(ComplexTest::sumItem, false, 0, me, k), e.getReal(), e.getImag(), "exScan SUM " + k);
                }
            }

            // reduceScatterBlock PROD: rank r gets the product of everyone's item r.
            float[] mine = new float[2];
            w.reduceScatterBlock(floats(ComplexTest::prodItem, me, n), mine, 1, MPI.FLOAT_COMPLEX, MPI.PROD);
            checkZ(combine(ComplexTest::prodItem, true, 0, n, me), mine[0], mine[1], "reduceScatterBlock PROD");

            // A contiguous type of two complex numbers reduces as complex numbers.
            Datatype twoComplex = Datatype.createContiguous(2, MPI.DOUBLE_COMPLEX);
            twoComplex.commit();
            double[] pairProd = new double[4];
            w.allReduce(doubles(ComplexTest::prodItem, me, 2), pairProd, 1, twoComplex, MPI.PROD);
            for (int k = 0; k < 2; k++) {
                checkZ(
                        combine(ComplexTest::prodItem, true, 0, n, k),
                        pairProd[2 * k],
                        pairProd[2 * k + 1],
                        "PROD over a contiguous of complex numbers " + k);
            }
            twoComplex.free();

            // reduceLocal: (3 - i) * (1 + 2i) = 5 + 5i; (3 - i) + (1 + 2i) = 4 + i.
            double[] io = {1, 2};
            Comm.reduceLocal(new double[] {3, -1}, io, 1, MPI.DOUBLE_COMPLEX, MPI.PROD);
            checkZ(new Z(5, 5), io[0], io[1], "reduceLocal PROD");
            float[] fio = {1, 2};
            Comm.reduceLocal(new float[] {3, -1}, fio, 1, MPI.FLOAT_COMPLEX, MPI.SUM);
            checkZ(new Z(4, 1), fio[0], fio[1], "reduceLocal SUM");

            // Complex numbers have no order and no logic.
            for (Op op : new Op[] {MPI.MAX, MPI.MIN, MPI.LAND, MPI.BOR, MPI.MAXLOC}) {
                expectError(
                        MPI.ERR_OP,
                        op + " on complex numbers",
                        () -> Comm.reduceLocal(new double[2], new double[2], 1, MPI.DOUBLE_COMPLEX, op));
                expectError(
                        MPI.ERR_OP,
                        op + " on complex numbers in allReduce",
                        () -> w.allReduce(new float[2], new float[2], 1, MPI.FLOAT_COMPLEX, op));
            }
            System.out.println("complex reductions ok");
            MPI.Finalize();
        }
    }

    public static final class ComplexViews {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            double[] a = {1, 2, 3, 4, 5, 6};
            DoubleComplex second = DoubleComplex.get(a, 1);
            check(second.getReal() == 3 && second.getImag() == 4, "DoubleComplex over an array");
            second.putImag(-4);
            check(a[3] == -4, "putImag writes the array");
            DoubleBuffer rest = second.getBuffer();
            check(rest.get(0) == 3 && rest.get(1) == -4 && rest.get(2) == 5, "getBuffer starts at the number");
            DoubleComplex third = DoubleComplex.get(DoubleBuffer.wrap(a), 2);
            third.putReal(50);
            check(a[4] == 50 && third.getImag() == 6, "DoubleComplex over a DoubleBuffer");
            check(DoubleComplex.get(a).getReal() == 1, "first number");

            ByteBuffer bytes = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
            FloatComplex f = FloatComplex.get(bytes, 1);
            f.putReal(7.5f);
            f.putImag(-1.25f);
            check(bytes.getFloat(8) == 7.5f && bytes.getFloat(12) == -1.25f, "FloatComplex over a byte buffer");
            check(FloatComplex.get(bytes).getReal() == 0, "first number of the byte buffer");
            float[] fa = {1, 2, 3, 4};
            FloatComplex g = FloatComplex.get(fa, 1);
            check(g.getBuffer().get(0) == 3 && g.getBuffer().capacity() == 2, "FloatComplex.getBuffer");
            check(FloatComplex.get(java.nio.FloatBuffer.wrap(fa)).getImag() == 2, "FloatComplex over a FloatBuffer");
            System.out.println("complex views ok");
            MPI.Finalize();
        }
    }
}
