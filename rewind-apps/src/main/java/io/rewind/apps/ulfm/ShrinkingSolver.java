package io.rewind.apps.ulfm;

import io.rewind.api.Ulfm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * An iterative computation that loses ranks and goes on with the others. Each iteration sums a fixed
 * set of {@code ITEMS} terms, spread over the ranks it has; the ranks agree whether the iteration
 * worked, and if not (a rank failed during it) revoke, shrink and do it again with the survivors.
 * Integer arithmetic makes the result the same however many ranks computed it, so the checksum rank 0
 * prints equals the failure-free run's with any kills that leave a rank alive.
 *
 * <p>Arguments: iterations (default 200).
 */
public final class ShrinkingSolver {
    static final int ITEMS = 4096;

    private ShrinkingSolver() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Intracomm comm = MPI.COMM_WORLD;
        long checksum = 0;
        int shrinks = 0;
        int iteration = 0;
        while (iteration < iterations) {
            long[] total = {0};
            int worked = 1;
            try {
                total[0] = partial(iteration, comm.getRank(), comm.getSize());
                comm.allReduce(total, 1, MPI.LONG, MPI.SUM);
            } catch (MPIException e) {
                if (!isFailure(e)) {
                    throw e;
                }
                worked = 0;
            }
            if (Ulfm.agree(comm, worked) == 1) {
                checksum = checksum * 31 + total[0];
                iteration++;
                continue;
            }
            Ulfm.revoke(comm);
            comm = Ulfm.shrink(comm);
            shrinks++;
        }
        if (comm.getRank() == 0) {
            System.out.println("checksum " + Long.toHexString(checksum) + " after " + iterations + " iterations, "
                    + comm.getSize() + " ranks left, " + shrinks + " shrinks");
        }
        MPI.Finalize();
    }

    /** Whether {@code e} reports a failure the program handles (a failed rank, or a revocation). */
    static boolean isFailure(MPIException e) {
        int c = e.getErrorClass();
        return c == Ulfm.ERR_PROC_FAILED || c == Ulfm.ERR_PROC_FAILED_PENDING || c == Ulfm.ERR_REVOKED;
    }

    /** This rank's share of an iteration's sum: the terms {@code rank, rank + size, ...}. */
    static long partial(int iteration, int rank, int size) {
        long sum = 0;
        for (int i = rank; i < ITEMS; i += size) {
            sum += term(iteration, i);
        }
        return sum;
    }

    static long term(int iteration, int i) {
        long x = iteration * 0x9E3779B97F4A7C15L + i * 0xC2B2AE3D27D4EB4FL;
        x ^= x >>> 31;
        x *= 0xBF58476D1CE4E5B9L;
        return x ^ (x >>> 29);
    }
}
