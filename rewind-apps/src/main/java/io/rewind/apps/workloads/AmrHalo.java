package io.rewind.apps.workloads;

import io.rewind.api.Checkpointer;
import java.nio.DoubleBuffer;
import java.util.ArrayList;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Halo exchange on an adaptively refined mesh, shaped like MiniAMR. The square domain is a grid of
 * {@code bx x by} coarse blocks, split into contiguous runs of block ids over the ranks. A block at
 * refinement level l holds {@code (b * 2^l)^2} cells of {@code vars} variables; an object moving
 * across the domain refines the blocks near it up to {@code maxLevel} ({@link #level}), and a block
 * whose level changes is resampled (children copy the parent; a parent averages its children).
 *
 * <p>Communication per step: every block sends each neighbour one face at its own resolution
 * ({@code b * 2^l * vars} doubles; iRecv/iSend/waitAll, one message per face between blocks of
 * different ranks, a copy between blocks of the same rank); the receiver averages or repeats values
 * to its own resolution. Refined blocks send up to {@code 2^maxLevel} times more than coarse ones, so
 * the per-rank volume is uneven (Gini index above 0.3 with 64 ranks and one block each). A step ends
 * with an allReduce of the largest value.
 *
 * <p>Checksum: the integral of every variable, summed block by block in global block order, so it
 * is the same bits at every rank count (one rank does the exchanges as copies: the sequential run).
 *
 * <p>Usage: {@code AmrHalo [steps] [bx] [by] [b] [maxLevel] [vars]}. Rank 0 prints
 * {@code amr steps=.. blocks=..x.. max=.. checksum=<decimal> bits=<hex>}.
 */
public final class AmrHalo {
    private static final int WEST = 0;
    private static final int EAST = 1;
    private static final int SOUTH = 2;
    private static final int NORTH = 3;
    private static final int[] DX = {-1, 1, 0, 0};
    private static final int[] DY = {0, 0, -1, 1};

    private AmrHalo() {}

    private static int opposite(int d) {
        return d ^ 1;
    }

    /**
     * The level of block (x, y) at a step: the object travels from 35% to 65% of the width along the
     * middle row; blocks within 1.2 block widths of it get {@code maxLevel}, each further 1.2 one less.
     */
    static int level(int x, int y, int step, int steps, int bx, int by, int maxLevel) {
        double cx = (0.35 + 0.3 * step / Math.max(1, steps)) * bx;
        double cy = 0.5 * by;
        double dx = x + 0.5 - cx;
        double dy = y + 0.5 - cy;
        int far = (int) (Math.sqrt(dx * dx + dy * dy) / 1.2);
        return Math.max(0, maxLevel - far);
    }

    /** The initial value of variable v at the point (px, py) of the unit square. */
    static double initial(double px, double py, int v) {
        return 1.0 + 0.5 * v + px * py + (px > 0.5 ? 0.25 : 0.0);
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int steps = Workloads.intArg(args, 0, 40);
        int bx = Workloads.intArg(args, 1, 8);
        int by = Workloads.intArg(args, 2, 8);
        int b = Workloads.intArg(args, 3, 4);
        int maxLevel = Workloads.intArg(args, 4, 3);
        int vars = Workloads.intArg(args, 5, 2);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int blocks = bx * by;
        if (blocks < size) {
            throw new IllegalArgumentException(blocks + " blocks cannot be split over " + size + " ranks");
        }
        int first = Workloads.blockStart(blocks, size, rank);
        int owned = Workloads.blockStart(blocks, size, rank + 1) - first;
        int maxSide = b << maxLevel;
        int cap = maxSide * maxSide; // cells per variable and block at most
        double[] u = new double[owned * vars * cap];
        int[] levels = new int[owned];
        int[] step = {0};
        Checkpointer cp = Checkpointer.get();
        cp.register("u", u);
        cp.register("levels", levels);
        cp.register("step", step);
        if (!cp.restore()) {
            for (int k = 0; k < owned; k++) {
                int g = first + k;
                levels[k] = level(g % bx, g / bx, 0, steps, bx, by, maxLevel);
                int side = b << levels[k];
                for (int v = 0; v < vars; v++) {
                    int base = (k * vars + v) * cap;
                    for (int y = 0; y < side; y++) {
                        for (int x = 0; x < side; x++) {
                            double px = (g % bx + (x + 0.5) / side) / bx;
                            double py = (g / bx + (y + 0.5) / side) / by;
                            u[base + y * side + x] = initial(px, py, v);
                        }
                    }
                }
            }
        }
        double[][] ghost = new double[owned * 4][maxSide * vars];
        double[] next = new double[cap];
        double[] face = new double[maxSide * vars];
        double[] max = new double[1];
        while (step[0] < steps) {
            cp.point();
            int s = step[0];
            for (int k = 0; k < owned; k++) {
                int g = first + k;
                int target = level(g % bx, g / bx, s, steps, bx, by, maxLevel);
                if (target != levels[k]) {
                    resample(u, k, vars, cap, b << levels[k], b << target, next);
                    levels[k] = target;
                }
            }
            List<Request> reqs = new ArrayList<>();
            List<DoubleBuffer> inBuf = new ArrayList<>();
            List<int[]> inWhere = new ArrayList<>(); // local block, direction, sender's side
            for (int k = 0; k < owned; k++) {
                int g = first + k;
                for (int d = 0; d < 4; d++) {
                    int nx = g % bx + DX[d];
                    int ny = g / bx + DY[d];
                    if (nx < 0 || ny < 0 || nx >= bx || ny >= by) {
                        continue;
                    }
                    int n = ny * bx + nx;
                    int owner = Workloads.blockOf(blocks, size, n);
                    if (owner != rank) {
                        int side = b << level(nx, ny, s, steps, bx, by, maxLevel);
                        DoubleBuffer buf = MPI.newDoubleBuffer(side * vars);
                        reqs.add(MPI.COMM_WORLD.iRecv(buf, side * vars, MPI.DOUBLE, owner, g * 4 + d));
                        inBuf.add(buf);
                        inWhere.add(new int[] {k, d, side});
                    }
                }
            }
            for (int k = 0; k < owned; k++) {
                int g = first + k;
                int side = b << levels[k];
                for (int d = 0; d < 4; d++) {
                    int nx = g % bx + DX[d];
                    int ny = g / bx + DY[d];
                    if (nx < 0 || ny < 0 || nx >= bx || ny >= by) {
                        continue;
                    }
                    int n = ny * bx + nx;
                    extractFace(u, k, vars, cap, side, d, face);
                    int owner = Workloads.blockOf(blocks, size, n);
                    if (owner == rank) {
                        int kn = n - first;
                        convert(face, side, ghost[kn * 4 + opposite(d)], b << levels[kn], vars);
                    } else {
                        DoubleBuffer buf = MPI.newDoubleBuffer(side * vars);
                        buf.put(face, 0, side * vars);
                        reqs.add(MPI.COMM_WORLD.iSend(buf, side * vars, MPI.DOUBLE, owner, n * 4 + opposite(d)));
                    }
                }
            }
            Request.waitAll(reqs.toArray(new Request[0]));
            for (int i = 0; i < inBuf.size(); i++) {
                int[] w = inWhere.get(i);
                DoubleBuffer buf = inBuf.get(i);
                buf.clear();
                buf.get(face, 0, w[2] * vars);
                convert(face, w[2], ghost[w[0] * 4 + w[1]], b << levels[w[0]], vars);
            }
            max[0] = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < owned; k++) {
                int g = first + k;
                boolean[] has = new boolean[4];
                for (int d = 0; d < 4; d++) {
                    int nx = g % bx + DX[d];
                    int ny = g / bx + DY[d];
                    has[d] = nx >= 0 && ny >= 0 && nx < bx && ny < by;
                }
                max[0] = Math.max(max[0], smooth(u, k, vars, cap, b << levels[k], ghost, has, next));
            }
            MPI.COMM_WORLD.allReduce(max, 1, MPI.DOUBLE, MPI.MAX);
            step[0]++;
        }
        double[] integrals = new double[owned];
        for (int k = 0; k < owned; k++) {
            int side = b << levels[k];
            double area = 1.0 / ((double) side * side);
            double s = 0;
            for (int v = 0; v < vars; v++) {
                int base = (k * vars + v) * cap;
                for (int i = 0; i < side * side; i++) {
                    s += u[base + i] * area;
                }
            }
            integrals[k] = s;
        }
        double total = Workloads.orderedSum(integrals, blocks);
        if (rank == 0) {
            System.out.printf(
                    "amr steps=%d blocks=%dx%d max=%.17g checksum=%.17g bits=%016x%n",
                    steps, bx, by, max[0], total, Double.doubleToLongBits(total));
        }
        MPI.Finalize();
    }

    /** The face of local block k on side d, variable after variable, ordered along the face. */
    private static void extractFace(double[] u, int k, int vars, int cap, int side, int d, double[] face) {
        for (int v = 0; v < vars; v++) {
            int base = (k * vars + v) * cap;
            for (int t = 0; t < side; t++) {
                int idx =
                        switch (d) {
                            case WEST -> t * side;
                            case EAST -> t * side + side - 1;
                            case SOUTH -> t;
                            default -> (side - 1) * side + t;
                        };
                face[v * side + t] = u[base + idx];
            }
        }
    }

    /** A face of {@code from} values per variable brought to {@code to} values: averaged or repeated. */
    private static void convert(double[] in, int from, double[] out, int to, int vars) {
        for (int v = 0; v < vars; v++) {
            if (from >= to) {
                int ratio = from / to;
                for (int t = 0; t < to; t++) {
                    double s = 0;
                    for (int j = 0; j < ratio; j++) {
                        s += in[v * from + t * ratio + j];
                    }
                    out[v * to + t] = s / ratio;
                }
            } else {
                int ratio = to / from;
                for (int t = 0; t < to; t++) {
                    out[v * to + t] = in[v * from + t / ratio];
                }
            }
        }
    }

    /** Changes local block k from {@code from} to {@code to} cells a side. */
    private static void resample(double[] u, int k, int vars, int cap, int from, int to, double[] tmp) {
        for (int v = 0; v < vars; v++) {
            int base = (k * vars + v) * cap;
            if (to > from) {
                int ratio = to / from;
                for (int y = 0; y < to; y++) {
                    for (int x = 0; x < to; x++) {
                        tmp[y * to + x] = u[base + (y / ratio) * from + x / ratio];
                    }
                }
            } else {
                int ratio = from / to;
                for (int y = 0; y < to; y++) {
                    for (int x = 0; x < to; x++) {
                        double s = 0;
                        for (int j = 0; j < ratio; j++) {
                            for (int i = 0; i < ratio; i++) {
                                s += u[base + (y * ratio + j) * from + x * ratio + i];
                            }
                        }
                        tmp[y * to + x] = s / (ratio * ratio);
                    }
                }
            }
            System.arraycopy(tmp, 0, u, base, to * to);
        }
    }

    /** One smoothing sweep of local block k using its ghosts; returns the largest new value. */
    private static double smooth(
            double[] u, int k, int vars, int cap, int side, double[][] ghost, boolean[] has, double[] tmp) {
        double max = Double.NEGATIVE_INFINITY;
        for (int v = 0; v < vars; v++) {
            int base = (k * vars + v) * cap;
            int go = v * side;
            for (int y = 0; y < side; y++) {
                for (int x = 0; x < side; x++) {
                    double c = u[base + y * side + x];
                    double w = x > 0 ? u[base + y * side + x - 1] : has[WEST] ? ghost[k * 4 + WEST][go + y] : c;
                    double e = x < side - 1 ? u[base + y * side + x + 1] : has[EAST] ? ghost[k * 4 + EAST][go + y] : c;
                    double s = y > 0 ? u[base + (y - 1) * side + x] : has[SOUTH] ? ghost[k * 4 + SOUTH][go + x] : c;
                    double n =
                            y < side - 1 ? u[base + (y + 1) * side + x] : has[NORTH] ? ghost[k * 4 + NORTH][go + x] : c;
                    double val = 0.2 * (c + w + e + s + n);
                    tmp[y * side + x] = val;
                    max = Math.max(max, val);
                }
            }
            System.arraycopy(tmp, 0, u, base, side * side);
        }
        return max;
    }
}
