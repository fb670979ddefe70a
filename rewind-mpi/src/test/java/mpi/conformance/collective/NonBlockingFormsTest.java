package mpi.conformance.collective;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.runOk;

import java.nio.IntBuffer;
import mpi.CartComm;
import mpi.GraphComm;
import mpi.Group;
import mpi.Info;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * MPI standard chapters 5 and 6: the non-blocking vector and in-place collective forms at every root,
 * scans, reduce-scatter forms; duplicates (clone, iDup, dupWithInfo) of intra-, Cartesian, graph and
 * intercommunicators; splitType with hints; groups by excluded rank ranges.
 */
@Tag("conformance")
class NonBlockingFormsTest {

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void nonBlockingVectorAndInPlaceForms(int ranks) {
        runOk(Forms.class, ranks);
    }

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void duplicatesOfEveryCommunicatorKind(int ranks) {
        runOk(Duplicates.class, ranks);
    }

    // ------------------------------------------------------------------------------------------------

    static IntBuffer ints(int... values) {
        IntBuffer b = MPI.newIntBuffer(values.length);
        b.put(0, values);
        return b;
    }

    public static final class Forms {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm c = MPI.COMM_WORLD;
            int me = c.getRank();
            int n = c.getSize();
            // rank i contributes i + 1 values, placed in reverse rank order
            int[] counts = new int[n];
            int[] displs = new int[n];
            int total = 0;
            for (int i = n - 1; i >= 0; i--) {
                counts[i] = i + 1;
                displs[i] = total;
                total += i + 1;
            }
            for (int root = 0; root < n; root++) {
                // iGather in place
                IntBuffer g = MPI.newIntBuffer(2 * n);
                if (me == root) {
                    g.put(2 * me, me).put(2 * me + 1, -me);
                    c.iGather(g, 2, MPI.INT, root).waitFor();
                    for (int i = 0; i < n; i++) {
                        check(g.get(2 * i) == i && g.get(2 * i + 1) == -i, "iGather in place block " + i);
                    }
                } else {
                    c.iGather(ints(me, -me), 2, MPI.INT, root).waitFor();
                }

                // iGatherv, both forms
                IntBuffer mine = MPI.newIntBuffer(me + 1);
                for (int k = 0; k <= me; k++) {
                    mine.put(k, me * 10 + k);
                }
                IntBuffer gv = MPI.newIntBuffer(total);
                c.iGatherv(mine, me + 1, MPI.INT, gv, counts, displs, MPI.INT, root)
                        .waitFor();
                IntBuffer gv2 = MPI.newIntBuffer(total);
                if (me == root) {
                    for (int k = 0; k <= me; k++) {
                        gv2.put(displs[me] + k, me * 10 + k);
                    }
                    c.iGatherv(gv2, counts, displs, MPI.INT, root).waitFor();
                    for (int i = 0; i < n; i++) {
                        for (int k = 0; k <= i; k++) {
                            checkEq(i * 10 + k, gv.get(displs[i] + k), "iGatherv rank " + i + " item " + k);
                            checkEq(i * 10 + k, gv2.get(displs[i] + k), "in-place iGatherv rank " + i + " item " + k);
                        }
                    }
                } else {
                    c.iGatherv(mine, me + 1, MPI.INT, root).waitFor();
                }

                // iScatter in place, scatterv / iScatterv root and non-root forms
                IntBuffer src = MPI.newIntBuffer(total);
                int[] srcArr = new int[total];
                for (int i = 0; i < n; i++) {
                    for (int k = 0; k <= i; k++) {
                        src.put(displs[i] + k, 1000 * i + k + root);
                        srcArr[displs[i] + k] = 1000 * i + k + root;
                    }
                }
                IntBuffer sc = MPI.newIntBuffer(2 * n);
                if (me == root) {
                    for (int k = 0; k < 2 * n; k++) {
                        sc.put(k, k * 3);
                    }
                }
                c.iScatter(sc, 2, MPI.INT, root).waitFor();
                int at = me == root ? 2 * me : 0; // the root's own block stays in place
                check(sc.get(at) == 2 * me * 3 && sc.get(at + 1) == (2 * me + 1) * 3, "iScatter in place at " + me);
                IntBuffer part = MPI.newIntBuffer(me + 1);
                c.iScatterv(src, counts, displs, MPI.INT, part, me + 1, MPI.INT, root)
                        .waitFor();
                int[] partArr = new int[me + 1];
                IntBuffer part2 = MPI.newIntBuffer(me + 1);
                if (me == root) {
                    c.scatterv(srcArr, counts, displs, MPI.INT, root);
                    c.iScatterv(src, counts, displs, MPI.INT, root).waitFor();
                    for (int k = 0; k <= me; k++) {
                        partArr[k] = srcArr[displs[me] + k];
                        part2.put(k, src.get(displs[me] + k));
                    }
                } else {
                    c.scatterv(partArr, me + 1, MPI.INT, root);
                    c.iScatterv(part2, me + 1, MPI.INT, root).waitFor();
                }
                for (int k = 0; k <= me; k++) {
                    int expect = 1000 * me + k + root;
                    checkEq(expect, part.get(k), "iScatterv item " + k);
                    checkEq(expect, partArr[k], "scatterv item " + k);
                    checkEq(expect, part2.get(k), "iScatterv split forms item " + k);
                }

                // iReduce in place
                IntBuffer red = ints(me + 1, me * me);
                if (me == root) {
                    c.iReduce(red, 2, MPI.INT, MPI.SUM, root).waitFor();
                    long sq = 0;
                    for (int i = 0; i < n; i++) {
                        sq += (long) i * i;
                    }
                    checkEq((long) n * (n + 1) / 2, red.get(0), "iReduce in place sum");
                    checkEq(sq, red.get(1), "iReduce in place squares");
                } else {
                    c.iReduce(red, 2, MPI.INT, MPI.SUM, root).waitFor();
                }
            }

