package mpi.conformance.topo;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.api.Checkpointer;
import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import java.time.Duration;
import java.util.List;
import mpi.CartComm;
import mpi.CartParms;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;
import mpi.Version;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * MPI standard chapter 7: Cartesian topologies. Each rank program checks the grid it is given against
 * values it computes itself, then runs a halo exchange along both dimensions; under every recovering
 * protocol, with crashes, it must print exactly what it prints without failures.
 */
@Tag("conformance")
class CartesianTest {

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 6, 8})
    void periodicGridWithHaloExchange(int ranks) {
        runOk(Grid2D.class, ranks, "periodic");
    }

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 6, 8})
    void nonPeriodicGridWithHaloExchange(int ranks) {
        runOk(Grid2D.class, ranks, "open");
    }

    @ParameterizedTest
    @RankCounts(
            value = {3, 5, 8},
            min = 3)
    void gridSmallerThanTheCommunicatorLeavesTheRestOut(int ranks) {
        runOk(PartialGrid.class, ranks);
    }

    /**
     * A restarted rank rolls back to a checkpoint written while its grid and sub-grids existed: it
     * creates them again before {@code restore()}, and they must be the same communicators with the
     * same topology. Under every recovering protocol, with a checkpoint every few points and crashes.
     */
    @ParameterizedTest
    @RankCounts(
            value = {4, 6},
            min = 4)
    void gridsAreCreatedAgainByARankRestartedFromACheckpoint(int ranks) {
        JobConfig job = JobConfig.builder(CheckpointedGrid.class.getName())
                .ranks(ranks)
                .args("12")
                .timeout(Duration.ofSeconds(60))
                .quiet()
                .build();
        RecoveryCheck check = RecoveryCheck.of(job);
        List<FailureSchedule> schedules = check.schedules(ranks * 7919L, 3);
        int struck = 0;
        for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
            for (FailureSchedule s : schedules) {
                RecoveryCheck.Verdict v = check.run(p, 3, s);
                assertTrue(v.ok(), () -> "CheckpointedGrid on " + ranks + ": " + v.describe());
                struck += v.struck();
            }
        }
        assertTrue(struck > 0, "no kill struck, so nothing was checked");
    }

    /** A non-periodic 2-D grid with row sub-grids, its state registered for checkpoints. */
    public static final class CheckpointedGrid {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int steps = Integer.parseInt(args[0]);
            Intracomm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int[] dims = new int[2];
            CartComm.createDims(w.getSize(), dims);
            CartComm cart = w.createCart(dims, new boolean[] {false, true}, false);
            CartComm rowComm = cart.sub(new boolean[] {false, true});
            double[] cell = {me + 1};
            int[] step = {0};
            Checkpointer cp = Checkpointer.get();
            cp.register("cell", cell);
            cp.register("step", step);
            cp.restore();
            CartParms p = cart.getTopo();
            checkEq(me / dims[1], p.getCoord(0), "row after a restart");
            checkEq(me % dims[1], p.getCoord(1), "column after a restart");
            checkEq(me % dims[1], rowComm.getRank(), "rank in the row after a restart");
            ShiftParms up = cart.shift(0, -1);
            ShiftParms right = cart.shift(1, 1);
            double[] in = new double[1];
            while (step[0] < steps) {
                cp.point();
                double acc = 0;
                cart.sendRecv(cell, 1, MPI.DOUBLE, up.getRankDest(), 1, in, 1, MPI.DOUBLE, up.getRankSource(), 1);
                acc += up.getRankSource() == MPI.PROC_NULL ? 0 : in[0];
                cart.sendRecv(cell, 1, MPI.DOUBLE, right.getRankDest(), 2, in, 1, MPI.DOUBLE, right.getRankSource(), 2);
                acc += in[0];
                double[] rowSum = {cell[0]};
                rowComm.allReduce(rowSum, 1, MPI.DOUBLE, MPI.SUM);
                cell[0] = 0.5 * cell[0] + 0.25 * acc + 0.01 * rowSum[0] + step[0];
                step[0]++;
            }
            double[] sum = {cell[0]};
            cart.allReduce(sum, 1, MPI.DOUBLE, MPI.SUM);
            if (me == 0) {
                System.out.printf(
                        "checkpointed grid %dx%d bits %016x%n", dims[0], dims[1], Double.doubleToLongBits(sum[0]));
            }
            rowComm.free();
            cart.free();
            MPI.Finalize();
        }
    }

    /** 2-D grid from createDims over all ranks; {@code periodic} or {@code open} in both dimensions. */
    public static final class Grid2D {
        private static final int N = 4; // local block is N x N with a ghost layer
        private static final int ITERATIONS = 6;

        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            boolean periodic = args[0].equals("periodic");
            Intracomm w = MPI.COMM_WORLD;
            int size = w.getSize();
            int me = w.getRank();
            Version v = MPI.getVersion();
            check(v.getVersion() == 3 && v.getSubVersion() == 1, "MPI version 3.1");
            checkEq(MPI.UNDEFINED, w.getTopology(), "the world has no topology");

            int[] dims = new int[2];
            CartComm.createDims(size, dims);
            checkEq(size, (long) dims[0] * dims[1], "createDims product");
            check(dims[0] >= dims[1], "createDims non-increasing");
            boolean[] periods = {periodic, periodic};
            CartComm cart = w.createCart(dims, periods, true);
            check(!cart.isNull(), "every rank is in a grid of the whole world");
            checkEq(MPI.CART, cart.getTopology(), "a Cartesian communicator");
            checkEq(size, cart.getSize(), "grid size");
            checkEq(me, cart.getRank(), "no reordering");

            // row-major coordinates, computed here
            int row = me / dims[1];
            int col = me % dims[1];
            CartParms p = cart.getTopo();
            checkEq(2, p.getDimCount(), "dimension count");
            checkEq(dims[0], p.getDim(0), "dim 0");
            checkEq(dims[1], p.getDim(1), "dim 1");
            check(p.getPeriod(0) == periodic && p.getPeriod(1) == periodic, "periods");
            checkEq(row, p.getCoord(0), "coord 0");
            checkEq(col, p.getCoord(1), "coord 1");
            for (int r = 0; r < size; r++) {
                int[] c = cart.getCoords(r);
                check(c[0] == r / dims[1] && c[1] == r % dims[1], "getCoords(" + r + ")");
                checkEq(r, cart.getRank(c), "getRank(getCoords(" + r + "))");
            }
            checkEq(me, cart.map(dims, periods), "map keeps the rank");
            if (size > 1) {
                checkEq(
                        me < size - 1 ? me : MPI.UNDEFINED,
                        cart.map(new int[] {size - 1}, new boolean[] {false}),
                        "map onto a smaller grid");
            }

            // neighbours, computed here
            ShiftParms vert = cart.shift(0, 1);
            ShiftParms horiz = cart.shift(1, 1);
            checkEq(neighbour(row - 1, dims[0], periodic, col, dims[1], true), vert.getRankSource(), "up");
            checkEq(neighbour(row + 1, dims[0], periodic, col, dims[1], true), vert.getRankDest(), "down");
            checkEq(neighbour(col - 1, dims[1], periodic, row, dims[1], false), horiz.getRankSource(), "left");
            checkEq(neighbour(col + 1, dims[1], periodic, row, dims[1], false), horiz.getRankDest(), "right");
            if (!periodic) {
                checkEq(MPI.PROC_NULL, cart.shift(0, dims[0]).getRankDest(), "off the bottom edge");
                expectError(
                        MPI.ERR_ARG,
                        "coordinate outside an open dimension",
                        () -> cart.getRank(new int[] {dims[0], 0}));
            } else {
                checkEq(me, cart.shift(0, dims[0]).getRankDest(), "a full turn");
                checkEq(me, cart.getRank(new int[] {row + dims[0], col - dims[1]}), "coordinates wrap");
            }
            expectError(MPI.ERR_DIMS, "shift along a missing dimension", () -> cart.shift(2, 1));
            expectError(MPI.ERR_RANK, "coordinates of a missing rank", () -> cart.getCoords(size));
            expectError(
                    MPI.ERR_ARG,
                    "grid larger than the communicator",
                    () -> w.createCart(new int[] {size + 1}, new boolean[] {false}, false));
            expectError(
                    MPI.ERR_ARG,
                    "dims and periods of different lengths",
                    () -> w.createCart(new int[] {size}, new boolean[] {false, false}, false));
            expectError(
                    MPI.ERR_DIMS,
                    "a negative dimension",
                    () -> w.createCart(new int[] {-1, size}, new boolean[] {false, false}, false));
            expectError(
                    MPI.ERR_DIMS,
                    "createDims that cannot divide",
                    () -> CartComm.createDims(size, new int[] {size + 1, 0}));

            // rows and columns as sub-grids
            CartComm rowComm = cart.sub(new boolean[] {false, true});
            CartComm colComm = cart.sub(new boolean[] {true, false});
            checkEq(dims[1], rowComm.getSize(), "row size");
            checkEq(col, rowComm.getRank(), "rank in the row");
            checkEq(dims[0], colComm.getSize(), "column size");
            checkEq(row, colComm.getRank(), "rank in the column");
            CartParms rp = rowComm.getTopo();
            check(rp.getDimCount() == 1 && rp.getDim(0) == dims[1] && rp.getPeriod(0) == periodic, "row grid");
            long[] rowSum = {me};
            rowComm.allReduce(rowSum, 1, MPI.LONG, MPI.SUM);
            long expectedRow = 0;
            for (int c = 0; c < dims[1]; c++) {
                expectedRow += (long) row * dims[1] + c;
            }
            checkEq(expectedRow, rowSum[0], "sum over the row");
            CartComm copy = cart.dup();
            checkEq(MPI.CART, copy.getTopology(), "dup keeps the topology");
            checkEq(col, copy.getTopo().getCoord(1), "dup keeps the coordinates");

            // halo exchange on a (N+2) x (N+2) block, both dimensions, several iterations
            double[] u = new double[(N + 2) * (N + 2)];
            for (int i = 1; i <= N; i++) {
                for (int j = 1; j <= N; j++) {
                    u[i * (N + 2) + j] = me * 100 + i * 10 + j;
                }
            }
            double[] sendRow = new double[N];
            double[] recvRow = new double[N];
            for (int it = 0; it < ITERATIONS; it++) {
                // down: send my last row to dest, receive my upper ghost row from source
                exchangeRows(copy, vert, u, N, sendRow, recvRow, N, 0, 10 + it);
                exchangeRows(copy, cart.shift(0, -1), u, N, sendRow, recvRow, 1, N + 1, 20 + it);
                exchangeCols(copy, horiz, u, N, sendRow, recvRow, N, 0, 30 + it);
                exchangeCols(copy, cart.shift(1, -1), u, N, sendRow, recvRow, 1, N + 1, 40 + it);
                double[] next = u.clone();
                for (int i = 1; i <= N; i++) {
                    for (int j = 1; j <= N; j++) {
                        int k = i * (N + 2) + j;
                        next[k] = 0.2 * (u[k] + u[k - 1] + u[k + 1] + u[k - N - 2] + u[k + N + 2]);
                    }
                }
                u = next;
            }
            double[] sum = {0};
            for (int i = 1; i <= N; i++) {
                for (int j = 1; j <= N; j++) {
                    sum[0] += u[i * (N + 2) + j];
                }
            }
            cart.allReduce(sum, 1, MPI.DOUBLE, MPI.SUM);
            if (me == 0) {
                System.out.printf(
                        "grid %dx%d %s checksum %.17g bits %016x%n",
                        dims[0], dims[1], args[0], sum[0], Double.doubleToLongBits(sum[0]));
            }
            copy.free();
            colComm.free();
            rowComm.free();
            cart.free();
            MPI.Finalize();
        }

        private static int neighbour(int at, int n, boolean periodic, int other, int cols, boolean vertical) {
            if (at < 0 || at >= n) {
                if (!periodic) {
                    return MPI.PROC_NULL;
                }
                at = Math.floorMod(at, n);
            }
            return vertical ? at * cols + other : other * cols + at;
        }

        /** Sends row {@code sendAt} to the shift's destination, receives ghost row {@code recvAt} from its source. */
        private static void exchangeRows(
                CartComm c, ShiftParms s, double[] u, int n, double[] out, double[] in, int sendAt, int recvAt, int tag)
                throws MPIException {
            System.arraycopy(u, sendAt * (n + 2) + 1, out, 0, n);
            c.sendRecv(out, n, MPI.DOUBLE, s.getRankDest(), tag, in, n, MPI.DOUBLE, s.getRankSource(), tag);
            if (s.getRankSource() != MPI.PROC_NULL) {
                System.arraycopy(in, 0, u, recvAt * (n + 2) + 1, n);
            }
        }

        private static void exchangeCols(
                CartComm c, ShiftParms s, double[] u, int n, double[] out, double[] in, int sendAt, int recvAt, int tag)
                throws MPIException {
            for (int i = 0; i < n; i++) {
                out[i] = u[(i + 1) * (n + 2) + sendAt];
            }
            c.sendRecv(out, n, MPI.DOUBLE, s.getRankDest(), tag, in, n, MPI.DOUBLE, s.getRankSource(), tag);
            if (s.getRankSource() != MPI.PROC_NULL) {
                for (int i = 0; i < n; i++) {
                    u[(i + 1) * (n + 2) + recvAt] = in[i];
                }
            }
        }
    }

    /** A 1-D ring over all ranks but the last: the last rank gets a null communicator. */
    public static final class PartialGrid {
        public static void main(String[] args) throws MPIException {
            checkEq(3, MPI.getVersion().getVersion(), "getVersion before Init");
            MPI.Init(args);
            Intracomm w = MPI.COMM_WORLD;
            int size = w.getSize();
            int me = w.getRank();
            int[] dims = {size - 1};
            boolean[] periods = {true};
            CartComm ring = w.createCart(dims, periods, false);
            if (me == size - 1) {
                check(ring.isNull(), "the rank outside the grid gets a null communicator");
                expectError(MPI.ERR_COMM, "use of the null grid", ring::getTopo);
            } else {
                ShiftParms s = ring.shift(0, 1);
                checkEq((me + 1) % (size - 1), s.getRankDest(), "next on the ring");
                checkEq((me + size - 2) % (size - 1), s.getRankSource(), "previous on the ring");
                int[] token = {me};
                int[] got = new int[1];
                ring.sendRecv(token, 1, MPI.INT, s.getRankDest(), 0, got, 1, MPI.INT, s.getRankSource(), 0);
                checkEq(s.getRankSource(), got[0], "token from the previous rank");
                CartComm none = ring.sub(new boolean[] {false});
                checkEq(1, none.getSize(), "a sub-grid of no dimension holds only the caller");
                checkEq(0, none.getTopo().getDimCount(), "zero dimensions");
                System.out.println("ring rank " + me + " got " + got[0]);
                none.free();
                ring.free();
            }
            MPI.Finalize();
        }
    }
}
