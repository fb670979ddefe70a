package mpi.conformance.datatype;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;

import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * MPI standard chapter 4: derived datatypes with negative strides and displacements and with explicit
 * lower bounds. Each program checks bounds and extents against the standard's rules (the lowest lower
 * bound and highest upper bound of the items a type places) and moves data with them between ranks.
 */
@Tag("conformance")
class DerivedDatatypesTest {

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void negativeStridesAndDisplacements(int ranks) {
        runOk(NegativeLayouts.class, ranks);
    }

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void resizedTypesAndBounds(int ranks) {
        runOk(ResizedTypes.class, ranks);
    }

    @ParameterizedTest
    @RankCounts({1, 2})
    void badLayoutsAreErrors(int ranks) {
        runOk(BadLayouts.class, ranks);
    }

    @ParameterizedTest
    @RankCounts({1, 2})
    void attributesCachedOnDatatypes(int ranks) {
        runOk(Attributes.class, ranks);
    }

    /** {@code length} ints, element {@code i} = {@code rank * 100 + i}, so each rank's data differs. */
    static int[] numbered(int rank, int length) {
        int[] a = new int[length];
        for (int i = 0; i < length; i++) {
            a[i] = rank * 100 + i;
        }
        return a;
    }

    static void checkBounds(Datatype t, int lb, int extent, int trueLb, int trueExtent, int size, String what)
            throws MPIException {
        checkEq(lb, t.getLb(), what + ": lb");
        checkEq(extent, t.getExtent(), what + ": extent");
        checkEq(trueLb, t.getTrueLb(), what + ": true lb");
        checkEq(trueExtent, t.getTrueExtent(), what + ": true extent");
        checkEq(size, t.getSize(), what + ": size");
    }

    /** Checks {@code got} against elements {@code indices} of rank {@code rank}'s numbered array. */
    static void checkPicked(int rank, int[] indices, int[] got, String what) {
        checkEq(indices.length, got.length, what + ": length");
        for (int i = 0; i < indices.length; i++) {
            checkEq(rank * 100 + indices[i], got[i], what + ", element " + i);
        }
    }

    public static final class NegativeLayouts {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            int right = (me + 1) % n;
            int left = (me + n - 1) % n;

            // A vector of stride -1 reads an array backwards from its origin.
            Datatype reverse = Datatype.createVector(5, 1, -1, MPI.INT);
            reverse.commit();
            checkBounds(reverse, -4, 5, -4, 5, 5, "vector(5, 1, -1)");
            int[] got = new int[5];
            w.sendRecv(MPI.slice(numbered(me, 5), 4), 1, reverse, right, 1, got, 5, MPI.INT, left, 1);
            checkPicked(left, new int[] {4, 3, 2, 1, 0}, got, "reversed by a negative stride");
            // Received through the same type, the data lands backwards: reversed twice is in order.
            int[] back = new int[5];
            w.sendRecv(got, 5, MPI.INT, right, 2, MPI.slice(back, 4), 1, reverse, left, 2);
            int twoLeft = (left + n - 1) % n;
            checkPicked(twoLeft, new int[] {0, 1, 2, 3, 4}, back, "received through a negative stride");

            // The same through a heap IntBuffer slice (its backing array is reachable before the slice).
            IntBuffer wrapped = IntBuffer.wrap(numbered(me, 5));
            w.sendRecv(MPI.slice(wrapped, 4), 1, reverse, right, 3, got, 5, MPI.INT, left, 3);
            checkPicked(left, new int[] {4, 3, 2, 1, 0}, got, "negative stride over an IntBuffer slice");

            // hvector: blocks of 2 ints, -12 bytes apart.
            Datatype hv = Datatype.createHVector(3, 2, -12, MPI.INT);
            hv.commit();
            checkBounds(hv, -6, 8, -6, 8, 6, "hvector(3, 2, -12 bytes)");
            got = new int[6];
            w.sendRecv(MPI.slice(numbered(me, 8), 6), 1, hv, right, 4, got, 6, MPI.INT, left, 4);
            checkPicked(left, new int[] {6, 7, 3, 4, 0, 1}, got, "hvector with a negative stride");

            // indexed with a negative displacement; two items, the second one extent (6) further on.
            Datatype idx = Datatype.createIndexed(new int[] {2, 1, 3}, new int[] {-2, 3, 0}, MPI.INT);
            idx.commit();
            checkBounds(idx, -2, 6, -2, 6, 6, "indexed {-2, 3, 0}");
            got = new int[12];
            w.sendRecv(MPI.slice(numbered(me, 12), 2), 2, idx, right, 5, got, 12, MPI.INT, left, 5);
            checkPicked(
                    left,
                    new int[] {0, 1, 5, 2, 3, 4, 6, 7, 11, 8, 9, 10},
                    got,
                    "indexed with a negative displacement");

