package mpi.conformance.collective;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.runOk;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import mpi.Datatype;
import mpi.Int2;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import mpi.UserFunction;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * MPI standard chapter 5: collective communication. Every collective, blocking and non-blocking, at
 * every root, on COMM_WORLD and on communicators derived from it (dup, split, create).
 */
@Tag("conformance")
class CollectivesTest {

    @ParameterizedTest
    @RankCounts({1, 2, 3, 5, 8})
    void everyCollectiveAtEveryRootOnWorldAndDerivedCommunicators(int ranks) {
        runOk(AllCollectives.class, ranks);
    }

    @ParameterizedTest
    @RankCounts({1, 3, 4})
    void nonBlockingCollectivesOverlapEachOtherAndPointToPoint(int ranks) {
        runOk(NonBlocking.class, ranks);
    }

    @ParameterizedTest
    @RankCounts({1, 2, 5})
    void reductionOperators(int ranks) {
        runOk(Reductions.class, ranks);
    }

    // ------------------------------------------------------------------------------------------------

    public static final class AllCollectives {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm world = MPI.COMM_WORLD;
            int me = world.getRank();
            run(world);
            Intracomm dup = world.dup();
            run(dup);
            Intracomm half = world.split(me % 2, -me); // reversed rank order
            checkEq((world.getSize() - (me % 2) + 1) / 2, half.getSize(), "split size");
            run(half);
            int[] evens = new int[(world.getSize() + 1) / 2];
            for (int i = 0; i < evens.length; i++) {
                evens[i] = 2 * i;
            }
            Intracomm even = world.create(world.getGroup().incl(evens));
            check(even.isNull() == (me % 2 == 1), "create gives odd ranks a null communicator");
            if (!even.isNull()) {
                checkEq(me / 2, even.getRank(), "rank in created communicator");
                run(even);
                even.free();
            }
            half.free();
            dup.free();
            MPI.Finalize();
        }

