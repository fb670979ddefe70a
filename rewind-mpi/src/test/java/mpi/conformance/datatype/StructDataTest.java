package mpi.conformance.datatype;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.runOk;

import java.nio.ByteBuffer;
import mpi.Datatype;
import mpi.FloatInt;
import mpi.Intracomm;
import mpi.LongInt;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShortInt;
import mpi.Struct;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * MPI standard chapter 4 (derived datatypes) through the {@code Struct} layer of the Java bindings:
 * user structs with fields of every kind, scalar and array, nested structs and fields of a derived
 * type, sent between ranks and read back field by field; the predefined pair layouts (short, long
 * and float with an int index) under MINLOC / MAXLOC.
 */
@Tag("conformance")
class StructDataTest {

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void userStructsTravelFieldByField(int ranks) {
        runOk(UserStructs.class, ranks);
    }

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void pairLayoutsUnderMinlocAndMaxloc(int ranks) {
        runOk(PairReductions.class, ranks);
    }

    // ------------------------------------------------------------------------------------------------

    /** A point: an int id and a double weight. */
    static final class Point extends Struct {
        final int id = addInt();
        final int weight = addDouble();

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            int id() {
                return getInt(id);
            }

            double weight() {
                return getDouble(weight);
            }

            void put(int i, double w) {
                putInt(id, i);
                putDouble(weight, w);
            }
        }
    }

    /** Every kind of field, scalar and array, a nested struct and a field of a derived type. */
    static final class Record extends Struct {
        static final int N = 3;
        final Point point;
        final Datatype pairOfInts;
        final int b = addByte();
        final int bs = addByte(N);
        final int c = addChar();
        final int cs = addChar(N);
        final int s = addShort();
        final int ss = addShort(N);
        final int i = addInt();
        final int is = addInt(N);
        final int l = addLong();
        final int ls = addLong(N);
        final int f = addFloat();
        final int fs = addFloat(N);
        final int d = addDouble();
        final int ds = addDouble(N);
        final int p;
        final int ps;
        final int raw;
        final int raws;

        Record(Point point, Datatype pairOfInts) throws MPIException {
            this.point = point;
            this.pairOfInts = pairOfInts;
            p = addStruct(point);
            ps = addStruct(point, N);
            raw = addData(pairOfInts);
            raws = addData(pairOfInts, N);
        }

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            /** Fills every field from {@code seed}. */
            void fill(int seed) throws MPIException {
                putByte(b, (byte) seed);
                putChar(c, (char) ('a' + seed % 26));
                putShort(s, (short) (seed * 3));
                putInt(i, seed * 5);
                putLong(l, seed * 1_000_000_007L);
                putFloat(f, seed + 0.25f);
                putDouble(d, seed + 0.125);
                for (int k = 0; k < N; k++) {
                    putByte(bs, k, (byte) (seed + k));
                    putChar(cs, k, (char) ('A' + (seed + k) % 26));
                    putShort(ss, k, (short) (seed - k));
                    putInt(is, k, seed * 7 + k);
                    putLong(ls, k, -seed * 11L - k);
                    putFloat(fs, k, seed * 0.5f + k);
                    putDouble(ds, k, seed * 0.75 + k);
                    Point.Data pk = getData(point, ps, k);
                    pk.put(seed + 100 + k, seed * 2.5 + k);
                }
                Point.Data p0 = getData(point, p);
                p0.put(seed + 100, seed * 2.5);
                // The derived-type fields are written through their buffers.
                ByteBuffer rb = getBuffer(pairOfInts, raw);
                rb.order(java.nio.ByteOrder.nativeOrder()).putInt(0, seed).putInt(4, -seed);
                for (int k = 0; k < N; k++) {
                    ByteBuffer rk = getBuffer(pairOfInts, raws, k).order(java.nio.ByteOrder.nativeOrder());
                    rk.putInt(0, seed + k).putInt(4, seed - k);
                }
            }

            /** Checks every field against {@code seed}. */
            void verify(int seed, String what) throws MPIException {
                checkEq((byte) seed, getByte(b), what + " byte");
                checkEq('a' + seed % 26, getChar(c), what + " char");
                checkEq((short) (seed * 3), getShort(s), what + " short");
                checkEq(seed * 5, getInt(i), what + " int");
                checkEq(seed * 1_000_000_007L, getLong(l), what + " long");
                check(getFloat(f) == seed + 0.25f, what + " float");
                check(getDouble(d) == seed + 0.125, what + " double");
                for (int k = 0; k < N; k++) {
                    checkEq((byte) (seed + k), getByte(bs, k), what + " byte[" + k + "]");
                    checkEq('A' + (seed + k) % 26, getChar(cs, k), what + " char[" + k + "]");
                    checkEq((short) (seed - k), getShort(ss, k), what + " short[" + k + "]");
                    checkEq(seed * 7 + k, getInt(is, k), what + " int[" + k + "]");
                    checkEq(-seed * 11L - k, getLong(ls, k), what + " long[" + k + "]");
                    check(getFloat(fs, k) == seed * 0.5f + k, what + " float[" + k + "]");
                    check(getDouble(ds, k) == seed * 0.75 + k, what + " double[" + k + "]");
                    Point.Data pk = getData(point, ps, k);
                    checkEq(seed + 100 + k, pk.id(), what + " point[" + k + "].id");
                    check(pk.weight() == seed * 2.5 + k, what + " point[" + k + "].weight");
                    ByteBuffer rk = getBuffer(pairOfInts, raws, k).order(java.nio.ByteOrder.nativeOrder());
                    checkEq(seed + k, rk.getInt(0), what + " raw[" + k + "].0");
                    checkEq(seed - k, rk.getInt(4), what + " raw[" + k + "].1");
                }
                Point.Data p0 = getData(point, p);
                checkEq(seed + 100, p0.id(), what + " point.id");
                check(p0.weight() == seed * 2.5, what + " point.weight");
                ByteBuffer rb = getBuffer(pairOfInts, raw).order(java.nio.ByteOrder.nativeOrder());
                checkEq(seed, rb.getInt(0), what + " raw.0");
                checkEq(-seed, rb.getInt(4), what + " raw.1");
            }

            /** The int array field as a buffer, to send on its own. */
            ByteBuffer intArray() {
                return getBuffer(MPI.INT, is);
            }

            int intAt(int k) {
                return getInt(is, k);
            }
        }
    }

    public static final class UserStructs {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm world = MPI.COMM_WORLD;
            int me = world.getRank();
            int n = world.getSize();
            Datatype pairOfInts = Datatype.createContiguous(2, MPI.INT);
            pairOfInts.commit();
            Point point = new Point();
            Record rec = new Record(point, pairOfInts);
            Datatype type = rec.getType();
            int extent = rec.getExtent();
            check(extent >= Record.N * 8, "record extent covers its fields");
            checkEq(point.getExtent(), point.getType().getExtent(), "point extent agrees with its type");

            // Ring: each rank sends two records to the next one.
            int count = 2;
            ByteBuffer out = MPI.newByteBuffer(count * extent);
            for (int k = 0; k < count; k++) {
                Record.Data r = rec.getData(out, k);
                r.fill(me * 10 + k);
            }
            ByteBuffer in = MPI.newByteBuffer(count * extent);
            int next = (me + 1) % n;
            int prev = (me + n - 1) % n;
            world.sendRecv(out, count, type, next, 1, in, count, type, prev, 1);
            for (int k = 0; k < count; k++) {
                Record.Data r = rec.getData(in, k);
                r.verify(prev * 10 + k, "record " + k + " from " + prev);
            }

            // The second item's buffer on its own: the struct from that item on.
            Record.Data second = rec.getData(out, 1);
            ByteBuffer one = MPI.newByteBuffer(extent);
            world.sendRecv(second.getBuffer(), 1, type, next, 2, one, 1, type, prev, 2);
            Record.Data got = rec.getData(one);
            got.verify(prev * 10 + 1, "second item buffer from " + prev);
            // getBuffer() of the first item is the whole buffer.
            check(rec.getData(one, 0).getBuffer().capacity() == extent, "first item buffer is the buffer");

            // A field's buffer: the int array of the first record sent as plain ints.
            int[] ints = new int[Record.N];
            Record.Data first = rec.getData(out, 0);
            world.sendRecv(first.intArray(), Record.N, MPI.INT, next, 3, ints, Record.N, MPI.INT, prev, 3);
            for (int k = 0; k < Record.N; k++) {
                checkEq(prev * 10 * 7 + k, ints[k], "int array field " + k + " from " + prev);
                checkEq(me * 10 * 7 + k, first.intAt(k), "own int array field " + k);
            }

            // Structs in a byte[]: bcast from the last rank.
            byte[] arr = new byte[extent];
            if (me == n - 1) {
                Record.Data r = rec.getData(arr);
                r.fill(42);
            }
            world.bcast(arr, 1, type, n - 1);
            Record.Data r = rec.getData(arr, 0);
            r.verify(42, "bcast record");
            pairOfInts.free();
            MPI.Finalize();
        }
    }

    public static final class PairReductions {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm c = MPI.COMM_WORLD;
            int me = c.getRank();
            int n = c.getSize();

            // (short, int): values me % 3, the maximum is min(n - 1, 2) at the lowest rank holding it.
            ByteBuffer sin = MPI.newByteBuffer(MPI.shortInt.getExtent());
            ByteBuffer sout = MPI.newByteBuffer(MPI.shortInt.getExtent());
            ShortInt.Data s = MPI.shortInt.getData(sin);
            s.putValue((short) (me % 3));
            s.putIndex(me);
            checkEq(me % 3, s.getValue(), "short value written");
            checkEq(me, s.getIndex(), "short index written");
            c.allReduce(sin, sout, 1, MPI.SHORT_INT, MPI.MAXLOC);
            ShortInt.Data sr = MPI.shortInt.getData(sout);
            int maxVal = Math.min(n - 1, 2);
            checkEq(maxVal, sr.getValue(), "MAXLOC on SHORT_INT value");
            checkEq(maxVal, sr.getIndex(), "MAXLOC on SHORT_INT index");

            // (long, int): values far beyond int range, the minimum at the last rank.
            byte[] lin = new byte[2 * MPI.longInt.getExtent()];
            byte[] lout = new byte[2 * MPI.longInt.getExtent()];
            LongInt.Data l0 = MPI.longInt.getData(lin, 0);
            l0.putValue((n - me) * 10_000_000_000L);
            l0.putIndex(me * 3);
            LongInt.Data l1 = MPI.longInt.getData(lin, 1);
            l1.putValue(7L << 40);
            l1.putIndex(n - me);
            c.allReduce(lin, lout, 2, MPI.LONG_INT, MPI.MINLOC);
            LongInt.Data r0 = MPI.longInt.getData(lout, 0);
            LongInt.Data r1 = MPI.longInt.getData(lout, 1);
            checkEq(10_000_000_000L, r0.getValue(), "MINLOC on LONG_INT value");
            checkEq((n - 1) * 3, r0.getIndex(), "MINLOC on LONG_INT index");
            checkEq(7L << 40, r1.getValue(), "MINLOC on LONG_INT tie value");
            checkEq(1, r1.getIndex(), "MINLOC on LONG_INT tie takes the lowest index");

            // (float, int) reduced to a root.
            ByteBuffer fin = MPI.newByteBuffer(MPI.floatInt.getExtent());
            ByteBuffer fout = MPI.newByteBuffer(MPI.floatInt.getExtent());
            FloatInt.Data f = MPI.floatInt.getData(fin);
            f.putValue(me == n / 2 ? 99.5f : me * 0.5f);
            f.putIndex(me + 1000);
            check(f.getValue() == (me == n / 2 ? 99.5f : me * 0.5f), "float value written");
            checkEq(me + 1000, f.getIndex(), "float index written");
            int root = n - 1;
            c.reduce(fin, fout, 1, MPI.FLOAT_INT, MPI.MAXLOC, root);
            if (me == root) {
                FloatInt.Data fr = MPI.floatInt.getData(fout);
                check(fr.getValue() == 99.5f, "MAXLOC on FLOAT_INT value");
                checkEq(n / 2 + 1000, fr.getIndex(), "MAXLOC on FLOAT_INT index");
            }
            c.reduce(fin, fout, 1, MPI.FLOAT_INT, MPI.MINLOC, root);
            if (me == root) {
                FloatInt.Data fr = MPI.floatInt.getData(fout);
                float minVal = n == 1 ? 99.5f : 0f;
                int minIdx = n == 1 ? 1000 : (n / 2 == 0 ? 1 : 0) + 1000;
                check(fr.getValue() == minVal, "MINLOC on FLOAT_INT value");
                checkEq(minIdx, fr.getIndex(), "MINLOC on FLOAT_INT index");
            }
            MPI.Finalize();
        }
    }
}
