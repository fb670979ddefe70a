package io.rewind.apps.ulfm;

import io.rewind.api.Checkpointer;
import io.rewind.api.Ulfm;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.function.Predicate;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * The kinds of checks of ULFM's own test suite, as one program: the first argument names the case, and
 * every rank that finishes it prints {@code passed CASE} (a check that does not hold throws, and the
 * job fails). A victim dies at a checkpoint point of its own ({@code --kill RANK@N}), so where it dies
 * in the program is fixed whatever the timing. Run with {@code --on-failure notify}.
 *
 * <ul>
 *   <li>{@code insulation}, 6 ranks, {@code --kill 5@1}: the half without the failed rank works on,
 *       the other half and the world report the failure, point-to-point between live ranks still works.
 *   <li>{@code getack}, 5 ranks, {@code --kill 3@1,4@2}: receives of any source report "pending" at
 *       each failure, stay posted, and match once the failures are acknowledged; the failed group lists
 *       the failures in the order they happened.
 *   <li>{@code revoke-barrier}, 4 ranks: a revocation ends the barrier the others wait in; agreement and
 *       shrink work on the revoked communicator, and the shrunk one is whole.
 *   <li>{@code revoke-transfer}, 4 ranks: a revocation ends large transfers that wait to match, on an
 *       intracommunicator and then on an intercommunicator, in both of its groups.
 *   <li>{@code intercomm}, 6 ranks, {@code --kill 5@1}: failure, agreement and shrink on an
 *       intercommunicator; the shrunk one reduces across its groups.
 *   <li>{@code shrink-loop}, any size, kills at points: iterations of an all-reduce; on a failure the
 *       survivors revoke, shrink and check the shrunk communicator, down to a single rank.
 * </ul>
 */
