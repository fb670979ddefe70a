package io.rewind.bench.log;

import io.rewind.ft.log.AnonymousMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Locale;

/**
 * How fast this machine hands a process memory it has not used: the bound on a payload log that
 * grows, since every byte it logs between two checkpoints lands in such memory. For an area of
 * {@code MiB}, in huge or small pages, it prints the rate of three ways of getting it ready and
 * of the copies that follow:
 *
 * <ul>
 *   <li>{@code fault}: copies into a new mapping, each page faulted in by its first write (a log
 *       whose writer faults its blocks in);
 *   <li>{@code populate}: one {@code madvise(MADV_POPULATE_WRITE)} over a new mapping, then the
 *       copies (a log whose blocks are prepared ahead);
 *   <li>{@code again}: the same, right after the previous area was unmapped, so the memory is what
 *       the system got back a moment ago rather than memory it had to find.
 * </ul>
 *
 * On a virtual machine whose host takes free memory back (a balloon device's free page reporting)
 * the first two measure the host, not the guest: see docs/benchmarks.md. Usage: {@code
 * FreshMemoryRate [MiB] [huge|small] [rounds]}; Linux only.
 */
public final class FreshMemoryRate {
    private static final long COPY_BYTES = 1L << 20;

    private FreshMemoryRate() {}

    public static void main(String[] args) {
        long mib = args.length > 0 ? Long.parseLong(args[0]) : 1024;
        boolean huge = args.length <= 1 || args[1].equals("huge");
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        if (!AnonymousMemory.supported()) {
            throw new IllegalStateException("needs Linux on x86-64 or AArch64 with native access enabled");
        }
        if (mib < 1 || rounds < 1) {
            throw new IllegalArgumentException("need MiB >= 1 and rounds >= 1");
        }
        long bytes = mib << 20;
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment source = scratch.allocate(COPY_BYTES, 64);
            source.fill((byte) 0x5A);
            for (int round = 1; round <= rounds; round++) {
                double fault = measure(bytes, huge, false, source);
                double populate = measure(bytes, huge, true, source);
                double again = measure(bytes, huge, true, source);
                System.out.printf(
                        Locale.ROOT,
                        "round %d, %d MiB in %s pages: fault %.2f GB/s | populate %.2f GB/s | again %.2f GB/s%n",
                        round,
                        mib,
                        huge ? "huge" : "small",
                        fault,
                        populate,
                        again);
            }
        }
    }

    /** GB/s of making {@code bytes} ready (if {@code populate}) and copying into all of it once. */
    private static double measure(long bytes, boolean huge, boolean populate, MemorySegment source) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment area = AnonymousMemory.map(bytes, arena, huge);
            long start = System.nanoTime();
            if (populate) {
                AnonymousMemory.populate(area);
            }
            for (long at = 0; at + COPY_BYTES <= bytes; at += COPY_BYTES) {
                MemorySegment.copy(source, 0, area, at, COPY_BYTES);
            }
            return bytes / (double) (System.nanoTime() - start);
        }
    }
}
