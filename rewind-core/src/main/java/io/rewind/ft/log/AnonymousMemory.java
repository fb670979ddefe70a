package io.rewind.ft.log;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Anonymous memory mapped by the process itself ({@code mmap}), optionally advised for transparent
 * huge pages ({@code madvise(MADV_HUGEPAGE)} on its 2 MiB-aligned part). Two properties the JVM's
 * native allocation does not give: the pages are faulted in only when first written (a log that
 * stays small holds little memory, whatever its block size), and the memory can use huge pages. A
 * log writes each message into memory it has not touched for a checkpoint interval or more, tens of
 * MiB away from the last one; with 4 KiB pages the copy of a long message also misses the TLB on
 * every page (docs/benchmarks.md measures the difference). Where transparent huge pages are in
 * "madvise" mode, the usual setting, only memory advised this way gets them.
 *
 * <p>Linux on x86-64 or AArch64 only (the flag values below are theirs); {@link #supported} says
 * whether this platform qualifies. The memory is unmapped when the arena it is attached to closes.
 */
public final class AnonymousMemory {
    /** Size of a transparent huge page on the supported platforms. */
    public static final long HUGE_PAGE_BYTES = 2L << 20;

    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final int MADV_HUGEPAGE = 14;
    private static final int MADV_DONTNEED = 4;
    /** Linux 5.14 and later; older kernels answer EINVAL. */
    private static final int MADV_POPULATE_WRITE = 23;

    private static final long SMALL_PAGE_BYTES = 4096;

    /** {@code setpriority} on one thread (Linux: a thread id is a "process" here). */
    private static final int PRIO_PROCESS = 0;

    private static final int LOWEST_PRIORITY = 19;

    /** Cleared for good the first time the kernel refuses {@code MADV_POPULATE_WRITE}. */
    private static volatile boolean populateAdviceWorks = true;

    private static final Calls CALLS = Calls.load();

    private AnonymousMemory() {}

    /** The C library entry points, or none where this platform does not qualify. */
    private record Calls(
            MethodHandle mmap,
            MethodHandle madvise,
            MethodHandle munmap,
            MethodHandle gettid,
            MethodHandle setpriority) {
        static Calls load() {
            String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
            String arch = System.getProperty("os.arch", "");
            if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("aarch64"))) {
                return null;
            }
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            try {
                return new Calls(
                        linker.downcallHandle(
                                libc.find("mmap").orElseThrow(),
                                FunctionDescriptor.of(
                                        ValueLayout.ADDRESS,
                                        ValueLayout.ADDRESS,
                                        ValueLayout.JAVA_LONG,
                                        ValueLayout.JAVA_INT,
                                        ValueLayout.JAVA_INT,
                                        ValueLayout.JAVA_INT,
                                        ValueLayout.JAVA_LONG)),
                        linker.downcallHandle(
                                libc.find("madvise").orElseThrow(),
                                FunctionDescriptor.of(
                                        ValueLayout.JAVA_INT,
                                        ValueLayout.ADDRESS,
                                        ValueLayout.JAVA_LONG,
                                        ValueLayout.JAVA_INT)),
                        linker.downcallHandle(
                                libc.find("munmap").orElseThrow(),
                                FunctionDescriptor.of(
                                        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG)),
                        libc.find("gettid")
                                .map(f -> linker.downcallHandle(f, FunctionDescriptor.of(ValueLayout.JAVA_INT)))
                                .orElse(null),
                        linker.downcallHandle(
                                libc.find("setpriority").orElseThrow(),
                                FunctionDescriptor.of(
                                        ValueLayout.JAVA_INT,
                                        ValueLayout.JAVA_INT,
                                        ValueLayout.JAVA_INT,
                                        ValueLayout.JAVA_INT)));
            } catch (RuntimeException e) {
                // A missing symbol or native access refused: this process cannot map memory itself.
                return null;
            }
        }
    }

    /** Whether this platform can map memory itself (and advise it for huge pages). */
    public static boolean supported() {
        return CALLS != null;
    }

    /**
     * {@code bytes} of zeroed memory starting on a huge-page boundary, faulted in as it is first
     * written, unmapped when {@code arena} closes, and with {@code hugePages} advised for huge pages.
     * The kernel may still back advised memory with small pages (no free huge page, or transparent
     * huge pages off): it works the same, only slower to walk.
     *
     * @throws UnsupportedOperationException if {@link #supported} is false
     * @throws IllegalStateException if the mapping or the advice fails; nothing stays mapped then
     */
    public static MemorySegment map(long bytes, Arena arena, boolean hugePages) {
        if (CALLS == null) {
            throw new UnsupportedOperationException(
                    "mapping memory needs Linux on x86-64 or AArch64 with native access enabled (this is "
                            + System.getProperty("os.name") + " on " + System.getProperty("os.arch") + ")");
        }
        if (bytes <= 0) {
            throw new IllegalArgumentException("bytes must be > 0, got " + bytes);
        }
        long areaBytes = (bytes + HUGE_PAGE_BYTES - 1) / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
        long mappingBytes = areaBytes + HUGE_PAGE_BYTES; // room to start on a boundary
        MemorySegment mapping;
        try {
            MemorySegment mapped = (MemorySegment) CALLS.mmap.invokeExact(
                    MemorySegment.NULL, mappingBytes, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
            if (mapped.address() == -1L) { // MAP_FAILED
                throw new IllegalStateException("mmap of " + mappingBytes + " bytes failed");
            }
            mapping = mapped.reinterpret(mappingBytes);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("mmap failed", t);
        }
        long skip = ((mapping.address() + HUGE_PAGE_BYTES - 1) & -HUGE_PAGE_BYTES) - mapping.address();
        if (hugePages) {
            advise(mapping, skip, areaBytes);
        }
        return mapping.asSlice(skip, bytes).reinterpret(arena, segment -> unmap(mapping));
    }

    /**
     * Advises {@code memory}, whole huge pages on a huge-page boundary inside a mapping made by {@link
     * #map}, for transparent huge pages.
     *
     * @throws IllegalStateException if the kernel refuses
     */
    public static void adviseHugePages(MemorySegment memory) {
        requireSupported();
        if (memory.address() % HUGE_PAGE_BYTES != 0 || memory.byteSize() % HUGE_PAGE_BYTES != 0) {
            throw new IllegalArgumentException("huge-page advice needs whole huge pages on a huge-page boundary");
        }
        int rc;
        try {
            rc = (int) CALLS.madvise.invokeExact(memory, memory.byteSize(), MADV_HUGEPAGE);
        } catch (Throwable t) {
            throw new IllegalStateException("madvise failed", t);
        }
        if (rc != 0) {
            throw new IllegalStateException(
                    "madvise(MADV_HUGEPAGE) refused: transparent huge pages are not available in this kernel");
        }
    }

    private static void advise(MemorySegment mapping, long skip, long areaBytes) {
        int rc;
        try {
            rc = (int) CALLS.madvise.invokeExact(mapping.asSlice(skip, areaBytes), areaBytes, MADV_HUGEPAGE);
        } catch (Throwable t) {
            unmap(mapping);
            throw new IllegalStateException("madvise failed", t);
        }
        if (rc != 0) {
            unmap(mapping);
            throw new IllegalStateException(
                    "madvise(MADV_HUGEPAGE) refused: transparent huge pages are not available in this kernel");
        }
    }

    /**
     * Faults in every page of {@code memory} (part of a mapping made by {@link #map}) for writing, so
     * that the copies into it later run at the speed of memory already touched. One {@code
     * madvise(MADV_POPULATE_WRITE)} does it in the kernel without a page fault per page; where the
     * kernel predates it, one byte per 4 KiB page is written instead (the memory must hold nothing
     * yet: the bytes written are zeros). On a virtual machine a first write fault can cost a
     * microsecond per KiB, twenty times the copy (docs/benchmarks.md), which is why a log prepares
     * its blocks this way, ahead of the writer and off its thread.
     */
    public static void populate(MemorySegment memory) {
        requireSupported();
        if (populateAdviceWorks) {
            int rc;
            try {
                rc = (int) CALLS.madvise.invokeExact(memory, memory.byteSize(), MADV_POPULATE_WRITE);
            } catch (Throwable t) {
                throw new IllegalStateException("madvise(MADV_POPULATE_WRITE) failed", t);
            }
            if (rc == 0) {
                return;
            }
            populateAdviceWorks = false; // an older kernel: touch the pages from now on
        }
        for (long at = 0; at < memory.byteSize(); at += SMALL_PAGE_BYTES) {
            memory.set(ValueLayout.JAVA_BYTE, at, (byte) 0);
        }
    }

    /**
     * Gives the pages of {@code memory} back to the system ({@code madvise(MADV_DONTNEED)}) while
     * keeping the addresses mapped: a later read finds zeros, a later write faults in fresh pages.
     * This frees a block's memory without unmapping it, so no access to a stale segment can crash
     * the process and no arena has to be closed (closing a shared arena stops every thread of the
     * JVM in a handshake).
     */
    public static void discard(MemorySegment memory) {
        requireSupported();
        int rc;
        try {
            rc = (int) CALLS.madvise.invokeExact(memory, memory.byteSize(), MADV_DONTNEED);
        } catch (Throwable t) {
            throw new IllegalStateException("madvise(MADV_DONTNEED) failed", t);
        }
        if (rc != 0) {
            throw new IllegalStateException("madvise(MADV_DONTNEED) of " + memory.byteSize() + " bytes refused");
        }
    }

    /**
     * Lowers the scheduling priority of the calling thread to the least (nice 19), so that it runs
     * on cores nobody else wants and yields at once to any other thread that wants one. Returns
     * whether it did; where the platform cannot, nothing changes.
     */
    public static boolean lowerCallingThreadPriority() {
        if (CALLS == null || CALLS.gettid == null) {
            return false;
        }
        try {
            int tid = (int) CALLS.gettid.invokeExact();
            return (int) CALLS.setpriority.invokeExact(PRIO_PROCESS, tid, LOWEST_PRIORITY) == 0;
        } catch (Throwable t) {
            return false;
        }
    }

    /** Whether the kernel populates memory in one call (else {@link #populate} touches each page). */
    static boolean populatesInOneCall() {
        return populateAdviceWorks;
    }

    private static void requireSupported() {
        if (CALLS == null) {
            throw new UnsupportedOperationException("mapping memory needs Linux on x86-64 or AArch64");
        }
    }

    private static void unmap(MemorySegment mapping) {
        try {
            int rc = (int) CALLS.munmap.invokeExact(mapping, mapping.byteSize());
            if (rc != 0) {
                throw new IllegalStateException("munmap of " + mapping.byteSize() + " bytes failed");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("munmap failed", t);
        }
    }

    /** KiB of anonymous memory in huge pages this process holds now; -1 if the kernel does not say. */
    public static long hugePageKiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/smaps_rollup"))) {
                if (line.startsWith("AnonHugePages:")) {
                    return Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | NumberFormatException | SecurityException e) {
            return -1;
        }
        return -1;
    }
}
