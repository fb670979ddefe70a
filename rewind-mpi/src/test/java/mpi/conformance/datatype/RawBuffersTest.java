package mpi.conformance.datatype;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * Buffers are raw memory, as in Open MPI's bindings: any primitive array or NIO buffer may carry items
 * of any datatype, the count in units of the datatype, the array seen as its bytes in native order.
 * The programs work out what the bytes must be with {@code ByteBuffer}s of their own.
 */
@Tag("conformance")
class RawBuffersTest {

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void arraysOfOneTypeCarryItemsOfAnother(int ranks) {
        runOk(MixedPointToPoint.class, ranks);
    }

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void collectivesOnArraysOfAnotherType(int ranks) {
        runOk(MixedCollectives.class, ranks);
    }

    /** A scratch view of {@code bytes} bytes in native order, to compute what raw memory must hold. */
    static ByteBuffer scratch(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.nativeOrder());
    }

    public static final class MixedPointToPoint {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            int right = (me + 1) % n;
            int left = (me + n - 1) % n;

            // An int[] sent as bytes, received as bytes: the ints' native-order bytes.
            int[] ints = {me * 1000, me * 1000 + 1, -me, Integer.MAX_VALUE - me};
            byte[] got = new byte[16];
            Status st = w.sendRecv(ints, 16, MPI.BYTE, right, 1, got, 16, MPI.BYTE, left, 1);
            ByteBuffer view = ByteBuffer.wrap(got).order(ByteOrder.nativeOrder());
            int[] fromLeft = {left * 1000, left * 1000 + 1, -left, Integer.MAX_VALUE - left};
            for (int i = 0; i < 4; i++) {
                checkEq(fromLeft[i], view.getInt(4 * i), "int[] sent as MPI.BYTE, int " + i);
            }
            checkEq(4, st.getCount(MPI.INT), "16 bytes are 4 MPI.INT");
            checkEq(2, st.getCount(MPI.LONG), "16 bytes are 2 MPI.LONG");
            checkEq(8, st.getElements(MPI.CHAR), "16 bytes are 8 MPI.CHAR elements");

            // A byte[] carrying 3 MPI.INT, received into a long[]: 12 of its 16 bytes are written.
            ByteBuffer three = scratch(12).putInt(7 + me).putInt(-8).putInt(9 * me);
            long[] longs = new long[2];
            st = w.sendRecv(three.array(), 3, MPI.INT, right, 2, longs, 3, MPI.INT, left, 2);
            ByteBuffer expected =
                    scratch(16).putInt(7 + left).putInt(-8).putInt(9 * left).putInt(0);
            checkEq(expected.getLong(0), longs[0], "3 MPI.INT in a long[], first long");
            checkEq(expected.getLong(8), longs[1], "3 MPI.INT in a long[], second long");
            checkEq(MPI.UNDEFINED, st.getCount(MPI.LONG), "12 bytes are not a whole number of longs");
            checkEq(MPI.UNDEFINED, st.getElements(MPI.DOUBLE), "12 bytes end inside a double");

            // A double[] sent as MPI.CHAR, received into a char[].
            double[] doubles = {Math.PI * (me + 1), -0.5 * me};
            char[] chars = new char[8];
            w.sendRecv(doubles, 8, MPI.CHAR, right, 3, chars, 8, MPI.CHAR, left, 3);
            ByteBuffer dv = scratch(16).putDouble(Math.PI * (left + 1)).putDouble(-0.5 * left);
            for (int i = 0; i < 8; i++) {
                checkEq(dv.getChar(2 * i), chars[i], "double[] sent as MPI.CHAR, char " + i);
            }

            // A direct byte buffer carrying MPI.DOUBLE, received into a long[] as MPI.LONG: the bits.
            ByteBuffer direct = MPI.newByteBuffer(16);
            direct.putDouble(0, 1.25 + me).putDouble(8, -3e100);
            long[] bits = new long[2];
            w.sendRecv(direct, 2, MPI.DOUBLE, right, 4, bits, 2, MPI.LONG, left, 4);
            check(Double.longBitsToDouble(bits[0]) == 1.25 + left, "MPI.DOUBLE received as MPI.LONG, first");
            check(Double.longBitsToDouble(bits[1]) == -3e100, "MPI.DOUBLE received as MPI.LONG, second");

            // A struct datatype (two ints 8 bytes apart, extent 12) describing an int[].
            Datatype twoInts =
                    Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8}, new Datatype[] {MPI.INT, MPI.INT});
            twoInts.commit();
            checkEq(12, twoInts.getExtent(), "struct extent in bytes");
            int[] six = {10 + me, 11, 12 + me, 13 + me, 14, 15 + me};
            int[] picked = new int[4];
            w.sendRecv(six, 2, twoInts, right, 5, picked, 4, MPI.INT, left, 5);
            int[] wanted = {10 + left, 12 + left, 13 + left, 15 + left};
            for (int i = 0; i < 4; i++) {
                checkEq(wanted[i], picked[i], "struct over an int[], int " + i);
            }
            twoInts.free();

            // A slice of an int[] sent as bytes starts at the slice.
            int[] longer = {1, 2, 30 + me, 40 + me, 5};
            int[] two = new int[2];
            w.sendRecv(MPI.slice(longer, 2), 8, MPI.BYTE, right, 6, two, 2, MPI.INT, left, 6);
            check(two[0] == 30 + left && two[1] == 40 + left, "slice of an int[] sent as bytes");

            // boolean[] with MPI.BOOLEAN, and received as MPI.BYTE: one byte per boolean.
            boolean[] flags = {me % 2 == 0, true, false};
            boolean[] flagsIn = new boolean[3];
            w.sendRecv(flags, 3, MPI.BOOLEAN, right, 7, flagsIn, 3, MPI.BOOLEAN, left, 7);
            check(flagsIn[0] == (left % 2 == 0) && flagsIn[1] && !flagsIn[2], "boolean[] with MPI.BOOLEAN");
            byte[] flagBytes = new byte[3];
            w.sendRecv(flags, 3, MPI.BOOLEAN, right, 8, flagBytes, 3, MPI.BYTE, left, 8);
            check(
                    flagBytes[0] == (left % 2 == 0 ? 1 : 0) && flagBytes[1] == 1 && flagBytes[2] == 0,
                    "booleans as bytes");

            // Bounds are in bytes of the array: an int[2] holds 8 bytes, not 9.
            expectError(MPI.ERR_COUNT, "9 bytes from an int[2]", () -> w.send(new int[2], 9, MPI.BYTE, me, 0));
            expectError(MPI.ERR_COUNT, "3 ints into a long[1]", () -> w.recv(new long[1], 3, MPI.INT, me, 0));
            expectError(MPI.ERR_COUNT, "2 longs from a byte[15]", () -> w.send(new byte[15], 2, MPI.LONG, me, 0));
            expectError(MPI.ERR_COUNT, "5 shorts in a boolean[9]", () -> w.send(new boolean[9], 5, MPI.SHORT, me, 0));
            expectError(
                    MPI.ERR_COUNT,
                    "3 ints from a direct IntBuffer sliced to 2",
                    () -> w.send(MPI.slice(MPI.newIntBuffer(4), 2), 3, MPI.INT, me, 0));
            System.out.println("raw point to point ok");
            MPI.Finalize();
        }
    }

    public static final class MixedCollectives {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            int root = n - 1;

            // bcast of an int[] as bytes.
            int[] data = me == root ? new int[] {0x01020304, -2, root} : new int[3];
            w.bcast(data, 12, MPI.BYTE, root);
            check(data[0] == 0x01020304 && data[1] == -2 && data[2] == root, "bcast of an int[] as MPI.BYTE");

            // allReduce of MPI.INT held in a byte[].
            ByteBuffer mine = scratch(8).putInt(me + 1).putInt(-me);
            byte[] sums = new byte[8];
            w.allReduce(mine.array(), sums, 2, MPI.INT, MPI.SUM);
            ByteBuffer sv = ByteBuffer.wrap(sums).order(ByteOrder.nativeOrder());
            checkEq((long) n * (n + 1) / 2, sv.getInt(0), "allReduce of MPI.INT in a byte[], first");
            checkEq(-(long) n * (n - 1) / 2, sv.getInt(4), "allReduce of MPI.INT in a byte[], second");

            // gather of int pairs into a long[] at the root: long r holds rank r's two ints.
            long[] gathered = new long[n];
            w.gather(new int[] {me, 100 - me}, 2, MPI.INT, gathered, 2, MPI.INT, root);
            if (me == root) {
                for (int r = 0; r < n; r++) {
                    long want = scratch(8).putInt(r).putInt(100 - r).getLong(0);
                    checkEq(want, gathered[r], "gather of MPI.INT into a long[], rank " + r);
                }
            }

            // scatter from a heap IntBuffer as shorts: each rank gets one int's two halves.
            IntBuffer source = IntBuffer.allocate(n);
            for (int r = 0; r < n; r++) {
                source.put(r, (r + 1) * 65537);
            }
            short[] halves = new short[2];
            w.scatter(source, 2, MPI.SHORT, halves, 2, MPI.SHORT, 0);
            ByteBuffer hv = scratch(4).putInt((me + 1) * 65537);
            check(halves[0] == hv.getShort(0) && halves[1] == hv.getShort(2), "scatter of an IntBuffer as shorts");

            // reduceLocal of MPI.LONG held in byte arrays.
            byte[] in = scratch(8).putLong(40L + me).array();
            byte[] inout = scratch(8).putLong(2).array();
            Comm.reduceLocal(in, inout, 1, MPI.LONG, MPI.PROD);
            checkEq(
                    2 * (40L + me),
                    ByteBuffer.wrap(inout).order(ByteOrder.nativeOrder()).getLong(0),
                    "reduceLocal");
            System.out.println("raw collectives ok");
            MPI.Finalize();
        }
    }
}