            // iAllGatherv, both forms
            IntBuffer mine = MPI.newIntBuffer(me + 1);
            IntBuffer all = MPI.newIntBuffer(total);
            IntBuffer allIn = MPI.newIntBuffer(total);
            for (int k = 0; k <= me; k++) {
                mine.put(k, me * 10 + k);
                allIn.put(displs[me] + k, me * 10 + k);
            }
            Request r1 = c.iAllGatherv(mine, me + 1, MPI.INT, all, counts, displs, MPI.INT);
            r1.waitFor();
            c.iAllGatherv(allIn, counts, displs, MPI.INT).waitFor();
            for (int i = 0; i < n; i++) {
                for (int k = 0; k <= i; k++) {
                    checkEq(i * 10 + k, all.get(displs[i] + k), "iAllGatherv " + i + "/" + k);
                    checkEq(i * 10 + k, allIn.get(displs[i] + k), "in-place iAllGatherv " + i + "/" + k);
                }
            }

            // iAllToAllv: rank me sends j + 1 copies of (me * 100 + j) to rank j
            int[] sc = new int[n];
            int[] sd = new int[n];
            int[] rc = new int[n];
            int[] rd = new int[n];
            int st = 0;
            for (int j = 0; j < n; j++) {
                sc[j] = j + 1;
                sd[j] = st;
                st += j + 1;
                rc[j] = me + 1;
                rd[j] = j * (me + 1);
            }
            IntBuffer sbuf = MPI.newIntBuffer(st);
            for (int j = 0; j < n; j++) {
                for (int k = 0; k <= j; k++) {
                    sbuf.put(sd[j] + k, me * 100 + j);
                }
            }
            IntBuffer rbuf = MPI.newIntBuffer(n * (me + 1));
            c.iAllToAllv(sbuf, sc, sd, MPI.INT, rbuf, rc, rd, MPI.INT).waitFor();
            for (int j = 0; j < n; j++) {
                for (int k = 0; k <= me; k++) {
                    checkEq(j * 100 + me, rbuf.get(rd[j] + k), "iAllToAllv from " + j);
                }
            }

