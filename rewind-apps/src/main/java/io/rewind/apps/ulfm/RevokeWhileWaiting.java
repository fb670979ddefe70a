package io.rewind.apps.ulfm;

import io.rewind.api.Ulfm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Error classes, wildcards and revocation, on 5 ranks with rank 4 killed at its first checkpoint point. Rank 2
 * posts a receive of any source, is told "pending", acknowledges the failure and then receives from rank
 * 3. Rank 1 waits in a receive from rank 0 until rank 0 revokes the world. Then the four survivors shrink.
 * Each prints what it saw.
 */
public final class RevokeWhileWaiting {
    private RevokeWhileWaiting() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        java.nio.IntBuffer box = MPI.newIntBuffer(1);
        // Rank 4 is killed at its first checkpoint point (the job's kill 4@1); every survivor knows of its
        // failure once an agreement has seen it.
        if (rank == 4) {
            io.rewind.api.Checkpointer.get().point();
        }
        // Each rank learns of the failure at its own time, so whether to go on is agreed, not decided alone
        // (ranks that made different numbers of agreements would wait for each other for ever).
        while (Ulfm.agree(world, Ulfm.getFailed(world).getSize() == 0 ? 1 : 0) == 1) {
            // the agreement that returns 0 saw the failure, and tells every rank of it
        }
        if (rank == 2) {
            Request r = world.iRecv(box, 1, MPI.INT, MPI.ANY_SOURCE, 5);
            try {
                r.waitFor();
                System.out.println("any source: received before any error");
            } catch (MPIException e) {
                if (e.getErrorClass() != Ulfm.ERR_PROC_FAILED_PENDING) {
                    throw e;
                }
                int acked = Ulfm.ackFailed(world, 1);
                world.send(new int[1], 1, MPI.INT, 3, 6); // rank 3 sends only now
                r.waitFor();
                System.out.println("any source: pending, acknowledged " + acked + ", then received");
            }
        } else if (rank == 3) {
            world.recv(new int[1], 1, MPI.INT, 2, 6);
            world.send(new int[] {33}, 1, MPI.INT, 2, 5);
        }
        Ulfm.agree(world, 1);
        if (rank == 1) {
            Request r = world.iRecv(box, 1, MPI.INT, 0, 9); // rank 0 never sends it
            world.send(new int[1], 1, MPI.INT, 0, 8); // tells rank 0 it waits
            try {
                r.waitFor();
                System.out.println("recv: completed");
            } catch (MPIException e) {
                System.out.println(e.getErrorClass() == Ulfm.ERR_REVOKED ? "recv: revoked" : "recv: " + e);
            }
        } else if (rank == 0) {
            world.recv(new int[1], 1, MPI.INT, 1, 8);
            Ulfm.revoke(world);
        }
        Intracomm survivors = Ulfm.shrink(world);
        System.out.println("shrunk to " + survivors.getSize());
        MPI.Finalize();
    }
}
