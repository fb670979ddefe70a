package io.rewind.cliprograms;

import java.lang.management.ManagementFactory;
import mpi.MPI;
import mpi.MPIException;

/**
 * Every rank prints what its JVM was started with: whether {@code -Xmx256m} is among its JVM's input
 * arguments, the system property {@code foo}, and the environment variable {@code REWIND_TEST_X}.
 */
public final class ShowsJvmSettings {
    private ShowsJvmSettings() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        boolean xmx = ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-Xmx256m");
        System.out.println("rank " + rank + " xmx256m=" + xmx + " foo=" + System.getProperty("foo") + " env="
                + System.getenv("REWIND_TEST_X") + " args=" + String.join(",", args));
        MPI.Finalize();
    }
}