            // Reduce-scatter forms: element e of the vector is contributed as rank * 1000 + e.
            int[] rcounts = new int[n];
            int len = 0;
            for (int i = 0; i < n; i++) {
                rcounts[i] = (i % 2) + 1;
                len += rcounts[i];
            }
            int offset = 0;
            for (int i = 0; i < me; i++) {
                offset += rcounts[i];
            }
            long rankSum = (long) n * (n - 1) / 2 * 1000;
            IntBuffer vec = MPI.newIntBuffer(len);
            IntBuffer vecIn = MPI.newIntBuffer(len);
            for (int e = 0; e < len; e++) {
                vec.put(e, me * 1000 + e);
                vecIn.put(e, me * 1000 + e);
            }
            IntBuffer rs = MPI.newIntBuffer(rcounts[me]);
            c.iReduceScatter(vec, rs, rcounts, MPI.INT, MPI.SUM).waitFor();
            c.iReduceScatter(vecIn, rcounts, MPI.INT, MPI.SUM).waitFor();
            for (int k = 0; k < rcounts[me]; k++) {
                long expect = rankSum + (long) n * (offset + k);
                checkEq(expect, rs.get(k), "iReduceScatter item " + k);
                checkEq(expect, vecIn.get(k), "in-place iReduceScatter item " + k);
            }
            int[] block = new int[2 * n];
            IntBuffer blockBuf = MPI.newIntBuffer(2 * n);
            for (int e = 0; e < 2 * n; e++) {
                block[e] = me * 1000 + e;
                blockBuf.put(e, me * 1000 + e);
            }
            c.reduceScatterBlock(block, 2, MPI.INT, MPI.SUM);
            c.iReduceScatterBlock(blockBuf, 2, MPI.INT, MPI.SUM).waitFor();
            for (int k = 0; k < 2; k++) {
                long expect = rankSum + (long) n * (2 * me + k);
                checkEq(expect, block[k], "in-place reduceScatterBlock item " + k);
                checkEq(expect, blockBuf.get(k), "in-place iReduceScatterBlock item " + k);
            }

            // Scans: inclusive in place, exclusive in place and non-blocking.
            IntBuffer scan = ints(me + 1, 2);
            c.iScan(scan, 2, MPI.INT, MPI.SUM).waitFor();
            checkEq((long) (me + 1) * (me + 2) / 2, scan.get(0), "in-place iScan");
            checkEq(2L * (me + 1), scan.get(1), "in-place iScan constant");
            int[] ex = {me + 1, 3};
            c.exScan(ex, 2, MPI.INT, MPI.SUM);
            IntBuffer exOut = MPI.newIntBuffer(2);
            c.iExScan(ints(me + 1, 3), exOut, 2, MPI.INT, MPI.PROD).waitFor();
            if (me > 0) {
                checkEq((long) me * (me + 1) / 2, ex[0], "in-place exScan");
                checkEq(3L * me, ex[1], "in-place exScan constant");
                long fact = 1;
                long pow = 1;
                for (int i = 1; i <= me; i++) {
                    fact *= i;
                    pow *= 3;
                }
                checkEq(fact, exOut.get(0), "iExScan product");
                checkEq(pow, exOut.get(1), "iExScan power");
            }
            IntBuffer exIn = ints(me + 1);
            c.iExScan(exIn, 1, MPI.INT, MPI.MAX).waitFor();
            if (me > 0) {
                checkEq(me, exIn.get(0), "in-place iExScan max");
            }