            // hindexed with a negative byte displacement, over doubles.
            Datatype hidx = Datatype.createHIndexed(new int[] {1, 1}, new int[] {8, -8}, MPI.DOUBLE);
            hidx.commit();
            checkBounds(hidx, -1, 3, -1, 3, 2, "hindexed {8, -8} bytes");
            // Two items over a slice from index 1: doubles 2 and 0, then (3 doubles on) 5 and 3.
            double[] ds = new double[6];
            for (int i = 0; i < ds.length; i++) {
                ds[i] = i + 0.5 + me;
            }
            double[] dgot = new double[4];
            w.sendRecv(MPI.slice(ds, 1), 2, hidx, right, 6, dgot, 4, MPI.DOUBLE, left, 6);
            int[] dpicked = {2, 0, 5, 3};
            for (int i = 0; i < 4; i++) {
                check(dgot[i] == dpicked[i] + 0.5 + left, "hindexed with a negative displacement, double " + i);
            }

            // A struct with a negative displacement over an int[]: ints at bytes 0 and -8, extent 12.
            Datatype st = Datatype.createStruct(new int[] {1, 1}, new int[] {0, -8}, new Datatype[] {MPI.INT, MPI.INT});
            st.commit();
            checkBounds(st, -8, 12, -8, 12, 8, "struct {0, -8}");
            got = new int[4];
            w.sendRecv(MPI.slice(numbered(me, 6), 2), 2, st, right, 7, got, 4, MPI.INT, left, 7);
            checkPicked(left, new int[] {2, 0, 5, 3}, got, "struct with a negative displacement");

            // A collective with a negative-stride type: bcast reversed from the last rank.
            int[] bc = me == n - 1 ? numbered(me, 5) : new int[5];
            w.bcast(MPI.slice(bc, 4), 1, reverse, n - 1);
            checkPicked(n - 1, new int[] {0, 1, 2, 3, 4}, bc, "bcast through a negative stride");

