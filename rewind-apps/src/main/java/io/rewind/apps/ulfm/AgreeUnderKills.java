package io.rewind.apps.ulfm;

import io.rewind.api.Ulfm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Agreements one after another while ranks are killed among them: each rank prints every value it
 * agreed on ("agreed I V"), flushed before its next call, so that a test can check that every rank that
 * returned from agreement I, the killed ones included, got the same V. Each rank's flag clears one bit
 * of its own now and then, so the values differ from call to call.
 *
 * <p>Arguments: agreements (default 40).
 */
public final class AgreeUnderKills {
    private AgreeUnderKills() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        int rank = MPI.COMM_WORLD.getRank();
        for (int i = 0; i < calls; i++) {
            int flag = (i + rank) % 3 == 0 ? ~(1 << (rank % 31)) : ~0;
            int agreed = Ulfm.agree(MPI.COMM_WORLD, flag);
            System.out.println("agreed " + i + " " + Integer.toHexString(agreed));
            System.out.flush();
        }
        System.out.println("failed " + Ulfm.getFailed(MPI.COMM_WORLD).getSize());
        MPI.Finalize();
    }
}
