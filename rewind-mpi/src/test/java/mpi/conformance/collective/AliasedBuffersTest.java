package mpi.conformance.collective;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.runOk;

import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One buffer given as both the send and the receive buffer of a collective or of sendRecv. MPI calls
 * that erroneous, but Open MPI's Java bindings copy array arguments in and out, so a program that does
 * it gets there what it would get with a copy of the send buffer; it must get the same here, every
 * time, and the same again after a crash. Each operation runs on one buffer and on a copy as the send
 * buffer, and the two results must be equal.
 */
class AliasedBuffersTest {

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void oneBufferAsBothEndsActsAsACopy(int ranks) {
        runOk(OneBuffer.class, ranks);
    }

    public static final class OneBuffer {
        private static final int ROUNDS = 20;
        private static final int BLOCK = 48;

        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm w = MPI.COMM_WORLD;
            int n = w.getSize();
            int me = w.getRank();
            long digest = 0;
            for (int round = 0; round < ROUNDS; round++) {
                int[] a = values(n * BLOCK, me, round);

                int[] one = a.clone();
                int[] apart = a.clone();
                w.allReduce(one, one, BLOCK, MPI.INT, MPI.SUM);
                w.allReduce(a.clone(), apart, BLOCK, MPI.INT, MPI.SUM);
                digest = same(one, apart, "allReduce", digest);

                one = a.clone();
                apart = a.clone();
                w.allToAll(one, BLOCK, MPI.INT, one, BLOCK, MPI.INT);
                w.allToAll(a.clone(), BLOCK, MPI.INT, apart, BLOCK, MPI.INT);
                digest = same(one, apart, "allToAll", digest);

                one = a.clone();
                apart = a.clone();
                w.allGather(one, BLOCK, MPI.INT, one, BLOCK, MPI.INT);
                w.allGather(a.clone(), BLOCK, MPI.INT, apart, BLOCK, MPI.INT);
                digest = same(one, apart, "allGather", digest);

                int root = round % n;
                one = a.clone();
                apart = a.clone();
                w.gather(one, BLOCK, MPI.INT, one, BLOCK, MPI.INT, root);
                w.gather(a.clone(), BLOCK, MPI.INT, apart, BLOCK, MPI.INT, root);
                digest = same(one, apart, "gather", digest);

                one = a.clone();
                apart = a.clone();
                w.scatter(one, BLOCK, MPI.INT, one, BLOCK, MPI.INT, root);
                w.scatter(a.clone(), BLOCK, MPI.INT, apart, BLOCK, MPI.INT, root);
                digest = same(one, apart, "scatter", digest);

                one = a.clone();
                apart = a.clone();
                w.reduce(one, one, BLOCK, MPI.INT, MPI.MAX, root);
                w.reduce(a.clone(), apart, BLOCK, MPI.INT, MPI.MAX, root);
                digest = same(one, apart, "reduce", digest);

                one = a.clone();
                apart = a.clone();
                w.scan(one, one, BLOCK, MPI.INT, MPI.SUM);
                w.scan(a.clone(), apart, BLOCK, MPI.INT, MPI.SUM);
                digest = same(one, apart, "scan", digest);

                one = a.clone();
                apart = a.clone();
                w.exScan(one, one, BLOCK, MPI.INT, MPI.SUM);
                w.exScan(a.clone(), apart, BLOCK, MPI.INT, MPI.SUM);
                if (me == 0) { // exScan leaves rank 0's receive buffer undefined
                    one = apart;
                }
                digest = same(one, apart, "exScan", digest);

                one = a.clone();
                apart = a.clone();
                w.reduceScatterBlock(one, one, BLOCK, MPI.INT, MPI.SUM);
                w.reduceScatterBlock(a.clone(), apart, BLOCK, MPI.INT, MPI.SUM);
                digest = same(one, apart, "reduceScatterBlock", digest);

                int right = (me + 1) % n;
                int left = (me + n - 1) % n;
                one = a.clone();
                apart = a.clone();
                w.sendRecv(one, BLOCK, MPI.INT, right, round, one, BLOCK, MPI.INT, left, round);
                w.sendRecv(a.clone(), BLOCK, MPI.INT, right, round, apart, BLOCK, MPI.INT, left, round);
                digest = same(one, apart, "sendRecv", digest);

                // Two views of one direct buffer, overlapping by half a block.
                IntBuffer shared = MPI.newIntBuffer(2 * BLOCK);
                IntBuffer copy = MPI.newIntBuffer(2 * BLOCK);
                shared.put(0, a, 0, 2 * BLOCK);
                copy.put(0, a, 0, 2 * BLOCK);
                IntBuffer later = MPI.slice(shared, BLOCK / 2);
                IntBuffer laterCopy = MPI.slice(copy, BLOCK / 2);
                IntBuffer source = MPI.newIntBuffer(BLOCK);
                source.put(0, a, 0, BLOCK);
                w.iAllReduce(shared, later, BLOCK, MPI.INT, MPI.SUM).waitFor();
                w.iAllReduce(source, laterCopy, BLOCK, MPI.INT, MPI.SUM).waitFor();
                int[] oneOut = new int[2 * BLOCK];
                int[] apartOut = new int[2 * BLOCK];
                shared.get(0, oneOut);
                copy.get(0, apartOut);
                digest = same(oneOut, apartOut, "iAllReduce on overlapping views", digest);
            }
            long[] all = new long[n];
            w.gather(new long[] {digest}, 1, MPI.LONG, all, 1, MPI.LONG, 0);
            if (me == 0) {
                System.out.println("digests " + Arrays.toString(all));
            }
            MPI.Finalize();
        }

        private static int[] values(int length, int rank, int round) {
            int[] v = new int[length];
            for (int i = 0; i < length; i++) {
                v[i] = (rank + 1) * 1_000 + i * 7 + round * 13;
            }
            return v;
        }

        private static long same(int[] one, int[] apart, String what, long digest) {
            check(
                    Arrays.equals(one, apart),
                    what + ": one buffer as both ends gave " + Arrays.toString(one) + ", a copy as the send buffer "
                            + Arrays.toString(apart));
            long d = digest;
            for (int v : apart) {
                d = d * 31 + v;
            }
            return d;
        }
    }
}
