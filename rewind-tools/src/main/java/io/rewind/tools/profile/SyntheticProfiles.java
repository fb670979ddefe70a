package io.rewind.tools.profile;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generated communication profiles with known structure, for tests, demos and the
 * 16,384-rank benchmark: disjoint cliques (known optimal cut), 2-D grids, and a 3-D stencil
 * with hot spots that makes the per-rank load skewed like the imbalanced applications of the
 * MCML paper.
 */
public final class SyntheticProfiles {

    private SyntheticProfiles() {}

    /**
     * {@code groups} cliques of {@code size} ranks (contiguous ranks unless {@code shuffled}),
     * every intra-clique pair exchanging {@code intraBytes} each way and consecutive cliques
     * joined by one light pair of {@code interBytes}. With intra much larger than inter, the
     * optimal partition into {@code groups} parts is the cliques, with cut {@code 2*(groups-1)*interBytes}.
     */
    public static CommProfile cliques(int groups, int size, long intraBytes, long interBytes, long shuffleSeed) {
        int n = groups * size;
        int[] label = identity(n);
        if (shuffleSeed != 0) {
            shuffle(label, new SplittableRandom(shuffleSeed));
        }
        CommMatrix.Builder b = new CommMatrix.Builder(n);
        for (int g = 0; g < groups; g++) {
            for (int i = 0; i < size; i++) {
                for (int j = 0; j < size; j++) {
                    if (i != j) {
                        b.add(label[g * size + i], label[g * size + j], intraBytes, 1);
                    }
                }
            }
            if (g + 1 < groups) {
                int a = label[g * size + size - 1];
                int c = label[(g + 1) * size];
                b.add(a, c, interBytes, 1);
                b.add(c, a, interBytes, 1);
            }
        }
        return CommProfile.ofP2p(b.build());
    }

    /** A rows x cols grid, 4-neighbour exchange of {@code bytes} each way; rank = row*cols+col. */
    public static CommProfile grid2d(int rows, int cols, long bytes) {
        CommMatrix.Builder b = new CommMatrix.Builder(rows * cols);
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                int me = r * cols + c;
                if (c + 1 < cols) {
                    b.add(me, me + 1, bytes, 1).add(me + 1, me, bytes, 1);
                }
                if (r + 1 < rows) {
                    b.add(me, me + cols, bytes, 1).add(me + cols, me, bytes, 1);
                }
            }
        }
        return CommProfile.ofP2p(b.build());
    }

    /**
     * A px x py x pz 7-point stencil (6 face neighbours, non periodic) where ranks close to a few
     * random hot spots send up to {@code hotFactor} times more, plus a light all-to-root
     * collective. Rank times are set to {@code seconds}. Skewed like the MCML paper's AMR codes.
     */
    public static CommProfile stencil3d(
            int px, int py, int pz, long faceBytes, int hotSpots, double hotFactor, double seconds, long seed) {
        int n = px * py * pz;
        SplittableRandom random = new SplittableRandom(seed);
        int[][] hot = new int[hotSpots][];
        for (int h = 0; h < hotSpots; h++) {
            hot[h] = new int[] {random.nextInt(px), random.nextInt(py), random.nextInt(pz)};
        }
        double radius = Math.max(1.0, Math.cbrt(n) / 4.0);
        double[] weight = new double[n];
        for (int x = 0; x < px; x++) {
            for (int y = 0; y < py; y++) {
                for (int z = 0; z < pz; z++) {
                    double w = 1.0;
                    for (int[] h : hot) {
                        double d2 = sq(x - h[0]) + sq(y - h[1]) + sq(z - h[2]);
                        w += (hotFactor - 1.0) * Math.exp(-d2 / (2 * radius * radius));
                    }
                    weight[(z * py + y) * px + x] = w;
                }
            }
        }
        CommMatrix.Builder p2p = new CommMatrix.Builder(n);
        CommMatrix.Builder coll = new CommMatrix.Builder(n);
        int[][] steps = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        for (int x = 0; x < px; x++) {
            for (int y = 0; y < py; y++) {
                for (int z = 0; z < pz; z++) {
                    int me = (z * py + y) * px + x;
                    for (int[] s : steps) {
                        int nx = x + s[0];
                        int ny = y + s[1];
                        int nz = z + s[2];
                        if (nx < 0 || ny < 0 || nz < 0 || nx >= px || ny >= py || nz >= pz) {
                            continue;
                        }
                        int other = (nz * py + ny) * px + nx;
                        // Traffic of a face depends on both sides' refinement, so the matrix stays symmetric.
                        double w = Math.sqrt(weight[me] * weight[other]);
                        long bytes = Math.round(faceBytes * w);
                        long messages = Math.max(1, Math.round(100 * w));
                        p2p.add(me, other, bytes, messages);
                    }
                    if (me != 0) {
                        coll.add(me, 0, 8L * 100, 100);
                        coll.add(0, me, 8L * 100, 100);
                    }
                }
            }
        }
        double[] times = new double[n];
        Arrays.fill(times, seconds);
        return new CommProfile(n, p2p.build(), coll.build(), times, List.of());
    }

    private static double sq(double v) {
        return v * v;
    }

    private static int[] identity(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    private static void shuffle(int[] a, SplittableRandom random) {
        for (int i = a.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}
