package io.rewind.apps.bench;

import mpi.MPI;
import mpi.MPIException;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * OSU-style ping-pong between ranks 0 and 1 for sizes from 1 byte to a maximum (default 4 MiB),
 * with byte arrays or direct buffers. For every size it runs several batches of round trips and
 * reports the median half round trip; beside it, the bandwidth of a single-thread copy of the same
 * size in the same process, the physical limit of any in-memory transport.
 *
 * <p>Usage: {@code PingPong [array|direct] [maxBytes] [batches]}. Rank 0 prints one CSV line per
 * size: {@code pingpong,<buffer>,<bytes>,<median half round trip ns>,<MB/s>,<copy MB/s>}.
 */
public final class PingPong {
    private static final int TAG = 99;

    private PingPong() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String kind = args.length > 0 ? args[0] : "array";
        int maxBytes = args.length > 1 ? Integer.parseInt(args[1]) : 4 << 20;
        int batches = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        int rank = MPI.COMM_WORLD.getRank();
        if (MPI.COMM_WORLD.getSize() < 2) {
            throw new IllegalStateException("ping-pong needs 2 ranks");
        }
        boolean direct = kind.equals("direct");
        if (rank == 0) {
            System.out.println("# kind,buffer,bytes,median_half_rtt_ns,bandwidth_MBps,copy_MBps");
        }
        for (int size = 1; size <= maxBytes; size *= 2) {
            Object buf = direct ? ByteBuffer.allocateDirect(size) : new byte[size];
            int iters = iterationsFor(size);
            double[] halfRtt = new double[batches];
            roundTrips(rank, buf, size, Math.max(10, iters / 4)); // warm-up
            for (int b = 0; b < batches; b++) {
                MPI.COMM_WORLD.barrier();
                long t0 = System.nanoTime();
                roundTrips(rank, buf, size, iters);
                halfRtt[b] = (System.nanoTime() - t0) / (2.0 * iters);
            }
            if (rank == 0) {
                Arrays.sort(halfRtt);
                double median = halfRtt[batches / 2];
                double mbps = size / median * 1e3; // bytes per ns -> MB/s (1e6 bytes)
                double copy = copyBandwidth(size, direct);
                System.out.printf("pingpong,%s,%d,%.1f,%.1f,%.1f%n", kind, size, median, mbps, copy);
            }
        }
        MPI.Finalize();
    }

    private static int iterationsFor(int size) {
        if (size <= 4096) {
            return 20_000;
        }
        return (int) Math.max(20, 40_000_000L / size);
    }

    private static void roundTrips(int rank, Object buf, int size, int iters) throws MPIException {
        for (int i = 0; i < iters; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 1, TAG);
                MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 1, TAG);
            } else if (rank == 1) {
                MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 0, TAG);
                MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 0, TAG);
            }
        }
    }

    /** Median MB/s of copying {@code size} bytes between two buffers of the same kind, one thread. */
    private static double copyBandwidth(int size, boolean direct) {
        int iters = iterationsFor(size) * 2;
        double[] rates = new double[5];
        for (int b = 0; b < rates.length; b++) {
            long t0;
            long t1;
            if (direct) {
                ByteBuffer src = ByteBuffer.allocateDirect(size);
                ByteBuffer dst = ByteBuffer.allocateDirect(size);
                t0 = System.nanoTime();
                for (int i = 0; i < iters; i++) {
                    dst.clear();
                    src.clear();
                    dst.put(src);
                }
                t1 = System.nanoTime();
            } else {
                byte[] src = new byte[size];
                byte[] dst = new byte[size];
                t0 = System.nanoTime();
                for (int i = 0; i < iters; i++) {
                    System.arraycopy(src, 0, dst, 0, size);
                    src[i % size] = (byte) i; // keep the copy from being optimised away
                }
                t1 = System.nanoTime();
            }
            rates[b] = (double) size * iters / (t1 - t0) * 1e3;
        }
        Arrays.sort(rates);
        return rates[rates.length / 2];
    }
}
