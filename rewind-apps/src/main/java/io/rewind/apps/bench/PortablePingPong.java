package io.rewind.apps.bench;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;
import mpi.MPI;
import mpi.MPIException;

/**
 * The ping-pong of {@link PingPong} written against package {@code mpi} alone, so that one source runs
 * on Rewind and on Open MPI's Java bindings ({@code mpi.jar}) unchanged: the same sizes, round trips,
 * warm-up, batches and output line. It uses only {@code MPI.Init}, {@code COMM_WORLD.getRank/getSize},
 * {@code send}, {@code recv}, {@code barrier} and {@code MPI.Finalize}, all of which both provide with
 * the same signatures, and compiles with Java 17 ({@code javac --release 17}).
 *
 * <p>The one thing {@link PingPong} does beyond package {@code mpi} is to pass Rewind's checkpoint
 * point between batches, outside the timed part (under a logging protocol that is where the log is
 * truncated). Here that point is looked up reflectively after {@code MPI.Init}: present under Rewind,
 * absent (a no-op) elsewhere. {@link PingPong} runs this class with the point bound directly.
 *
 * <p>Usage and output: as {@link PingPong}.
 */
public final class PortablePingPong {
    private static final int TAG = 99;
    /** Enough for the compiler to settle on the whole path (about 0.1 s). */
    private static final int WARM_UP_ROUND_TRIPS = 50_000;

    private static final String CHECKPOINTER = "io.rewind.api.Checkpointer";

    private PortablePingPong() {}

    public static void main(String[] args) throws MPIException {
        run(args, PortablePingPong::checkpointPointIfAny);
    }

    /**
     * Runs the ping-pong; {@code pointAfterInit} is asked once, right after {@code MPI.Init}, for the
     * action to run at each checkpoint point (before the first size and before every batch).
     */
    public static void run(String[] args, Supplier<Runnable> pointAfterInit) throws MPIException {
        MPI.Init(args);
        String kind = args.length > 0 ? args[0] : "array";
        int maxBytes = args.length > 1 ? Integer.parseInt(args[1]) : 4 << 20;
        int batches = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        int minBytes = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        int factor = args.length > 4 ? Integer.parseInt(args[4]) : 2;
        double workScale = args.length > 5 ? Double.parseDouble(args[5]) : 1.0;
        long warmUpMillis = args.length > 6 ? Long.parseLong(args[6]) : 0;
        if (minBytes < 1 || factor < 2 || workScale <= 0 || warmUpMillis < 0) {
            throw new IllegalArgumentException("need minBytes >= 1, sizeFactor >= 2, workScale > 0, warmUpMillis >= 0");
        }
        Runnable point = pointAfterInit.get();
        int rank = MPI.COMM_WORLD.getRank();
        if (MPI.COMM_WORLD.getSize() < 2) {
            throw new IllegalStateException("ping-pong needs 2 ranks");
        }
        boolean direct = kind.equals("direct");
        if (rank == 0) {
            System.out.println("# kind,buffer,bytes,median_half_rtt_ns,bandwidth_MBps,copy_MBps,batch_half_rtt_ns");
        }
        // A point before anything is timed: a benchmark that runs several jobs in turns (see the
        // logging benchmark) holds each job here until its first turn.
        point.run();
        // The first size would otherwise carry the compilation of the whole send and receive path.
        roundTrips(rank, direct ? ByteBuffer.allocateDirect(1) : new byte[1], 1, WARM_UP_ROUND_TRIPS);
        for (long sz = minBytes; sz <= maxBytes; sz *= factor) {
            int size = (int) sz;
            Object buf = direct ? ByteBuffer.allocateDirect(size) : new byte[size];
            int iters = (int) Math.max(4, iterationsFor(size) * workScale);
            double[] halfRtt = new double[batches];
            int warmUp = Math.max(10, iters / 4);
            roundTrips(rank, buf, size, warmUp);
            warmUpFor(rank, buf, size, warmUp, warmUpMillis);
            for (int b = 0; b < batches; b++) {
                point.run(); // no request is outstanding here; a checkpoint (if any) truncates the log
                MPI.COMM_WORLD.barrier();
                long t0 = System.nanoTime();
                roundTrips(rank, buf, size, iters);
                halfRtt[b] = (System.nanoTime() - t0) / (2.0 * iters);
            }
            if (rank == 0) {
                StringBuilder each = new StringBuilder();
                for (double h : halfRtt) {
                    each.append(each.length() == 0 ? "" : ";").append(String.format(Locale.ROOT, "%.1f", h));
                }
                double[] sorted = halfRtt.clone();
                Arrays.sort(sorted);
                double median = sorted[batches / 2];
                double mbps = size / median * 1e3; // bytes per ns -> MB/s (1e6 bytes)
                double copy = copyBandwidth(size, direct, workScale);
                System.out.printf(
                        Locale.ROOT, "pingpong,%s,%d,%.1f,%.1f,%.1f,%s%n", kind, size, median, mbps, copy, each);
            }
        }
        MPI.Finalize();
    }

    /** Rewind's {@code Checkpointer.get().point()} if this runs under Rewind, else nothing. */
    private static Runnable checkpointPointIfAny() {
        Class<?> checkpointer;
        try {
            checkpointer = Class.forName(CHECKPOINTER);
        } catch (ClassNotFoundException e) {
            return () -> {};
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Object cp = lookup.findStatic(checkpointer, "get", MethodType.methodType(checkpointer))
                    .invoke();
            MethodHandle point = lookup.findVirtual(checkpointer, "point", MethodType.methodType(boolean.class))
                    .bindTo(cp);
            return () -> {
                try {
                    boolean ignored = (boolean) point.invokeExact();
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Throwable t) {
                    throw new IllegalStateException(t);
                }
            };
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("cannot bind " + CHECKPOINTER + ".point()", t);
        }
    }

    private static int iterationsFor(int size) {
        if (size <= 4096) {
            return 20_000;
        }
        return (int) Math.max(20, 40_000_000L / size);
    }

    /**
     * More warm-up at this size, in chunks of {@code chunk} round trips, until rank 0 has spent {@code
     * millis} on it: rank 0 decides after each chunk and broadcasts the decision, so both ranks run the
     * same number of round trips. A size that differs from the ones before takes other branches of the
     * send and receive path (rendezvous instead of eager, for one); a just-in-time compiled runtime
     * then recompiles them, which takes a few thousand messages, seconds at the large sizes.
     */
    private static void warmUpFor(int rank, Object buf, int size, int chunk, long millis) throws MPIException {
        if (millis == 0) {
            return;
        }
        long end = System.nanoTime() + millis * 1_000_000L;
        int[] more = {1};
        while (more[0] == 1) {
            roundTrips(rank, buf, size, chunk);
            if (rank == 0) {
                more[0] = System.nanoTime() < end ? 1 : 0;
            }
            MPI.COMM_WORLD.bcast(more, 1, MPI.INT, 0);
        }
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
    private static double copyBandwidth(int size, boolean direct, double workScale) {
        int iters = (int) Math.max(4, iterationsFor(size) * 2 * workScale);
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
