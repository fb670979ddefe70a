package io.rewind.bench.log;

import io.rewind.ft.log.AnonymousMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * What one log copy costs depending on how much log memory the copies cycle through: the evidence
 * behind the cost of logging long messages. A log that keeps everything since the receiver's oldest
 * recovery line writes every message into memory it last wrote long ago; once that footprint
 * outgrows the caches, each copy pays for fetching the lines it overwrites and for writing them back.
 *
 * <p>For each footprint (0 means one hot area, rewritten by every copy, as the dummy backend does),
 * {@code bytes}-sized copies from a hot source walk through an off-heap area of that many MiB, one
 * after the other, as a log fills its blocks. With {@code threads} = 2 the same copies are split in
 * two halves made at once by two threads, as if the receiving core took half of each log copy.
 *
 * <p>With {@code pages} = {@code huge} the area is memory advised for transparent huge pages
 * ({@link AnonymousMemory}, as the off-heap log backend maps the blocks of a large log; Linux only)
 * instead of the JVM's native allocation in 4 KiB pages: if the copies get faster, part of their
 * cost was address translation over the footprint; the program prints how many huge pages were
 * granted, since the kernel may refuse them.
 *
 * <p>Usage: {@code LogMemoryCopy [bytes] [footprints MiB, comma-separated] [rounds] [small|huge]};
 * prints the median microseconds per copy for one and for two threads. Needs two free cores.
 */
public final class LogMemoryCopy {
    private LogMemoryCopy() {}

    public static void main(String[] args) throws InterruptedException {
        long size = args.length > 0 ? Long.parseLong(args[0]) : 256 << 10;
        String footprints = args.length > 1 ? args[1] : "0,4,24,96";
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 15;
        String pages = args.length > 3 ? args[3] : "small";
        if (size < 2 || rounds < 1) {
            throw new IllegalArgumentException("need bytes >= 2 and rounds >= 1, got " + size + " and " + rounds);
        }
        if (!pages.equals("small") && !pages.equals("huge")) {
            throw new IllegalArgumentException("pages is small or huge, got " + pages);
        }
        boolean huge = pages.equals("huge");
        for (String f : footprints.split(",")) {
            long footprintMiB = Long.parseLong(f.trim());
            if (footprintMiB < 0) {
                throw new IllegalArgumentException("a footprint is MiB >= 0, got " + f);
            }
            long footprintBytes = footprintMiB << 20;
            double one = perCopyMicros(size, footprintBytes, 1, rounds, huge);
            double two = perCopyMicros(size, footprintBytes, 2, rounds, huge);
            System.out.printf(
                    Locale.ROOT,
                    "%d bytes, %s%s: %.1f us per copy with one thread, %.1f us with two%s%n",
                    size,
                    footprintBytes == 0 ? "hot area" : "cycling through " + (footprintBytes >> 20) + " MiB",
                    huge ? ", huge pages" : "",
                    one,
                    two,
                    huge
                            ? " (" + (lastGrantedKiB < 0 ? "unknown" : lastGrantedKiB + " KiB")
                                    + " of the area in huge pages)"
                            : "");
        }
    }

    /** KiB of huge pages the last huge area got once touched ({@code -1}: the kernel does not say). */
    private static long lastGrantedKiB;

    /** Median over rounds of the time per copy, each round a pass through the whole footprint. */
    private static double perCopyMicros(long size, long footprintBytes, int threads, int rounds, boolean huge)
            throws InterruptedException {
        long areaBytes = Math.max(footprintBytes, size);
        long copies = Math.max(64, areaBytes / size);
        double[] perCopy = new double[rounds];
        try (Arena arena = Arena.ofShared()) {
            MemorySegment source = arena.allocate(size, 64);
            source.fill((byte) 7);
            long grantedBefore = huge ? AnonymousMemory.hugePageKiB() : 0;
            MemorySegment area = huge ? AnonymousMemory.map(areaBytes, arena, true) : arena.allocate(areaBytes, 4096);
            area.fill((byte) 1); // touch every page once: page faults are not what is measured
            if (huge) {
                long after = AnonymousMemory.hugePageKiB();
                lastGrantedKiB = after < 0 || grantedBefore < 0 ? -1 : Math.max(0, after - grantedBefore);
            }
            CyclicBarrier start = new CyclicBarrier(threads);
            CyclicBarrier end = new CyclicBarrier(threads);
            long half = size / threads;
            Thread helper = null;
            if (threads == 2) {
                helper = Thread.ofPlatform().daemon().start(() -> {
                    for (int r = -1; r < rounds; r++) {
                        await(start);
                        pass(source, area, size, copies, half, size - half);
                        await(end);
                    }
                });
            }
            for (int r = -1; r < rounds; r++) { // round -1 warms up
                await(start);
                long t0 = System.nanoTime();
                pass(source, area, size, copies, 0, half);
                await(end);
                if (r >= 0) {
                    perCopy[r] = (System.nanoTime() - t0) / 1e3 / copies;
                }
            }
            if (helper != null) {
                helper.join();
            }
        }
        Arrays.sort(perCopy);
        return perCopy[rounds / 2];
    }

    private static void pass(MemorySegment source, MemorySegment area, long size, long copies, long from, long bytes) {
        long areaBytes = area.byteSize();
        for (long i = 0; i < copies; i++) {
            long at = (i * size) % (areaBytes - size + 1);
            MemorySegment.copy(source, from, area, at + from, bytes);
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (BrokenBarrierException e) {
            throw new IllegalStateException(e);
        }
    }
}
