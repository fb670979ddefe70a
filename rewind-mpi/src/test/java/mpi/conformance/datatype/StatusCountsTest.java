package mpi.conformance.datatype;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;

import mpi.Comm;
import mpi.Count;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * MPI standard 3.2.5 and 4.1.11: counts and basic elements in a status, {@code MPI.UNDEFINED} when the
 * received bytes are not a whole number of items (or end inside a basic element), and the status
 * setters. Each rank receives from its left neighbour messages of known lengths.
 */
@Tag("conformance")
class StatusCountsTest {

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void countsElementsAndSetters(int ranks) {
        runOk(StatusCounts.class, ranks);
    }

    public static final class StatusCounts {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            int right = (me + 1) % n;
            int left = (me + n - 1) % n;
            Datatype twoInts = Datatype.createContiguous(2, MPI.INT);
            twoInts.commit();

            // 12 bytes: 3 ints, 6 shorts; not a whole number of longs or of int pairs.
            Status s = w.sendRecv(new int[] {me, me, me}, 3, MPI.INT, right, 1, new byte[64], 64, MPI.BYTE, left, 1);
            checkEq(left, s.getSource(), "source");
            checkEq(3, s.getCount(MPI.INT), "count of ints");
            checkEq(6, s.getElements(MPI.SHORT), "elements of shorts");
            checkEq(MPI.UNDEFINED, s.getCount(MPI.LONG), "count of longs");
            checkEq(MPI.UNDEFINED, s.getElements(MPI.LONG), "elements of longs");
            checkEq(MPI.UNDEFINED, s.getCount(twoInts), "count of int pairs");
            checkEq(3, s.getElements(twoInts), "elements of int pairs");
            checkEq(3, s.getElementsX(MPI.INT).getCount(), "getElementsX");

            // MINLOC/MAXLOC pairs count two basic elements each; one double alone is one.
            byte[] pairs = new byte[2 * 16];
            s = w.sendRecv(new byte[32], 2, MPI.DOUBLE_INT, right, 2, pairs, 2, MPI.DOUBLE_INT, left, 2);
            checkEq(2, s.getCount(MPI.DOUBLE_INT), "count of double-int pairs");
            checkEq(4, s.getElements(MPI.DOUBLE_INT), "elements of double-int pairs");
            s = w.sendRecv(new double[] {1.5}, 1, MPI.DOUBLE, right, 3, pairs, 2, MPI.DOUBLE_INT, left, 3);
            checkEq(MPI.UNDEFINED, s.getCount(MPI.DOUBLE_INT), "a double alone is no double-int pair");
            checkEq(1, s.getElements(MPI.DOUBLE_INT), "a double alone is one basic element");

            // A complex number is one basic element (a predefined type): 3 doubles end inside one.
            s = w.sendRecv(new double[6], 3, MPI.DOUBLE, right, 4, new double[8], 4, MPI.DOUBLE_COMPLEX, left, 4);
            checkEq(MPI.UNDEFINED, s.getCount(MPI.DOUBLE_COMPLEX), "3 doubles are not whole complex numbers");
            checkEq(MPI.UNDEFINED, s.getElements(MPI.DOUBLE_COMPLEX), "3 doubles end inside a complex number");
            s = w.sendRecv(new float[4], 4, MPI.FLOAT, right, 6, new float[8], 4, MPI.FLOAT_COMPLEX, left, 6);
            checkEq(2, s.getElements(MPI.FLOAT_COMPLEX), "4 floats are 2 complex numbers");

            // An empty message counts 0 of anything.
            s = w.sendRecv(new int[0], 0, MPI.INT, right, 5, new long[1], 1, MPI.LONG, left, 5);
            checkEq(0, s.getCount(MPI.LONG), "empty count");
            checkEq(0, s.getElements(twoInts), "empty elements");

            // Setters.
            s.setElements(MPI.INT, 5);
            checkEq(5, s.getCount(MPI.INT), "count after setElements(INT, 5)");
            checkEq(20, s.getCount(MPI.BYTE), "bytes after setElements(INT, 5)");
            checkEq(MPI.UNDEFINED, s.getCount(twoInts), "pairs after setElements(INT, 5)");
            s.setElementsX(MPI.DOUBLE, new Count(3));
            checkEq(3, s.getElementsX(MPI.DOUBLE).getCount(), "elements after setElementsX(DOUBLE, 3)");
            checkEq(24, s.getCount(MPI.BYTE), "bytes after setElementsX(DOUBLE, 3)");
            s.setElements(MPI.DOUBLE_INT, 3);
            checkEq(3, s.getElements(MPI.DOUBLE_INT), "elements after setElements(DOUBLE_INT, 3)");
            checkEq(MPI.UNDEFINED, s.getCount(MPI.DOUBLE_INT), "count after setElements(DOUBLE_INT, 3)");
            s.setElements(MPI.DOUBLE_COMPLEX, 4);
            checkEq(4, s.getCount(MPI.DOUBLE_COMPLEX), "count after setElements(DOUBLE_COMPLEX, 4)");
            checkEq(64, s.getCount(MPI.BYTE), "bytes after setElements(DOUBLE_COMPLEX, 4)");
            check(!s.isCancelled(), "not cancelled");
            s.setCancelled(true);
            check(s.isCancelled(), "setCancelled(true)");
            s.setCancelled(false);
            check(!s.isCancelled(), "setCancelled(false)");
            Status t = s;
            expectError(MPI.ERR_COUNT, "negative element count", () -> t.setElements(MPI.INT, -1));
            expectError(MPI.ERR_TYPE, "freed datatype", () -> {
                Datatype gone = Datatype.createContiguous(1, MPI.INT);
                gone.commit();
                gone.free();
                t.setElements(gone, 1);
            });

            // Count compares and equals by value.
            check(new Count(4).equals(new Count(4)) && !new Count(4).equals(new Count(5)), "Count.equals");
            check(new Count(-1).compareTo(new Count(2)) < 0 && new Count(9).compareTo(new Count(9)) == 0, "compareTo");
            Count c = new Count(1);
            c.setCount(7);
            checkEq(7, c.getCount(), "Count.setCount");
            twoInts.free();
            System.out.println("status counts ok");
            MPI.Finalize();
        }
    }
}