            for (Datatype t : new Datatype[] {reverse, hv, idx, hidx, st}) {
                t.free();
            }
            System.out.println("negative layouts ok");
            MPI.Finalize();
        }
    }

    public static final class ResizedTypes {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int n = w.getSize();
            int right = (me + 1) % n;
            int left = (me + n - 1) % n;

            // An int with lower bound -8 bytes and extent 12: items 3 ints apart, data where it was.
            Datatype spaced = Datatype.createResized(MPI.INT, -8, 12);
            spaced.commit();
            checkBounds(spaced, -2, 3, 0, 1, 1, "resized(INT, -8, 12)");
            int[] got = new int[3];
            w.sendRecv(numbered(me, 7), 3, spaced, right, 1, got, 3, MPI.INT, left, 1);
            checkPicked(left, new int[] {0, 3, 6}, got, "resized with a negative lower bound");

            // A column of a 3x4 row-major matrix, resized to one int: consecutive columns interleave.
            Datatype column = Datatype.createVector(3, 1, 4, MPI.INT);
            Datatype col = Datatype.createResized(column, 0, 4);
            col.commit();
            checkBounds(col, 0, 1, 0, 9, 3, "resized column");
            got = new int[12];
            w.sendRecv(numbered(me, 12), 4, col, right, 2, got, 12, MPI.INT, left, 2);
            checkPicked(left, new int[] {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}, got, "transpose by resized columns");
            // Gather one column from each rank into the columns of a matrix at rank 0.
            int[] matrix = new int[3 * n];
            Datatype gcol = Datatype.createResized(Datatype.createVector(3, 1, n, MPI.INT), 0, 4);
            gcol.commit();
            w.gather(new int[] {me, me + 10, me + 20}, 3, MPI.INT, matrix, 1, gcol, 0);
            if (me == 0) {
                for (int r = 0; r < n; r++) {
                    for (int row = 0; row < 3; row++) {
                        checkEq(r + 10 * row, matrix[row * n + r], "gathered column " + r + ", row " + row);
                    }
                }
            }

            // A resized type with a positive lower bound: lb 4 bytes, the int still at 0.
            Datatype shifted = Datatype.createResized(MPI.INT, 4, 8);
            shifted.commit();
            checkBounds(shifted, 1, 2, 0, 1, 1, "resized(INT, 4, 8)");
            // A contiguous of it takes its bounds from the items' markers: lb 1, ub 1 + 2 * 3.
            Datatype three = Datatype.createContiguous(3, shifted);
            three.commit();
            checkBounds(three, 1, 6, 0, 5, 3, "contiguous(3, resized(INT, 4, 8))");
            got = new int[3];
            w.sendRecv(numbered(me, 5), 1, three, right, 3, got, 3, MPI.INT, left, 3);
            checkPicked(left, new int[] {0, 2, 4}, got, "contiguous of a resized int");

            // Indexed displacements all positive: the lower bound is the lowest one, not 0.
            Datatype idx = Datatype.createIndexed(new int[] {1, 2}, new int[] {5, 2}, MPI.INT);
            idx.commit();
            checkBounds(idx, 2, 4, 2, 4, 3, "indexed {5, 2}");
            got = new int[6];
            w.sendRecv(numbered(me, 10), 2, idx, right, 4, got, 6, MPI.INT, left, 4);
            checkPicked(left, new int[] {5, 2, 3, 9, 6, 7}, got, "indexed, two items 4 apart");

            // An empty type has bounds 0 and 0.
            Datatype empty = Datatype.createVector(0, 3, 2, MPI.INT);
            empty.commit();
            checkBounds(empty, 0, 0, 0, 0, 0, "empty vector");

            for (Datatype t : new Datatype[] {spaced, column, col, gcol, shifted, three, idx, empty}) {
                t.free();
            }
            System.out.println("resized types ok");
            MPI.Finalize();
        }
    }

    public static final class BadLayouts {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int me = w.getRank();
            Datatype reverse = Datatype.createVector(5, 1, -1, MPI.INT);
            reverse.commit();
            // From the array's start, a stride of -1 reaches 16 bytes before it.
            expectError(
                    MPI.ERR_BUFFER, "negative stride before the array", () -> w.send(new int[5], 1, reverse, me, 0));
            expectError(
                    MPI.ERR_BUFFER,
                    "negative stride before the slice",
                    () -> w.send(MPI.slice(new int[5], 3), 1, reverse, me, 0));
            // Two items: the second one is 5 ints further on, past the end.
            expectError(
                    MPI.ERR_COUNT,
                    "second item past the end",
                    () -> w.send(MPI.slice(new int[5], 4), 2, reverse, me, 0));
            // A direct buffer has nothing reachable before its index 0, even a slice of a larger one.
            expectError(
                    MPI.ERR_BUFFER,
                    "negative stride in a direct buffer slice",
                    () -> w.recv(MPI.slice(MPI.newIntBuffer(8), 4), 1, reverse, me, 0));
            // A read-only heap buffer is not taken as its backing array either.
            expectError(
                    MPI.ERR_BUFFER,
                    "negative stride in a read-only buffer slice",
                    () -> w.send(MPI.slice(IntBuffer.wrap(new int[8]), 4).asReadOnlyBuffer(), 1, reverse, me, 0));

            expectError(MPI.ERR_ARG, "lb not a multiple of the int size", () -> Datatype.createResized(MPI.INT, 2, 8));
            expectError(MPI.ERR_ARG, "negative extent", () -> Datatype.createResized(MPI.INT, 0, -4));
            expectError(
                    MPI.ERR_ARG,
                    "stride not a multiple of the int size",
                    () -> Datatype.createHVector(2, 1, -6, MPI.INT));
            expectError(
                    MPI.ERR_ARG,
                    "displacement not a multiple of the double size",
                    () -> Datatype.createHIndexed(new int[] {1}, new int[] {-4}, MPI.DOUBLE));
            expectError(
                    MPI.ERR_ARG,
                    "lengths and displacements differ",
                    () -> Datatype.createIndexed(new int[] {1, 1}, new int[] {-1}, MPI.INT));
            expectError(MPI.ERR_COUNT, "negative block length", () -> Datatype.createVector(2, -1, -3, MPI.INT));
            expectError(MPI.ERR_TYPE, "null old type", () -> Datatype.createVector(2, 1, -3, null));
            reverse.free();
            System.out.println("bad layouts ok");
            MPI.Finalize();
        }
    }

    /** Attributes cached on a derived and a predefined datatype, with keys of their own. */
    public static final class Attributes {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int a = Datatype.createKeyval();
            int b = Datatype.createKeyval();
            check(a != b, "two keys differ");
            Datatype pair = Datatype.createContiguous(2, MPI.INT);
            check(pair.getAttr(a) == null, "no attribute before one is set");
            pair.setAttr(a, "pair of ints");
            pair.setAttr(b, 42);
            MPI.DOUBLE.setAttr(a, "a double");
            check("pair of ints".equals(pair.getAttr(a)), "attribute a on the derived type");
            checkEq(42, (Integer) pair.getAttr(b), "attribute b on the derived type");
            check("a double".equals(MPI.DOUBLE.getAttr(a)), "attribute a on a predefined type");
            check(MPI.INT.getAttr(a) == null, "another type does not see it");
            pair.deleteAttr(a);
            check(pair.getAttr(a) == null, "a deleted attribute is gone");
            checkEq(42, (Integer) pair.getAttr(b), "the other attribute stays");
            MPI.DOUBLE.deleteAttr(a);
            Datatype.freeKeyval(a);
            Datatype.freeKeyval(b);
            pair.free();
            MPI.COMM_WORLD.barrier();
            MPI.Finalize();
        }
    }
}
