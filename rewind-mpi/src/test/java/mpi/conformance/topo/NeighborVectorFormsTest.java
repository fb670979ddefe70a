package mpi.conformance.topo;

import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.runOk;

import java.nio.IntBuffer;
import mpi.CartComm;
import mpi.MPI;
import mpi.MPIException;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * MPI standard chapter 7.6: the non-blocking vector neighbourhood collectives on a periodic ring,
 * where neighbour 0 is the left one and neighbour 1 the right one; a block sent to the left arrives
 * as the receiver's block from the right, and the other way round.
 */
@Tag("conformance")
class NeighborVectorFormsTest {

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void nonBlockingVectorNeighborCollectivesOnARing(int ranks) {
        runOk(Ring.class, ranks);
    }

    public static final class Ring {
        private static final int UNTOUCHED = -1;

        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int n = MPI.COMM_WORLD.getSize();
            CartComm ring = MPI.COMM_WORLD.createCart(new int[] {n}, new boolean[] {true}, false);
            int me = ring.getRank();
            int left = (me + n - 1) % n;
            int right = (me + 1) % n;
            int[] nb = {left, right};

            // allGatherv: each rank sends 2 items; block i lands at displacement 3 * i + 1.
            IntBuffer recv = MPI.newIntBuffer(6);
            for (int k = 0; k < 6; k++) {
                recv.put(k, UNTOUCHED);
            }
            IntBuffer send = MPI.newIntBuffer(2).put(0, me).put(1, -me - 1);
            ring.iNeighborAllGatherv(send, 2, MPI.INT, recv, new int[] {2, 2}, new int[] {1, 4}, MPI.INT)
                    .waitFor();
            for (int i = 0; i < 2; i++) {
                checkEq(UNTOUCHED, recv.get(3 * i), "gap before block " + i);
                checkEq(nb[i], recv.get(3 * i + 1), "allGatherv block " + i + " item 0");
                checkEq(-nb[i] - 1, recv.get(3 * i + 2), "allGatherv block " + i + " item 1");
            }

            // allToAllv: block j (to neighbour j) has j + 1 items me * 100 + j * 10 + t.
            int[] scounts = {1, 2};
            int[] sdispls = {2, 0};
            IntBuffer sv = MPI.newIntBuffer(3);
            sv.put(2, me * 100);
            sv.put(0, me * 100 + 10).put(1, me * 100 + 11);
            // From the left neighbour comes its block 1 (two items), from the right its block 0 (one).
            int[] rcounts = {2, 1};
            int[] rdispls = {1, 4};
            IntBuffer rv = MPI.newIntBuffer(5);
            for (int k = 0; k < 5; k++) {
                rv.put(k, UNTOUCHED);
            }
            ring.iNeighborAllToAllv(sv, scounts, sdispls, MPI.INT, rv, rcounts, rdispls, MPI.INT)
                    .waitFor();
            checkEq(UNTOUCHED, rv.get(0), "gap before block 0");
            checkEq(left * 100 + 10, rv.get(1), "from the left, item 0");
            checkEq(left * 100 + 11, rv.get(2), "from the left, item 1");
            checkEq(UNTOUCHED, rv.get(3), "gap before block 1");
            checkEq(right * 100, rv.get(4), "from the right");
            ring.free();
            MPI.Finalize();
        }
    }
}
