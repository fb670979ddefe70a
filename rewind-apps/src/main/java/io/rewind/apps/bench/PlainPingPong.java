package io.rewind.apps.bench;

import mpi.MPIException;

/**
 * {@link PortablePingPong} as a program that knows nothing of Rewind: no checkpoint point, not even
 * looked up, so under a logging protocol its log grows for the whole run, as any plain MPI program's
 * does between two checkpoints. {@code rewind bench logging --program plain} runs it.
 *
 * <p>Usage and output: as {@link PingPong}.
 */
public final class PlainPingPong {
    private PlainPingPong() {}

    public static void main(String[] args) throws MPIException {
        PortablePingPong.run(args, () -> () -> {});
    }
}
