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

    private static final Calls CALLS = Calls.load();

    private AnonymousMemory() {}

    /** The C library entry points, or none where this platform does not qualify. */
    private record Calls(MethodHandle mmap, MethodHandle madvise, MethodHandle munmap) {
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
                                        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG)));
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