            // splitType with hints, rangeExcl
            Info hints = new Info();
            hints.set("key", "value");
            Intracomm shared = c.splitType(MPI.COMM_TYPE_SHARED, -me, hints);
            check(shared.getSize() >= 1 && shared.getSize() <= n, "splitType size");
            int[] one = new int[1];
            shared.allReduce(new int[] {1}, one, 1, MPI.INT, MPI.SUM);
            checkEq(shared.getSize(), one[0], "allReduce on the splitType communicator");
            shared.free();
            hints.free();
            Group world = c.getGroup();
            // Exclude the even ranks 0, 2, 4, ... below n
            Group odd = world.rangeExcl(new int[][] {{0, n - 1 - ((n - 1) % 2), 2}});
            checkEq(n / 2, odd.getSize(), "rangeExcl size");
            checkEq(me % 2 == 1 ? me / 2 : MPI.UNDEFINED, odd.getRank(), "rank in rangeExcl group");
            odd.free();
            world.free();
            MPI.Finalize();
        }
    }

    public static final class Duplicates {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm world = MPI.COMM_WORLD;
            int me = world.getRank();
            int n = world.getSize();
            Info hints = new Info();
            hints.set("hint", "1");

            Intracomm a = world.clone();
            Intracomm b = world.iDup();
            b.getRequest().waitFor();
            Intracomm d = world.dupWithInfo(hints);
            for (Intracomm x : new Intracomm[] {a, b, d}) {
                checkEq(me, x.getRank(), "rank in an intracomm duplicate");
                int[] s = new int[1];
                x.allReduce(new int[] {me}, s, 1, MPI.INT, MPI.SUM);
                checkEq((long) n * (n - 1) / 2, s[0], "allReduce on an intracomm duplicate");
                x.free();
            }

            CartComm cart = world.createCart(new int[] {n}, new boolean[] {true}, false);
            CartComm[] carts = {cart.clone(), cart.iDup(), cart.dupWithInfo(hints)};
            for (CartComm x : carts) {
                checkEq(me, x.getCoords(me)[0], "Cartesian coordinate in a duplicate");
                checkEq((me + 1) % n, x.shift(0, 1).getRankDest(), "shift in a Cartesian duplicate");
                x.free();
            }
            cart.free();

            // A ring graph: node i is joined to i - 1 and i + 1.
            int[] index = new int[n];
            int[] edges = new int[2 * n];
            for (int i = 0; i < n; i++) {
                index[i] = 2 * (i + 1);
                edges[2 * i] = (i + n - 1) % n;
                edges[2 * i + 1] = (i + 1) % n;
            }
            GraphComm graph = world.createGraph(index, edges, false);
            GraphComm[] graphs = {graph.clone(), graph.iDup(), graph.dupWithInfo(hints)};
            for (GraphComm x : graphs) {
                int[] nb = x.getNeighbors(me);
                checkEq(2, nb.length, "graph neighbors in a duplicate");
                checkEq((me + n - 1) % n, nb[0], "left neighbor in a graph duplicate");
                checkEq((me + 1) % n, nb[1], "right neighbor in a graph duplicate");
                x.free();
            }
            graph.free();

            if (n >= 2) {
                int lowSize = n / 2;
                boolean low = me < lowSize;
                Intracomm half = world.split(low ? 0 : 1, me);
                Intercomm inter = world.createIntercomm(half, 0, low ? lowSize : 0, 7);
                Intercomm[] inters = {inter.iDup(), inter.dupWithInfo(hints)};
                for (Intercomm x : inters) {
                    checkEq(low ? n - lowSize : lowSize, x.getRemoteSize(), "remote size of a duplicate");
                    // Leaders exchange their world ranks across the duplicate.
                    if (x.getRank() == 0) {
                        int[] got = new int[1];
                        x.sendRecv(new int[] {me}, 1, MPI.INT, 0, 3, got, 1, MPI.INT, 0, 3);
                        checkEq(low ? lowSize : 0, got[0], "leader exchange across an intercomm duplicate");
                    }
                    x.free();
                }
                inter.free();
                half.free();
            }
            hints.free();
            MPI.Finalize();
        }
    }
}
