package mpi.conformance.collective;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.runOk;

import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One buffer given as both the send and the receive buffer of a collective or of sendRecv. MPI calls
 * that erroneous, but Open MPI's Java bindings copy array arguments in and out, so a program that does
 * it gets there what it would get with a copy of the send buffer; it must get the same here, every
 * time, and the same again after a crash. Each operation runs on one buffer and on a copy as the send
 * buffer, and the two results must be equal.
 */
@Tag("conformance")
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
                int root = round % n;
                int right = (me + 1) % n;
                int left = (me + n - 1) % n;
                int tag = round;
                digest = oneAndApart(a, (s, r) -> w.allReduce(s, r, BLOCK, MPI.INT, MPI.SUM), "allReduce", digest);
                digest = oneAndApart(a, (s, r) -> w.allToAll(s, BLOCK, MPI.INT, r, BLOCK, MPI.INT), "allToAll", digest);
                digest = oneAndApart(
                        a, (s, r) -> w.allGather(s, BLOCK, MPI.INT, r, BLOCK, MPI.INT), "allGather", digest);
                digest = oneAndApart(
                        a, (s, r) -> w.gather(s, BLOCK, MPI.INT, r, BLOCK, MPI.INT, root), "gather", digest);
                digest = oneAndApart(
                        a, (s, r) -> w.scatter(s, BLOCK, MPI.INT, r, BLOCK, MPI.INT, root), "scatter", digest);
                digest = oneAndApart(a, (s, r) -> w.reduce(s, r, BLOCK, MPI.INT, MPI.MAX, root), "reduce", digest);
                digest = oneAndApart(a, (s, r) -> w.scan(s, r, BLOCK, MPI.INT, MPI.SUM), "scan", digest);
                digest = oneAndApart(
                        a,
                        (s, r) -> {
                            w.exScan(s, r, BLOCK, MPI.INT, MPI.SUM);
                            if (me == 0) { // exScan leaves rank 0's receive buffer undefined
                                Arrays.fill(r, 0);
                            }
                        },
                        "exScan",
                        digest);
                digest = oneAndApart(
                        a, (s, r) -> w.reduceScatterBlock(s, r, BLOCK, MPI.INT, MPI.SUM), "reduceScatterBlock", digest);
                digest = oneAndApart(
                        a,
                        (s, r) -> w.sendRecv(s, BLOCK, MPI.INT, right, tag, r, BLOCK, MPI.INT, left, tag),
                        "sendRecv",
                        digest);

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

        /** Runs {@code op} with one copy of {@code a} as both buffers, then with two copies, and compares. */
        private static long oneAndApart(int[] a, TwoBuffers op, String what, long digest) throws MPIException {
            int[] one = a.clone();
            op.run(one, one);
            int[] apart = a.clone();
            op.run(a.clone(), apart);
            return same(one, apart, what, digest);
        }

        /** An operation with a send and a receive buffer. */
        @FunctionalInterface
        interface TwoBuffers {
            void run(int[] send, int[] recv) throws MPIException;
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
