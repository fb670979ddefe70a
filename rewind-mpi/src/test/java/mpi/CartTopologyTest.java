package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The grid arithmetic behind {@link CartComm}, against values computed here independently. */
class CartTopologyTest {

    private static CartTopology grid(int[] dims, boolean... periods) throws MPIException {
        return CartTopology.of(dims, periods);
    }

    @Test
    void coordinatesAndRanksRoundTripInRowMajorOrder() throws MPIException {
        int[] dims = {3, 4, 2};
        CartTopology t = grid(dims, false, true, false);
        assertEquals(24, t.size());
        int rank = 0;
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 4; b++) {
                for (int c = 0; c < 2; c++) {
                    assertArrayEquals(new int[] {a, b, c}, t.coordsOf(rank));
                    assertEquals(rank, t.rankOf(new int[] {a, b, c}));
                    rank++;
                }
            }
        }
        // the periodic dimension wraps, the others do not
        assertEquals(t.rankOf(new int[] {1, 3, 0}), t.rankOf(new int[] {1, -1, 0}));
        assertEquals(t.rankOf(new int[] {1, 1, 0}), t.rankOf(new int[] {1, 9, 0}));
        assertEquals(
                MPI.ERR_ARG,
                assertThrows(MPIException.class, () -> t.rankOf(new int[] {3, 0, 0}))
                        .getErrorClass());
        assertEquals(
                MPI.ERR_ARG,
                assertThrows(MPIException.class, () -> t.rankOf(new int[] {0, 0}))
                        .getErrorClass());
        assertEquals(
                MPI.ERR_RANK,
                assertThrows(MPIException.class, () -> t.coordsOf(24)).getErrorClass());
        assertEquals(
                MPI.ERR_RANK,
                assertThrows(MPIException.class, () -> t.coordsOf(-1)).getErrorClass());
    }

    @Test
    void shiftsWrapInPeriodicDimensionsAndStopAtEdgesOfTheOthers() throws MPIException {
        // 3 x 4, rows not periodic, columns periodic; rank = row * 4 + col
        CartTopology t = grid(new int[] {3, 4}, false, true);
        for (int r = 0; r < 12; r++) {
            int row = r / 4;
            int col = r % 4;
            for (int disp = -5; disp <= 5; disp++) {
                int[] rows = t.shift(r, 0, disp);
                int src = row - disp;
                int dst = row + disp;
                assertEquals(
                        src >= 0 && src < 3 ? src * 4 + col : MPI.PROC_NULL, rows[0], "source r=" + r + " d=" + disp);
                assertEquals(
                        dst >= 0 && dst < 3 ? dst * 4 + col : MPI.PROC_NULL, rows[1], "dest r=" + r + " d=" + disp);
                int[] cols = t.shift(r, 1, disp);
                assertEquals(row * 4 + Math.floorMod(col - disp, 4), cols[0]);
                assertEquals(row * 4 + Math.floorMod(col + disp, 4), cols[1]);
            }
        }
        assertEquals(
                MPI.ERR_DIMS,
                assertThrows(MPIException.class, () -> t.shift(0, 2, 1)).getErrorClass());
        assertEquals(
                MPI.ERR_DIMS,
                assertThrows(MPIException.class, () -> t.shift(0, -1, 1)).getErrorClass());
    }

    @Test
    void badGridsAreRejected() {
        assertEquals(
                MPI.ERR_ARG,
                assertThrows(MPIException.class, () -> grid(new int[] {2, 2}, true))
                        .getErrorClass());
        assertEquals(
                MPI.ERR_DIMS,
                assertThrows(MPIException.class, () -> grid(new int[] {2, 0}, true, true))
                        .getErrorClass());
        assertEquals(
                MPI.ERR_DIMS,
                assertThrows(MPIException.class, () -> grid(new int[] {-2}, true))
                        .getErrorClass());
        assertEquals(
                MPI.ERR_DIMS,
                assertThrows(MPIException.class, () -> grid(new int[] {1 << 16, 1 << 16}, true, true))
                        .getErrorClass());
        assertEquals(
                MPI.ERR_ARG,
                assertThrows(MPIException.class, () -> CartTopology.of(null, new boolean[0]))
                        .getErrorClass());
    }

    @Test
    void subGridsKeepTheirDimensionsAndNumberTheirMembersInOrder() throws MPIException {
        CartTopology t = grid(new int[] {2, 3, 4}, true, false, true);
        boolean[] keep = {true, false, true};
        CartTopology s = t.sub(keep);
        assertEquals(2, s.dimCount());
        assertArrayEquals(new int[] {2, 4}, s.dims());
        assertArrayEquals(new boolean[] {true, true}, s.periods());
        for (int r = 0; r < 24; r++) {
            int a = r / 12;
            int b = (r / 4) % 3;
            int c = r % 4;
            assertEquals(b, t.subIndex(r, keep, false), "which sub-grid");
            assertEquals(a * 4 + c, t.subIndex(r, keep, true), "rank in the sub-grid");
        }
        CartTopology none = t.sub(new boolean[3]);
        assertEquals(0, none.dimCount());
        assertEquals(1, none.size());
        assertEquals(
                MPI.ERR_ARG,
                assertThrows(MPIException.class, () -> t.sub(new boolean[2])).getErrorClass());
    }

    /** Every non-increasing factorisation of n into k factors. */
    private static List<int[]> factorisations(int n, int k, int max) {
        List<int[]> out = new ArrayList<>();
        if (k == 0) {
            if (n == 1) {
                out.add(new int[0]);
            }
            return out;
        }
        for (int f = Math.min(n, max); f >= 1; f--) {
            if (n % f == 0) {
                for (int[] rest : factorisations(n / f, k - 1, f)) {
                    int[] t = new int[k];
                    t[0] = f;
                    System.arraycopy(rest, 0, t, 1, k - 1);
                    out.add(t);
                }
            }
        }
        return out;
    }

    /** The most balanced factorisation: the smallest largest factor, then the smallest next one... */
    private static int[] bruteForce(int n, int k) {
        return factorisations(n, k, n).stream().min(Arrays::compare).orElseThrow();
    }

    @Test
    void createDimsIsTheMostBalancedFactorisation() throws MPIException {
        for (int n = 1; n <= 64; n++) {
            for (int k = 1; k <= 4; k++) {
                int[] dims = new int[k];
                CartTopology.createDims(n, dims);
                int[] expected = bruteForce(n, k);
                assertArrayEquals(expected, dims, "n=" + n + " k=" + k);
                assertEquals(n, Arrays.stream(dims).reduce(1, (x, y) -> x * y));
            }
        }
        // the familiar cases
        int[] d = new int[2];
        CartTopology.createDims(6, d);
        assertArrayEquals(new int[] {3, 2}, d);
        d = new int[3];
        CartTopology.createDims(7, d);
        assertArrayEquals(new int[] {7, 1, 1}, d);
        d = new int[3];
        CartTopology.createDims(64, d);
        assertArrayEquals(new int[] {4, 4, 4}, d);
    }

    /** Open MPI 4.1's choice: prime factors, largest first, each to the currently smallest entry. */
    private static int[] greedy(int n, int k) {
        List<Integer> primes = new ArrayList<>();
        int rest = n;
        for (int p = 2; p <= rest; p++) {
            while (rest % p == 0) {
                primes.add(p);
                rest /= p;
            }
        }
        int[] bins = new int[k];
        Arrays.fill(bins, 1);
        for (int i = primes.size() - 1; i >= 0; i--) {
            int min = 0;
            for (int b = 1; b < k; b++) {
                if (bins[b] < bins[min]) {
                    min = b;
                }
            }
            bins[min] *= primes.get(i);
        }
        return Arrays.stream(bins)
                .boxed()
                .sorted((a, b) -> b - a)
                .mapToInt(Integer::intValue)
                .toArray();
    }

    @Test
    void createDimsAgreesWithOpenMpiBelowSeventyTwo() throws MPIException {
        for (int n = 1; n < 72; n++) {
            for (int k = 1; k <= 4; k++) {
                int[] dims = new int[k];
                CartTopology.createDims(n, dims);
                assertArrayEquals(greedy(n, k), dims, "n=" + n + " k=" + k);
            }
        }
        int[] dims = new int[2];
        CartTopology.createDims(72, dims);
        assertArrayEquals(new int[] {9, 8}, dims);
        assertArrayEquals(new int[] {12, 6}, greedy(72, 2));
    }

    @Test
    void createDimsKeepsFixedEntries() throws MPIException {
        for (int n = 1; n <= 64; n++) {
            for (int fixed = 1; fixed <= 6; fixed++) {
                int[] dims = {0, fixed, 0};
                int nodes = n;
                if (n % fixed != 0) {
                    assertEquals(
                            MPI.ERR_DIMS,
                            assertThrows(MPIException.class, () -> CartTopology.createDims(nodes, dims.clone()))
                                    .getErrorClass());
                    continue;
                }
                CartTopology.createDims(n, dims);
                int[] free = bruteForce(n / fixed, 2);
                assertArrayEquals(new int[] {free[0], fixed, free[1]}, dims, "n=" + n + " fixed=" + fixed);
            }
        }
        int[] all = {2, 3};
        CartTopology.createDims(6, all);
        assertArrayEquals(new int[] {2, 3}, all);
        assertEquals(
                MPI.ERR_DIMS,
                assertThrows(MPIException.class, () -> CartTopology.createDims(7, new int[] {2, 3}))
                        .getErrorClass());
        assertEquals(
                MPI.ERR_DIMS,
                assertThrows(MPIException.class, () -> CartTopology.createDims(6, new int[] {-1, 0}))
                        .getErrorClass());
        assertEquals(
                MPI.ERR_ARG,
                assertThrows(MPIException.class, () -> CartTopology.createDims(0, new int[] {0}))
                        .getErrorClass());
        assertEquals(
                MPI.ERR_ARG,
                assertThrows(MPIException.class, () -> CartTopology.createDims(4, null))
                        .getErrorClass());
        int[] empty = {};
        CartTopology.createDims(1, empty);
        assertEquals(
                MPI.ERR_DIMS,
                assertThrows(MPIException.class, () -> CartTopology.createDims(2, new int[0]))
                        .getErrorClass());
    }
}
