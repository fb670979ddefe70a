package io.rewind.apps.examples;

import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Status;

/**
 * A task farm with matched probes: rank 0 hands out ranges of integers (default 200 ranges of 5,000)
 * to whichever worker asks first; each worker sends back the primes it found in its range, a list
 * whose length only the worker knows. Rank 0 takes each answer with a wildcard {@code mProbe}, sizes
 * its buffer from the probe, and receives exactly that message with {@code mRecv}. The prime count
 * and checksum do not depend on which worker did what. On one rank, rank 0 does the work itself.
 */
public final class PrimeFarm {
    private static final int WORK = 1;
    private static final int STOP = 2;
    private static final int RESULT = 3;

    private PrimeFarm() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int ranges = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int width = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        Comm world = MPI.COMM_WORLD;
        if (world.getRank() == 0) {
            long[] found = world.getSize() == 1 ? alone(ranges, width) : farm(world, ranges, width);
            System.out.printf("%d primes below %d, checksum %d%n", found[0], (long) ranges * width, found[1]);
        } else {
            work(world, width);
        }
        MPI.Finalize();
    }

    /** Rank 0: deals ranges out as answers come back; returns {primes, checksum}. */
    private static long[] farm(Comm world, int ranges, int width) throws MPIException {
        int workers = world.getSize() - 1;
        int next = 0;
        for (int w = 1; w <= workers; w++) {
            next = assign(world, w, next, ranges);
        }
        long primes = 0;
        long checksum = 0;
        for (int done = 0; done < ranges; done++) {
            Message answer = new Message();
            Status probed = answer.mProbe(MPI.ANY_SOURCE, RESULT, world);
            int count = probed.getCount(MPI.LONG);
            long[] list = new long[count];
            answer.mRecv(list, count, MPI.LONG);
            // list[0] is the range; the rest are its primes.
            primes += count - 1;
            for (int i = 1; i < count; i++) {
                checksum += list[i] * (list[0] + 1);
            }
            next = assign(world, probed.getSource(), next, ranges);
        }
        return new long[] {primes, checksum};
    }

    /** Sends range {@code next} to the worker, or tells it to stop; returns the next range to hand out. */
    private static int assign(Comm world, int worker, int next, int ranges) throws MPIException {
        if (next < ranges) {
            world.send(new int[] {next}, 1, MPI.INT, worker, WORK);
            return next + 1;
        }
        world.send(new int[] {-1}, 1, MPI.INT, worker, STOP);
        return next;
    }

    private static void work(Comm world, int width) throws MPIException {
        int[] range = new int[1];
        while (world.recv(range, 1, MPI.INT, 0, MPI.ANY_TAG).getTag() == WORK) {
            long[] list = primesIn(range[0], width);
            world.send(list, list.length, MPI.LONG, 0, RESULT);
        }
    }

    private static long[] alone(int ranges, int width) {
        long primes = 0;
        long checksum = 0;
        for (int r = 0; r < ranges; r++) {
            long[] list = primesIn(r, width);
            primes += list.length - 1;
            for (int i = 1; i < list.length; i++) {
                checksum += list[i] * (list[0] + 1);
            }
        }
        return new long[] {primes, checksum};
    }

    /** The range number followed by the primes in [range * width, (range + 1) * width). */
    static long[] primesIn(int range, int width) {
        long lo = (long) range * width;
        long[] out = new long[width + 1];
        int n = 0;
        out[n++] = range;
        for (long v = Math.max(2, lo); v < lo + width; v++) {
            if (isPrime(v)) {
                out[n++] = v;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    private static boolean isPrime(long v) {
        if (v < 4) {
            return v >= 2;
        }
        if (v % 2 == 0) {
            return false;
        }
        for (long d = 3; d * d <= v; d += 2) {
            if (v % d == 0) {
                return false;
            }
        }
        return true;
    }
}