public final class UlfmSuite {
    private UlfmSuite() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String test = args.length > 0 ? args[0] : "";
        switch (test) {
            case "insulation" -> insulation();
            case "getack" -> getAck();
            case "revoke-barrier" -> revokeBarrier();
            case "revoke-transfer" -> revokeTransfer();
            case "intercomm" -> intercomm();
            case "shrink-loop" -> shrinkLoop(args.length > 1 ? Integer.parseInt(args[1]) : 40);
            default -> throw new IllegalArgumentException("unknown case '" + test
                    + "': insulation, getack, revoke-barrier, revoke-transfer, intercomm or shrink-loop");
        }
        System.out.println("passed " + test);
        MPI.Finalize();
    }

    private static void insulation() throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        Intracomm half = world.split(rank < 3 ? 0 : 1, rank);
        if (rank == 5) {
            Checkpointer.get().point(); // dies here
        }
        awaitFailures(world, 1);
        int[] one = {1};
        if (rank < 3) {
            for (int i = 0; i < 10; i++) {
                int[] v = {1};
                half.allReduce(v, 1, MPI.INT, MPI.SUM);
                check(v[0] == 3, "the whole half sums to 3, not " + v[0]);
            }
        } else {
            expectError(() -> half.allReduce(one.clone(), 1, MPI.INT, MPI.SUM), "an all-reduce with rank 5 in it");
        }
        if (rank == 0) {
            world.send(new int[] {42}, 1, MPI.INT, 1, 3);
            expectError(() -> world.send(new int[] {1}, 1, MPI.INT, 5, 3), "a send to the failed rank");
        } else if (rank == 1) {
            int[] got = new int[1];
            world.recv(got, 1, MPI.INT, 0, 3);
            check(got[0] == 42, "a message between live ranks arrives whole");
        }
        Group failed = Ulfm.getFailed(world);
        check(failed.getSize() == 1 && worldRanks(failed)[0] == 5, "the failed group is {5}");
        Intracomm alive = Ulfm.shrink(world);
        int[] v = {1};
        alive.allReduce(v, 1, MPI.INT, MPI.SUM);
        check(alive.getSize() == 5 && v[0] == 5, "the shrunk world has 5 ranks");
    }

    private static void getAck() throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        Checkpointer cp = Checkpointer.get();
        if (rank == 3 || rank == 4) {
            cp.point(); // rank 3 dies here, rank 4 at its next point
        }
        awaitFailures(world, 1);
        IntBuffer box = MPI.newIntBuffer(1);
        if (rank == 0) {
            Request r = world.iRecv(box, 1, MPI.INT, MPI.ANY_SOURCE, 7);
            expectClass(r::waitFor, Ulfm.ERR_PROC_FAILED_PENDING, "a receive of any source after rank 3 failed");
            check(Ulfm.ackFailed(world, 0) == 0, "nothing is acknowledged before ackFailed");
            check(Ulfm.ackFailed(world, 1) == 1, "one failure acknowledged");
            world.send(new int[] {0}, 1, MPI.INT, 1, 8); // rank 1 may send now
            Status s = r.waitStatus();
            check(s.getSource() == 1 && box.get(0) == 11, "the pending receive matched rank 1's message");
        } else if (rank == 1) {
            world.recv(new int[1], 1, MPI.INT, 0, 8);
            world.send(new int[] {11}, 1, MPI.INT, 0, 7);
        }
        Ulfm.agree(world, 1);
        if (rank == 0) {
            // Posted before rank 4 fails: the failure turns it pending.
            Request r = world.iRecv(box, 1, MPI.INT, MPI.ANY_SOURCE, 9);
            world.send(new int[] {0}, 1, MPI.INT, 4, 10); // rank 4 may die now
            // "Pending" means a failure not yet acknowledged: rank 4's, the second this rank knows of.
            expectClass(r::waitFor, Ulfm.ERR_PROC_FAILED_PENDING, "a posted receive of any source when rank 4 failed");
            check(Ulfm.ackFailed(world, 2) == 2, "two failures acknowledged");
            world.send(new int[] {0}, 1, MPI.INT, 2, 8);
            Status s = r.waitStatus();
            check(s.getSource() == 2 && box.get(0) == 22, "the posted receive matched rank 2's message");
            check(Ulfm.ackFailed(world, 0) == 2, "ackFailed(0) asks only");
        } else if (rank == 2) {
            world.recv(new int[1], 1, MPI.INT, 0, 8);
            world.send(new int[] {22}, 1, MPI.INT, 0, 9);
        } else if (rank == 4) {
            world.recv(new int[1], 1, MPI.INT, 0, 10);
            cp.point(); // dies here
        }
        awaitFailures(world, 2);
        int[] order = worldRanks(Ulfm.getFailed(world));
        check(
                Arrays.equals(order, new int[] {3, 4}),
                "the failed group is {3, 4} in order, not " + Arrays.toString(order));
    }

    private static void revokeBarrier() throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        if (rank == 0) {
            for (int i = 1; i < world.getSize(); i++) {
                world.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 1); // each is about to wait in the barrier
            }
            Ulfm.revoke(world);
            check(Ulfm.isRevoked(world), "revoked where it was revoked");
        } else {
            world.send(new int[] {rank}, 1, MPI.INT, 0, 1);
        }
        expectClass(world::barrier, Ulfm.ERR_REVOKED, "a barrier on the revoked world");
        check(Ulfm.isRevoked(world), "revoked at every member");
        expectClass(
                () -> world.send(new int[1], 1, MPI.INT, (rank + 1) % world.getSize(), 2), Ulfm.ERR_REVOKED, "a send");
        check(Ulfm.agree(world, rank == 0 ? 0b110 : 0b011) == 0b010, "agree ANDs the flags on a revoked world");
        Intracomm whole = Ulfm.shrink(world);
        check(whole.getSize() == world.getSize() && whole.getRank() == rank, "shrink without failures keeps everyone");
        whole.barrier();
        check(!Ulfm.isRevoked(whole), "the shrunk communicator is not revoked");
    }

    private static final int LARGE = 8 << 20;

    private static void revokeTransfer() throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        ByteBuffer big = MPI.newByteBuffer(LARGE);
        Request pending =
                switch (rank) {
                    case 1 -> world.iSend(big, LARGE, MPI.BYTE, 2, 1); // rank 2 waits for tag 2: never matched
                    case 2 -> world.iRecv(big, LARGE, MPI.BYTE, 1, 2);
                    case 3 -> world.iRecv(big, LARGE, MPI.BYTE, MPI.ANY_SOURCE, 3);
                    default -> null;
                };
        if (rank == 0) {
            for (int i = 1; i < world.getSize(); i++) {
                world.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 9);
            }
            Ulfm.revoke(world);
        } else {
            world.send(new int[] {rank}, 1, MPI.INT, 0, 9);
            if (rank == 1) {
                // A send may complete once its data is out of the program's hands (rank processes stream
                // it to the receiver's side): it ends either way, and a failure can only be the revocation.
                try {
                    pending.waitFor();
                } catch (MPIException e) {
                    check(e.getErrorClass() == Ulfm.ERR_REVOKED, "the large send: error class " + e.getErrorClass());
                }
            } else {
                expectClass(pending::waitFor, Ulfm.ERR_REVOKED, "a large receive waiting to match");
            }
        }
        Intracomm fresh = Ulfm.shrink(world);
        // The same on an intercommunicator: evens against odds, revoked by the evens' leader.
        Intracomm local = fresh.split(rank % 2, rank);
        Intercomm inter = fresh.createIntercomm(local, 0, rank % 2 == 0 ? 1 : 0, 20);
        int localRank = local.getRank();
        Request wait = localRank == 0 ? null : inter.iRecv(big, LARGE, MPI.BYTE, 0, 21); // never sent
        if (rank == 0) {
            for (int i = 1; i < fresh.getSize(); i++) {
                fresh.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 22);
            }
            Ulfm.revoke(inter);
        } else {
            fresh.send(new int[] {rank}, 1, MPI.INT, 0, 22);
            if (wait != null) {
                expectClass(wait::waitFor, Ulfm.ERR_REVOKED, "a large receive on the intercommunicator");
            }
        }
        expectClass(inter::barrier, Ulfm.ERR_REVOKED, "a barrier on the revoked intercommunicator");
        check(Ulfm.isRevoked(inter) && !Ulfm.isRevoked(local), "only the intercommunicator is revoked");
        Intercomm again = Ulfm.shrink(inter);
        check(again.getSize() == 2 && again.getRemoteSize() == 2, "the shrunk intercommunicator is whole");
    }

    private static void intercomm() throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        Intracomm local = world.split(rank % 2, rank);
        Intercomm inter = world.createIntercomm(local, 0, rank % 2 == 0 ? 1 : 0, 30);
        if (rank == 5) {
            Checkpointer.get().point(); // dies here
        }
        awaitFailures(world, 1);
        // (An intercommunicator's all-reduce has no in-place form: a send and a receive buffer.)
        expectError(
                () -> inter.allReduce(new int[] {1}, new int[1], 1, MPI.INT, MPI.SUM),
                "an all-reduce across rank 5's groups");
        check(Ulfm.agree(inter, 0b111) == 0b111, "agreement on the intercommunicator");
        Intercomm shrunk = Ulfm.shrink(inter);
        boolean even = rank % 2 == 0;
        check(
                shrunk.getSize() == (even ? 3 : 2) && shrunk.getRemoteSize() == (even ? 2 : 3),
                "the shrunk intercommunicator has 3 evens and 2 odds");
        int[] v = new int[1];
        shrunk.allReduce(new int[] {1}, v, 1, MPI.INT, MPI.SUM);
        check(v[0] == (even ? 2 : 3), "the all-reduce brings the other group's sum, not " + v[0]);
    }

    /**
     * Iterations of an all-reduce of 1; an iteration counts once every live rank agrees it worked. At a
     * failure the survivors revoke and shrink, and the shrunk communicator must sum to its size.
     */
    private static void shrinkLoop(int iterations) throws MPIException {
        Intracomm comm = MPI.COMM_WORLD;
        Checkpointer cp = Checkpointer.get();
        int shrinks = 0;
        for (int done = 0; done < iterations; ) {
            cp.point(); // victims die at the points their kills name
            int[] v = {1};
            int worked = 1;
            try {
                comm.allReduce(v, 1, MPI.INT, MPI.SUM);
                check(v[0] == comm.getSize(), "an all-reduce that returns sums every member");
            } catch (MPIException e) {
                if (!ShrinkingSolver.isFailure(e)) {
                    throw e;
                }
                worked = 0;
            }
            if (Ulfm.agree(comm, worked) == 1) {
                done++;
                continue;
            }
            Ulfm.revoke(comm);
            int before = comm.getSize();
            comm = Ulfm.shrink(comm);
            shrinks++;
            int[] n = {1};
            comm.allReduce(n, 1, MPI.INT, MPI.SUM);
            check(comm.getSize() < before && n[0] == comm.getSize(), "the shrunk communicator is whole and smaller");
        }
        System.out.println("size " + comm.getSize() + " after " + shrinks + " shrinks");
    }

    /** Agrees until every live rank knows of at least {@code n} failures of {@code comm}. */
    private static void awaitFailures(Intracomm comm, int n) throws MPIException {
        while (Ulfm.agree(comm, Ulfm.getFailed(comm).getSize() >= n ? 1 : 0) == 0) {
            // an agreement that returns names every failure it saw at every rank
        }
    }

    private static int[] worldRanks(Group g) throws MPIException {
        int[] ranks = new int[g.getSize()];
        Arrays.setAll(ranks, i -> i);
        return Group.translateRanks(g, ranks, MPI.COMM_WORLD.getGroup());
    }

    @FunctionalInterface
    private interface Call {
        void run() throws MPIException;
    }

    /** The call must fail with a failure ("process failed", "pending" or "revoked"). */
    private static void expectError(Call call, String what) {
        expect(call, ShrinkingSolver::isFailure, "a failure", what);
    }

    private static void expectClass(Call call, int errorClass, String what) {
        expect(call, e -> e.getErrorClass() == errorClass, "error class " + errorClass, what);
    }

    /** The call must throw, and what it throws must be {@code accepted} ({@code expected} says what). */
    private static void expect(Call call, Predicate<MPIException> accepted, String expected, String what) {
        try {
            call.run();
        } catch (MPIException e) {
            check(accepted.test(e), what + ": error class " + e.getErrorClass() + ", not " + expected);
            return;
        }
        throw new IllegalStateException(what + " did not fail with " + expected);
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("rank " + rankOrMinusOne() + ": " + what);
        }
    }

    private static int rankOrMinusOne() {
        try {
            return MPI.COMM_WORLD.getRank();
        } catch (MPIException e) {
            return -1;
        }
    }
}
