package mpi.conformance.collective;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPI standard chapter 5.8: allToAllw, a count, a byte displacement and a datatype per peer. The
 * pair (sender, receiver) picks one of three shapes (two ints, one double, or a strided vector of two
 * ints whose gap must stay untouched); every rank derives what each peer sent from the peer's rank.
 */
@Tag("conformance")
class AllToAllwTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void mixedDatatypesPerPeer(int ranks) {
        runOk(MixedTypes.class, ranks);
    }

    public static final class MixedTypes {
        /** Bytes per peer in the buffers; blocks start 4 bytes into their slot. */
        private static final int SLOT = 24;

        private static final int START = 4;

        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm w = MPI.COMM_WORLD;
            int n = w.getSize();
            int me = w.getRank();
            Datatype strided = Datatype.createVector(2, 1, 2, MPI.INT);
            strided.commit();

            ByteBuffer send = MPI.newByteBuffer(SLOT * n);
            ByteBuffer recv = MPI.newByteBuffer(SLOT * n);
            int[] scounts = new int[n];
            int[] sdispls = new int[n];
            Datatype[] stypes = new Datatype[n];
            int[] rcounts = new int[n];
            int[] rdispls = new int[n];
            Datatype[] rtypes = new Datatype[n];
            for (int i = 0; i < SLOT * n; i += 4) {
                send.putInt(i, 777);
                recv.putInt(i, -1);
            }
            for (int p = 0; p < n; p++) {
                int at = SLOT * p + START;
                sdispls[p] = at;
                rdispls[p] = at;
                switch (shape(me, p)) {
                    case 0 -> {
                        scounts[p] = 2;
                        stypes[p] = MPI.INT;
                        send.putInt(at, value(me, p, 0));
                        send.putInt(at + 4, value(me, p, 1));
                    }
                    case 1 -> {
                        scounts[p] = 1;
                        stypes[p] = MPI.DOUBLE;
                        send.putDouble(at, value(me, p, 0) + 0.5);
                    }
                    default -> {
                        scounts[p] = 1;
                        stypes[p] = strided;
                        send.putInt(at, value(me, p, 0));
                        send.putInt(at + 8, value(me, p, 1));
                    }
                }
                // shape(p, me) == shape(me, p): the receive side mirrors the send side
                rcounts[p] = scounts[p];
                rtypes[p] = stypes[p];
            }
            w.allToAllw(send, scounts, sdispls, stypes, recv, rcounts, rdispls, rtypes);
            long checksum = 0;
            for (int p = 0; p < n; p++) {
                int at = SLOT * p + START;
                checkEq(-1, recv.getInt(at - 4), "the bytes before block " + p);
                switch (shape(p, me)) {
                    case 0 -> {
                        checkEq(value(p, me, 0), recv.getInt(at), "int 0 from " + p);
                        checkEq(value(p, me, 1), recv.getInt(at + 4), "int 1 from " + p);
                        checkEq(-1, recv.getInt(at + 8), "after the ints from " + p);
                    }
                    case 1 -> {
                        check(recv.getDouble(at) == value(p, me, 0) + 0.5, "double from " + p);
                        checkEq(-1, recv.getInt(at + 8), "after the double from " + p);
                    }
                    default -> {
                        checkEq(value(p, me, 0), recv.getInt(at), "strided int 0 from " + p);
                        checkEq(-1, recv.getInt(at + 4), "the stride gap of the block from " + p);
                        checkEq(value(p, me, 1), recv.getInt(at + 8), "strided int 1 from " + p);
                    }
                }
                checksum = checksum * 31 + recv.getInt(at);
            }

            // non-blocking, with an IntBuffer: displacements are still bytes
            IntBuffer out = MPI.newIntBuffer(n);
            IntBuffer in = MPI.newIntBuffer(n);
            int[] ones = new int[n];
            int[] byteDispls = new int[n];
            Datatype[] ints = new Datatype[n];
            for (int p = 0; p < n; p++) {
                out.put(p, me * 100 + p);
                in.put(p, -1);
                ones[p] = 1;
                byteDispls[p] = 4 * p;
                ints[p] = MPI.INT;
            }
            Request r = w.iAllToAllw(out, ones, byteDispls, ints, in, ones, byteDispls, ints);
            r.waitFor();
            for (int p = 0; p < n; p++) {
                checkEq(p * 100 + me, in.get(p), "iAllToAllw from " + p);
            }

            int[] odd = byteDispls.clone();
            odd[0] = 2;
            expectError(
                    MPI.ERR_ARG,
                    "a byte displacement inside an int",
                    () -> w.allToAllw(out, ones, odd, ints, in, ones, byteDispls, ints));
            expectError(
                    MPI.ERR_ARG,
                    "too few datatypes",
                    () -> w.allToAllw(out, ones, byteDispls, new Datatype[n - 1], in, ones, byteDispls, ints));
            expectError(
                    MPI.ERR_TYPE,
                    "a null datatype",
                    () -> w.allToAllw(out, ones, byteDispls, new Datatype[n], in, ones, byteDispls, ints));
            int[] past = byteDispls.clone();
            past[0] = 4 * n + 4;
            expectError(
                    MPI.ERR_COUNT,
                    "a displacement past the end",
                    () -> w.allToAllw(out, ones, byteDispls, ints, in, ones, past, ints));

            System.out.println("allToAllw rank " + me + " checksum " + checksum);
            strided.free();
            MPI.Finalize();
        }

        /** 0: two ints, 1: one double, 2: a strided vector; symmetric in the pair. */
        private static int shape(int a, int b) {
            return (a + b) % 3;
        }

        private static int value(int from, int to, int item) {
            return from * 1000 + to * 10 + item;
        }
    }
}
