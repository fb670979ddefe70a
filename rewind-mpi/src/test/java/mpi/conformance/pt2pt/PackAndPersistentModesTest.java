package mpi.conformance.pt2pt;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.runOk;

import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import mpi.conformance.RankCounts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * MPI standard chapter 3 (point-to-point) and 4.2 (pack and unpack): messages packed into a byte
 * array from several buffers and types, sent as {@code MPI.PACKED} and unpacked on the other side;
 * persistent requests in buffered, synchronous and ready mode, each started several times.
 */
@Tag("conformance")
class PackAndPersistentModesTest {

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void packSendUnpackRoundTrips(int ranks) {
        runOk(PackRoundTrips.class, ranks);
    }

    @ParameterizedTest
    @RankCounts({1, 2, 3, 4, 8})
    void persistentSendsInEveryModeStartedRepeatedly(int ranks) {
        runOk(PersistentModes.class, ranks);
    }

    // ------------------------------------------------------------------------------------------------

    public static final class PackRoundTrips {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm world = MPI.COMM_WORLD;
            int me = world.getRank();
            int n = world.getSize();
            int next = (me + 1) % n;
            int prev = (me + n - 1) % n;

            // Every other int of an 8-int array, as a vector type.
            Datatype everyOther = Datatype.createVector(4, 1, 2, MPI.INT);
            everyOther.commit();
            int[] ints = new int[8];
            for (int k = 0; k < 8; k++) {
                ints[k] = me * 100 + k;
            }
            double[] doubles = {me + 0.5, me - 0.5, me * 3.25};
            long[] longs = {(long) me << 40};

            int size = world.packSize(1, everyOther) + world.packSize(3, MPI.DOUBLE) + world.packSize(1, MPI.LONG);
            checkEq(4 * 4 + 3 * 8 + 8, size, "pack sizes");
            byte[] packed = new byte[size];
            int pos = world.pack(ints, 1, everyOther, packed, 0);
            checkEq(16, pos, "position after the vector");
            pos = world.pack(doubles, 3, MPI.DOUBLE, packed, pos);
            checkEq(40, pos, "position after the doubles");
            pos = world.pack(longs, 1, MPI.LONG, packed, pos);
            checkEq(size, pos, "position after the long");
            final int last = pos - 4;
            expectError(MPI.ERR_TRUNCATE, "pack past the end", () -> world.pack(longs, 1, MPI.LONG, packed, last));

            byte[] got = new byte[size];
            Status st = world.sendRecv(packed, size, MPI.PACKED, next, 1, got, size, MPI.PACKED, prev, 1);
            checkEq(size, st.getCount(MPI.PACKED), "packed bytes received");

            // Unpack the vector into a plain int array, then the rest.
            int[] four = new int[4];
            int at = world.unpack(got, 0, four, 4, MPI.INT);
            checkEq(16, at, "position after unpacking four ints");
            for (int k = 0; k < 4; k++) {
                checkEq(prev * 100 + 2 * k, four[k], "unpacked vector element " + k);
            }
            double[] d = new double[3];
            at = world.unpack(got, at, d, 3, MPI.DOUBLE);
            check(d[0] == prev + 0.5 && d[1] == prev - 0.5 && d[2] == prev * 3.25, "unpacked doubles");
            long[] l = new long[1];
            at = world.unpack(got, at, l, 1, MPI.LONG);
            checkEq((long) prev << 40, l[0], "unpacked long");
            checkEq(size, at, "position at the end");
            final int end = at;
            expectError(MPI.ERR_TRUNCATE, "unpack past the end", () -> world.unpack(got, end, l, 1, MPI.LONG));

            // Unpacking into the vector type scatters into every other slot.
            int[] spread = new int[8];
            java.util.Arrays.fill(spread, -1);
            world.unpack(got, 0, spread, 1, everyOther);
            for (int k = 0; k < 8; k++) {
                checkEq(k % 2 == 0 ? prev * 100 + k : -1, spread[k], "unpacked into the vector slot " + k);
            }

            // A packed message broadcast from the last rank.
            byte[] b = new byte[world.packSize(2, MPI.INT)];
            if (me == n - 1) {
                world.pack(new int[] {n, 77}, 2, MPI.INT, b, 0);
            }
            world.bcast(b, b.length, MPI.PACKED, n - 1);
            int[] two = new int[2];
            world.unpack(b, 0, two, 2, MPI.INT);
            check(two[0] == n && two[1] == 77, "broadcast packed message");
            everyOther.free();
            MPI.Finalize();
        }
    }

    public static final class PersistentModes {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intracomm world = MPI.COMM_WORLD;
            int me = world.getRank();
            int n = world.getSize();
            int next = (me + 1) % n;
            int prev = (me + n - 1) % n;
            MPI.attachBuffer(new byte[1 << 16]);

            IntBuffer out = MPI.newIntBuffer(3);
            IntBuffer in = MPI.newIntBuffer(3);
            Prequest b = world.bSendInit(out, 3, MPI.INT, next, 1);
            Prequest s = world.sSendInit(out, 3, MPI.INT, next, 2);
            Prequest r = world.rSendInit(out, 3, MPI.INT, next, 3);
            Prequest recvB = world.recvInit(in, 3, MPI.INT, prev, 1);
            Prequest recvS = world.recvInit(in, 3, MPI.INT, prev, 2);
            Prequest recvR = world.recvInit(in, 3, MPI.INT, prev, 3);
            Prequest[] sends = {b, s, r};
            Prequest[] recvs = {recvB, recvS, recvR};
            for (int round = 0; round < 4; round++) {
                for (int mode = 0; mode < 3; mode++) {
                    for (int k = 0; k < 3; k++) {
                        out.put(k, me * 1000 + round * 10 + mode + k * 100_000);
                        in.put(k, -1);
                    }
                    recvs[mode].start();
                    // Ready mode needs the receive posted first: the barrier orders it before every send.
                    world.barrier();
                    sends[mode].start();
                    if (mode == 1) {
                        // A synchronous send completes only with its matching receive.
                        Request.waitAll(new Request[] {recvs[mode], sends[mode]});
                    } else {
                        sends[mode].waitFor();
                        recvs[mode].waitFor();
                    }
                    for (int k = 0; k < 3; k++) {
                        checkEq(
                                prev * 1000 + round * 10 + mode + k * 100_000,
                                in.get(k),
                                "mode " + mode + " round " + round + " int " + k);
                    }
                    // The send buffer may be reused only after the round completes everywhere.
                    world.barrier();
                }
            }
            for (Prequest p : sends) {
                p.free();
            }
            for (Prequest p : recvs) {
                p.free();
            }
            MPI.detachBuffer();
            MPI.Finalize();
        }
    }
}