        static void run(Intracomm c) throws MPIException {
            int n = c.getSize();
            int me = c.getRank();
            c.barrier();
            for (int root = 0; root < n; root++) {
                // bcast
                int[] b = me == root ? new int[] {root, 7, 9} : new int[3];
                c.bcast(b, 3, MPI.INT, root);
                check(b[0] == root && b[1] == 7 && b[2] == 9, "bcast from " + root);

                // gather and in-place gather
                int[] g = new int[2 * n];
                c.gather(new int[] {me, me * 2}, 2, MPI.INT, g, 2, MPI.INT, root);
                if (me == root) {
                    for (int i = 0; i < n; i++) {
                        check(g[2 * i] == i && g[2 * i + 1] == 2 * i, "gather block " + i);
                    }
                }
                int[] gi = new int[2 * n];
                if (me == root) {
                    gi[2 * me] = me;
                    gi[2 * me + 1] = 2 * me;
                    c.gather(gi, 2, MPI.INT, root);
                    for (int i = 0; i < n; i++) {
                        check(gi[2 * i] == i && gi[2 * i + 1] == 2 * i, "in-place gather block " + i);
                    }
                } else {
                    c.gather(new int[] {me, 2 * me}, 2, MPI.INT, root);
                }

                // gatherv: rank i sends i+1 values, placed in reverse order with gaps
                int[] counts = new int[n];
                int[] displs = new int[n];
                for (int i = 0; i < n; i++) {
                    counts[i] = i + 1;
                    displs[i] = (n - 1 - i) * (n + 1);
                }
                int[] mine = new int[me + 1];
                java.util.Arrays.fill(mine, me + 1);
                int[] gv = new int[n * (n + 1)];
                java.util.Arrays.fill(gv, -1);
                c.gatherv(mine, me + 1, MPI.INT, gv, counts, displs, MPI.INT, root);
                if (me == root) {
                    for (int i = 0; i < n; i++) {
                        for (int k = 0; k < n + 1; k++) {
                            int expect = k <= i ? i + 1 : -1;
                            checkEq(expect, gv[displs[i] + k], "gatherv rank " + i + " slot " + k);
                        }
                    }
                    java.util.Arrays.fill(gv, -1);
                    System.arraycopy(mine, 0, gv, displs[me], me + 1);
                    c.gatherv(gv, counts, displs, MPI.INT, root);
                    checkEq(n, gv[displs[n - 1] + n - 1], "in-place gatherv");
                } else {
                    c.gatherv(mine, me + 1, MPI.INT, root);
                }

                // scatter, in-place scatter, scatterv
                double[] src = new double[3 * n];
                for (int i = 0; i < src.length; i++) {
                    src[i] = i * 0.5;
                }
                double[] part = new double[3];
                c.scatter(me == root ? src : null, 3, MPI.DOUBLE, part, 3, MPI.DOUBLE, root);
                check(part[0] == 3 * me * 0.5 && part[2] == (3 * me + 2) * 0.5, "scatter to " + me);
                double[] inPlace = me == root ? src.clone() : new double[3];
                c.scatter(inPlace, 3, MPI.DOUBLE, root);
                check(inPlace[2] == (me == root ? 2 * 0.5 : (3 * me + 2) * 0.5), "in-place scatter");
                int[] sv = new int[n * (n + 1)];
                for (int i = 0; i < n; i++) {
                    for (int k = 0; k <= i; k++) {
                        sv[displs[i] + k] = 1000 * i + k;
                    }
                }
                int[] got = new int[me + 1];
                c.scatterv(sv, counts, displs, MPI.INT, got, me + 1, MPI.INT, root);
                for (int k = 0; k <= me; k++) {
                    checkEq(1000L * me + k, got[k], "scatterv element " + k);
                }

                // reduce (to every root), in place
                long[] sum = new long[2];
                c.reduce(new long[] {me, 1}, sum, 2, MPI.LONG, MPI.SUM, root);
                if (me == root) {
                    check(sum[0] == (long) n * (n - 1) / 2 && sum[1] == n, "reduce sum at " + root);
                }
                double[] mx = {me * 1.5};
                c.reduce(mx, 1, MPI.DOUBLE, MPI.MAX, root);
                if (me == root) {
                    check(mx[0] == (n - 1) * 1.5, "in-place reduce max");
                }
            }

            // allGather (and in place), allGatherv
            int[] ag = new int[n];
            c.allGather(new int[] {me * me}, 1, MPI.INT, ag, 1, MPI.INT);
            int[] agi = new int[2 * n];
            agi[2 * me] = me;
            agi[2 * me + 1] = -me;
            c.allGather(agi, 2, MPI.INT);
            for (int i = 0; i < n; i++) {
                checkEq((long) i * i, ag[i], "allGather");
                check(agi[2 * i] == i && agi[2 * i + 1] == -i, "in-place allGather");
            }
            int[] counts = new int[n];
            int[] displs = new int[n];
            int total = 0;
            for (int i = 0; i < n; i++) {
                counts[i] = i % 3;
                displs[i] = total;
                total += counts[i];
            }
            int[] mine = new int[me % 3];
            java.util.Arrays.fill(mine, me);
            int[] agv = new int[total];
            c.allGatherv(mine, me % 3, MPI.INT, agv, counts, displs, MPI.INT);
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < counts[i]; k++) {
                    checkEq(i, agv[displs[i] + k], "allGatherv");
                }
            }
            int[] agvi = new int[total];
            System.arraycopy(mine, 0, agvi, displs[me], mine.length);
            c.allGatherv(agvi, counts, displs, MPI.INT);
            check(java.util.Arrays.equals(agv, agvi), "in-place allGatherv");

            // allToAll, allToAllv
            int[] a2a = new int[n];
            int[] a2aIn = new int[n];
            for (int j = 0; j < n; j++) {
                a2a[j] = me * 100 + j;
            }
            c.allToAll(a2a, 1, MPI.INT, a2aIn, 1, MPI.INT);
            for (int j = 0; j < n; j++) {
                checkEq(j * 100L + me, a2aIn[j], "allToAll from " + j);
            }
            int[] sc = new int[n];
            int[] sd = new int[n];
            int[] rc = new int[n];
            int[] rd = new int[n];
            int st = 0;
            int rt = 0;
            for (int j = 0; j < n; j++) {
                sc[j] = me + 1;
                sd[j] = st;
                st += sc[j];
                rc[j] = j + 1;
                rd[j] = rt;
                rt += rc[j];
            }
            int[] vs = new int[st];
            for (int j = 0; j < n; j++) {
                java.util.Arrays.fill(vs, sd[j], sd[j] + sc[j], me * 100 + j);
            }
            int[] vr = new int[rt];
            c.allToAllv(vs, sc, sd, MPI.INT, vr, rc, rd, MPI.INT);
            for (int j = 0; j < n; j++) {
                for (int k = 0; k < rc[j]; k++) {
                    checkEq(j * 100L + me, vr[rd[j] + k], "allToAllv from " + j);
                }
            }

            // allReduce, in place
            double[] ar = new double[1];
            c.allReduce(new double[] {me + 1.0}, ar, 1, MPI.DOUBLE, MPI.SUM);
            check(ar[0] == n * (n + 1) / 2.0, "allReduce sum");
            int[] ari = {me};
            c.allReduce(ari, 1, MPI.INT, MPI.MIN);
            checkEq(0, ari[0], "in-place allReduce min");

            // reduceScatter (counts i+1), in place; reduceScatterBlock
            int[] rsc = new int[n];
            int rsTotal = 0;
            for (int i = 0; i < n; i++) {
                rsc[i] = i + 1;
                rsTotal += rsc[i];
            }
            int[] rsIn = new int[rsTotal];
            for (int k = 0; k < rsTotal; k++) {
                rsIn[k] = me + k;
            }
            int[] rsOut = new int[me + 1];
            c.reduceScatter(rsIn, rsOut, rsc, MPI.INT, MPI.SUM);
            int off = me * (me + 1) / 2;
            for (int k = 0; k <= me; k++) {
                checkEq((long) n * (off + k) + (long) n * (n - 1) / 2, rsOut[k], "reduceScatter element " + k);
            }
            int[] rsInPlace = rsIn.clone();
            c.reduceScatter(rsInPlace, rsc, MPI.INT, MPI.SUM);
            check(rsInPlace[0] == rsOut[0], "in-place reduceScatter");
            int[] blk = new int[2 * n];
            for (int k = 0; k < 2 * n; k++) {
                blk[k] = k;
            }
            int[] blkOut = new int[2];
            c.reduceScatterBlock(blk, blkOut, 2, MPI.INT, MPI.SUM);
            check(blkOut[0] == n * 2 * me && blkOut[1] == n * (2 * me + 1), "reduceScatterBlock");

            // scan / exScan
            int[] sc1 = new int[1];
            c.scan(new int[] {me + 1}, sc1, 1, MPI.INT, MPI.SUM);
            checkEq((long) (me + 1) * (me + 2) / 2, sc1[0], "scan");
            int[] ex = {-7};
            c.exScan(new int[] {me + 1}, ex, 1, MPI.INT, MPI.SUM);
            checkEq(me == 0 ? -7 : (long) me * (me + 1) / 2, ex[0], "exScan");
            int[] scIn = {me + 1};
            c.scan(scIn, 1, MPI.INT, MPI.PROD);
            long fact = 1;
            for (int i = 1; i <= me + 1; i++) {
                fact *= i;
            }
            checkEq(fact, scIn[0], "in-place scan");

            // A derived datatype in a collective: broadcast every other element.
            Datatype stride2 = Datatype.createVector(3, 1, 2, MPI.INT);
            stride2.commit();
            int[] v = new int[6];
            if (me == 0) {
                v = new int[] {1, -1, 2, -1, 3, -1};
            }
            c.bcast(v, 1, stride2, 0);
            check(v[0] == 1 && v[2] == 2 && v[4] == 3 && v[1] == (me == 0 ? -1 : 0), "bcast of a vector type");
            stride2.free();
        }
    }

    /** Several non-blocking collectives in flight at once, completed out of order, with p2p in between. */
    public static final class NonBlocking {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm c = MPI.COMM_WORLD;
            int n = c.getSize();
            int me = c.getRank();
            IntBuffer sumIn = IntBuffer.wrap(new int[] {me, 1});
            IntBuffer sumOut = MPI.newIntBuffer(2);
            IntBuffer gathered = IntBuffer.allocate(n);
            DoubleBuffer bc = MPI.newDoubleBuffer(2);
            if (me == n - 1) {
                bc.put(0, 3.25).put(1, -1);
            }
            LongBuffer scan = LongBuffer.allocate(1);
            IntBuffer a2aOut = IntBuffer.allocate(n);
            IntBuffer a2aIn = IntBuffer.allocate(n);
            for (int j = 0; j < n; j++) {
                a2aOut.put(j, me * 10 + j);
            }
            IntBuffer scat = IntBuffer.allocate(1);
            IntBuffer scatSrc = IntBuffer.allocate(n);
            for (int j = 0; j < n; j++) {
                scatSrc.put(j, j * 3);
            }
            IntBuffer red = IntBuffer.allocate(1);
            IntBuffer rsb = IntBuffer.allocate(1);
            IntBuffer ex = IntBuffer.allocate(1);
            Request[] reqs = {
                c.iAllReduce(sumIn, sumOut, 2, MPI.INT, MPI.SUM),
                c.iAllGather(IntBuffer.wrap(new int[] {me + 5}), 1, MPI.INT, gathered, 1, MPI.INT),
                c.iBcast(bc, 2, MPI.DOUBLE, n - 1),
                c.iScan(LongBuffer.wrap(new long[] {2}), scan, 1, MPI.LONG, MPI.SUM),
                c.iAllToAll(a2aOut, 1, MPI.INT, a2aIn, 1, MPI.INT),
                c.iScatter(scatSrc, 1, MPI.INT, scat, 1, MPI.INT, 0),
                c.iReduce(IntBuffer.wrap(new int[] {me}), red, 1, MPI.INT, MPI.MAX, n / 2),
                c.iReduceScatterBlock(IntBuffer.wrap(repeat(1, n)), rsb, 1, MPI.INT, MPI.SUM),
                c.iExScan(IntBuffer.wrap(new int[] {1}), ex, 1, MPI.INT, MPI.SUM),
                c.iBarrier(),
            };
            // Point-to-point traffic on the same communicator while the collectives run.
            int right = (me + 1) % n;
            int left = (me - 1 + n) % n;
            int[] ring = new int[1];
            c.sendRecv(new int[] {me}, 1, MPI.INT, right, 0, ring, 1, MPI.INT, left, 0);
            checkEq(left, ring[0], "p2p during collectives");
            for (int i = reqs.length - 1; i >= 0; i--) {
                reqs[i].waitFor();
            }
            check(sumOut.get(0) == n * (n - 1) / 2 && sumOut.get(1) == n, "iAllReduce");
            for (int j = 0; j < n; j++) {
                checkEq(j + 5, gathered.get(j), "iAllGather");
                checkEq(j * 10L + me, a2aIn.get(j), "iAllToAll");
            }
            check(bc.get(0) == 3.25, "iBcast");
            checkEq(2L * (me + 1), scan.get(0), "iScan");
            checkEq(me * 3L, scat.get(0), "iScatter");
            if (me == n / 2) {
                checkEq(n - 1, red.get(0), "iReduce");
            }
            checkEq(n, rsb.get(0), "iReduceScatterBlock");
            if (me > 0) {
                checkEq(me, ex.get(0), "iExScan");
            }
            // A completion function over several collective requests.
            IntBuffer g2 = IntBuffer.allocate(2 * n);
            IntBuffer ig = IntBuffer.allocate(2 * n);
            ig.put(2 * me, me).put(2 * me + 1, me);
            Request[] more = {
                c.iGather(IntBuffer.wrap(new int[] {me, me}), 2, MPI.INT, g2, 2, MPI.INT, 0),
                c.iAllGather(ig, 2, MPI.INT),
                c.iAllReduce(IntBuffer.wrap(new int[] {1}), 1, MPI.INT, MPI.SUM),
            };
            int done = 0;
            while (done < more.length) {
                int[] idx = Request.waitSome(more);
                done += idx.length;
            }
            if (me == 0) {
                checkEq(n - 1, g2.get(2 * n - 1), "iGather");
            }
            checkEq(n - 1, ig.get(2 * n - 2), "in-place iAllGather");
            MPI.Finalize();
        }

        private static int[] repeat(int v, int n) {
            int[] a = new int[n];
            java.util.Arrays.fill(a, v);
            return a;
        }
    }

    /** Predefined operators on several types, MINLOC/MAXLOC pairs, user operators (one not commutative). */
    public static final class Reductions {
        /** Composition of affine maps x -> a*x + b (mod P): associative, not commutative. */
        static final long P = 1_000_003;

        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm c = MPI.COMM_WORLD;
            int n = c.getSize();
            int me = c.getRank();

            boolean[] land = {true};
            c.allReduce(new boolean[] {me != 1}, land, 1, MPI.BOOLEAN, MPI.LAND);
            check(land[0] == (n < 2), "boolean LAND");
            int[] bor = new int[1];
            c.allReduce(new int[] {1 << me}, bor, 1, MPI.INT, MPI.BOR);
            checkEq((1L << n) - 1, bor[0], "BOR");
            int[] bx = new int[1];
            c.allReduce(new int[] {3}, bx, 1, MPI.INT, MPI.BXOR);
            checkEq(n % 2 == 0 ? 0 : 3, bx[0], "BXOR");
            float[] fmin = new float[1];
            c.allReduce(new float[] {10f - me}, fmin, 1, MPI.FLOAT, MPI.MIN);
            check(fmin[0] == 10f - (n - 1), "float MIN");
            short[] sp = new short[1];
            c.allReduce(new short[] {2}, sp, 1, MPI.SHORT, MPI.PROD);
            checkEq(1L << n, sp[0], "short PROD");
            mpi.conformance.Jobs.expectError(
                    MPI.ERR_OP,
                    "SUM on booleans",
                    () -> c.allReduce(new boolean[1], new boolean[1], 1, MPI.BOOLEAN, MPI.SUM));

            // MINLOC / MAXLOC on (int, int) pairs in a direct buffer and (double, int) in a byte[].
            ByteBuffer in = MPI.newByteBuffer(2 * MPI.int2.getExtent());
            ByteBuffer out = MPI.newByteBuffer(2 * MPI.int2.getExtent());
            Int2.Data a = MPI.int2.getData(in, 0);
            a.putValue(me % 3);
            a.putIndex(me);
            Int2.Data b = MPI.int2.getData(in, 1);
            b.putValue(-(me % 2));
            b.putIndex(me);
            c.allReduce(in, out, 2, MPI.INT2, MPI.MAXLOC);
            Int2.Data r0 = MPI.int2.getData(out, 0);
            int maxVal = Math.min(n - 1, 2);
            checkEq(maxVal, r0.getValue(), "MAXLOC value");
            checkEq(maxVal, r0.getIndex(), "MAXLOC index (lowest rank among equals)");
            byte[] din = new byte[MPI.doubleInt.getExtent()];
            byte[] dout = new byte[MPI.doubleInt.getExtent()];
            mpi.DoubleInt.Data d = MPI.doubleInt.getData(din);
            d.putValue(Math.abs(me - n / 2) + 0.5);
            d.putIndex(me * 10);
            c.allReduce(din, dout, 1, MPI.DOUBLE_INT, MPI.MINLOC);
            mpi.DoubleInt.Data dr = MPI.doubleInt.getData(dout);
            check(dr.getValue() == 0.5 && dr.getIndex() == (n / 2) * 10, "MINLOC on DOUBLE_INT");

            // A commutative user operator (array form).
            Op sum = new Op(
                    new UserFunction() {
                        @Override
                        public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
                            int[] x = (int[]) inVec;
                            int[] y = (int[]) inOutVec;
                            for (int i = 0; i < count; i++) {
                                y[i] += x[i];
                            }
                        }
                    },
                    true);
            int[] us = new int[2];
            c.allReduce(new int[] {me, 2}, us, 2, MPI.INT, sum);
            check(us[0] == n * (n - 1) / 2 && us[1] == 2 * n, "user commutative op");

            // A non-commutative user operator (buffer form) must combine in rank order.
            Op compose = new Op(
                    new UserFunction() {
                        @Override
                        public void call(ByteBuffer inBuf, ByteBuffer inOutBuf, int count, Datatype datatype) {
                            LongBuffer x = inBuf.asLongBuffer();
                            LongBuffer y = inOutBuf.asLongBuffer();
                            for (int i = 0; i < count; i++) {
                                long a1 = x.get(2 * i);
                                long b1 = x.get(2 * i + 1);
                                long a2 = y.get(2 * i);
                                long b2 = y.get(2 * i + 1);
                                // (in o inout)(v) = in(inout(v)): a1*(a2*v+b2)+b1
                                y.put(2 * i, a1 * a2 % P);
                                y.put(2 * i + 1, (a1 * b2 + b1) % P);
                            }
                        }
                    },
                    false);
            check(!compose.isCommutative(), "isCommutative");
            Datatype affine = Datatype.createContiguous(2, MPI.LONG);
            affine.commit();
            long[] mineMap = {me + 2, 3L * me + 1};
            long[][] maps = new long[n][];
            for (int r = 0; r < n; r++) {
                maps[r] = new long[] {r + 2, 3L * r + 1};
            }
            for (int root = 0; root < n; root++) {
                long[] res = new long[2];
                c.reduce(mineMap, res, 1, affine, compose, root);
                if (me == root) {
                    long[] expect = fold(maps, n);
                    check(res[0] == expect[0] && res[1] == expect[1], "non-commutative reduce at root " + root);
                }
            }
            long[] all = new long[2];
            c.allReduce(mineMap, all, 1, affine, compose);
            long[] expect = fold(maps, n);
            check(all[0] == expect[0] && all[1] == expect[1], "non-commutative allReduce");
            long[] pre = new long[2];
            c.scan(mineMap, pre, 1, affine, compose);
            long[] expectPre = fold(maps, me + 1);
            check(pre[0] == expectPre[0] && pre[1] == expectPre[1], "non-commutative scan");
            long[] local = {5, 7};
            MPI.COMM_WORLD.reduceLocal(new long[] {2, 1}, local, 1, affine, compose);
            check(local[0] == 10 && local[1] == 15, "reduceLocal: (2x+1) o (5x+7) = 10x+15");
            MPI.Finalize();
        }

        /** maps[0] o maps[1] o ... o maps[k-1], the rank-order combination. */
        static long[] fold(long[][] maps, int k) {
            long[] acc = maps[k - 1].clone();
            for (int r = k - 2; r >= 0; r--) {
                long a1 = maps[r][0];
                long b1 = maps[r][1];
                acc = new long[] {a1 * acc[0] % P, (a1 * acc[1] + b1) % P};
            }
            return acc;
        }
    }
}
