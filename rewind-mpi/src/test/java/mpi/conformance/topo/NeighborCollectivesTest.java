package mpi.conformance.topo;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;

import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.CartComm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPI standard chapter 7.6: neighbourhood collectives on Cartesian grids. The neighbours are, for
 * each dimension, the -1 then the +1 neighbour; a block sent to the +1 neighbour arrives in its -1
 * block and vice versa, also when both neighbours are one process (a periodic dimension of 1 or 2);
 * blocks of neighbours past a non-periodic edge are left untouched. Every rank derives what each
 * neighbour sent from the neighbour's rank.
 */
@Tag("conformance")
class NeighborCollectivesTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void periodicGrid(int ranks) {
        runOk(CartNeighbours.class, ranks, "periodic", "2");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void openGrid(int ranks) {
        runOk(CartNeighbours.class, ranks, "open", "2");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void periodicRing(int ranks) {
        runOk(CartNeighbours.class, ranks, "periodic", "1");
    }

    private static final int UNTOUCHED = -1;

    public static final class CartNeighbours {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            boolean periodic = args[0].equals("periodic");
            int ndims = Integer.parseInt(args[1]);
            Intracomm w = MPI.COMM_WORLD;
            int me = w.getRank();
            int[] dims = new int[ndims];
            CartComm.createDims(w.getSize(), dims);
            boolean[] periods = new boolean[ndims];
            Arrays.fill(periods, periodic);
            CartComm cart = w.createCart(dims, periods, false);
            int k = 2 * ndims;

            // neighbour list computed here from row-major coordinates
            int[] coords = new int[ndims];
            for (int d = ndims - 1, rest = me; d >= 0; d--) {
                coords[d] = rest % dims[d];
                rest /= dims[d];
            }
            int[] nb = new int[k];
            for (int d = 0; d < ndims; d++) {
                nb[2 * d] = rankAt(coords, d, -1, dims, periodic);
                nb[2 * d + 1] = rankAt(coords, d, +1, dims, periodic);
            }

            // all-gather: block i holds neighbour i's items
            int[] got = new int[2 * k];
            Arrays.fill(got, UNTOUCHED);
            cart.neighborAllGather(new int[] {me * 10 + 1, me * 10 + 2}, 2, MPI.INT, got, 2, MPI.INT);
            for (int i = 0; i < k; i++) {
                int e1 = nb[i] == MPI.PROC_NULL ? UNTOUCHED : nb[i] * 10 + 1;
                int e2 = nb[i] == MPI.PROC_NULL ? UNTOUCHED : nb[i] * 10 + 2;
                check(got[2 * i] == e1 && got[2 * i + 1] == e2, "allGather block " + i + ": " + Arrays.toString(got));
            }

            // all-to-all: block j of x is x*100 + j; our block 2d came from the -1 neighbour's block 2d+1
            int[] send = new int[k];
            for (int j = 0; j < k; j++) {
                send[j] = me * 100 + j;
            }
            int[] recv = new int[k];
            Arrays.fill(recv, UNTOUCHED);
            cart.neighborAllToAll(send, 1, MPI.INT, recv, 1, MPI.INT);
            for (int i = 0; i < k; i++) {
                checkEq(expected(nb, i, 0), recv[i], "allToAll block " + i);
            }

            // all-to-allv: block j of x has j+1 items x*100 + j*10 + t, placed with gaps
            int[] scounts = new int[k];
            int[] sdispls = new int[k];
            int at = 0;
            for (int j = 0; j < k; j++) {
                scounts[j] = j + 1;
                sdispls[j] = at + 1;
                at += j + 2;
            }
            int[] sendv = new int[at];
            for (int j = 0; j < k; j++) {
                for (int t = 0; t < scounts[j]; t++) {
                    sendv[sdispls[j] + t] = me * 100 + j * 10 + t;
                }
            }
            int[] rcounts = new int[k];
            int[] rdispls = new int[k];
            at = 0;
            for (int i = 0; i < k; i++) {
                rcounts[i] = partner(i) + 1; // the sender's block size
                rdispls[i] = at + 2;
                at += rcounts[i] + 2;
            }
            int[] recvv = new int[at];
            Arrays.fill(recvv, UNTOUCHED);
            cart.neighborAllToAllv(sendv, scounts, sdispls, MPI.INT, recvv, rcounts, rdispls, MPI.INT);
            for (int i = 0; i < k; i++) {
                checkEq(UNTOUCHED, recvv[rdispls[i] - 1], "the gap before block " + i);
                for (int t = 0; t < rcounts[i]; t++) {
                    int e = nb[i] == MPI.PROC_NULL ? UNTOUCHED : nb[i] * 100 + partner(i) * 10 + t;
                    checkEq(e, recvv[rdispls[i] + t], "allToAllv block " + i + " item " + t);
                }
            }

            // non-blocking forms with direct buffers
            IntBuffer one = MPI.newIntBuffer(1).put(0, me * 10 + 1);
            IntBuffer all = MPI.newIntBuffer(k);
            for (int i = 0; i < k; i++) {
                all.put(i, UNTOUCHED);
            }
            Request r = cart.iNeighborAllGather(one, 1, MPI.INT, all, 1, MPI.INT);
            IntBuffer out = MPI.newIntBuffer(k);
            IntBuffer in = MPI.newIntBuffer(k);
            for (int j = 0; j < k; j++) {
                out.put(j, send[j] + 50);
                in.put(j, UNTOUCHED);
            }
            Request r2 = cart.iNeighborAllToAll(out, 1, MPI.INT, in, 1, MPI.INT);
            r2.waitFor();
            r.waitFor();
            for (int i = 0; i < k; i++) {
                checkEq(nb[i] == MPI.PROC_NULL ? UNTOUCHED : nb[i] * 10 + 1, all.get(i), "iAllGather block " + i);
                checkEq(expected(nb, i, 50), in.get(i), "iAllToAll block " + i);
            }

            // allGatherv into blocks of two with a gap of one
            int[] vcounts = new int[k];
            int[] vdispls = new int[k];
            for (int i = 0; i < k; i++) {
                vcounts[i] = 2;
                vdispls[i] = 3 * i;
            }
            int[] gv = new int[3 * k];
            Arrays.fill(gv, UNTOUCHED);
            cart.neighborAllGatherv(new int[] {me, -me}, 2, MPI.INT, gv, vcounts, vdispls, MPI.INT);
            for (int i = 0; i < k; i++) {
                boolean none = nb[i] == MPI.PROC_NULL;
                check(
                        gv[3 * i] == (none ? UNTOUCHED : nb[i])
                                && gv[3 * i + 1] == (none ? UNTOUCHED : -nb[i])
                                && gv[3 * i + 2] == UNTOUCHED,
                        "allGatherv block " + i);
            }

            expectError(
                    MPI.ERR_TOPOLOGY,
                    "no topology on the world",
                    () -> w.neighborAllGather(new int[1], 1, MPI.INT, new int[1], 1, MPI.INT));
            expectError(
                    MPI.ERR_ARG,
                    "allToAllv with too few counts",
                    () -> cart.neighborAllToAllv(
                            sendv, new int[k - 1], sdispls, MPI.INT, recvv, rcounts, rdispls, MPI.INT));
            expectError(
                    MPI.ERR_COUNT,
                    "receive buffer too small",
                    () -> cart.neighborAllGather(new int[1], 1, MPI.INT, new int[k - 1], 1, MPI.INT));

            long checksum = 0;
            for (int v : recvv) {
                checksum = checksum * 31 + v;
            }
            System.out.println("rank " + me + " neighbours " + Arrays.toString(nb) + " checksum " + checksum);
            cart.free();
            MPI.Finalize();
        }

        /** Which block of the neighbour in position i was sent to us: the opposite direction. */
        private static int partner(int i) {
            return i % 2 == 0 ? i + 1 : i - 1;
        }

        private static int expected(int[] nb, int i, int offset) {
            return nb[i] == MPI.PROC_NULL ? UNTOUCHED : nb[i] * 100 + partner(i) + offset;
        }

        private static int rankAt(int[] coords, int d, int step, int[] dims, boolean periodic) {
            int c = coords[d] + step;
            if (c < 0 || c >= dims[d]) {
                if (!periodic) {
                    return MPI.PROC_NULL;
                }
                c = Math.floorMod(c, dims[d]);
            }
            int rank = 0;
            for (int e = 0; e < dims.length; e++) {
                rank = rank * dims[e] + (e == d ? c : coords[e]);
            }
            return rank;
        }
    }
}
