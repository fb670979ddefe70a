package io.rewind.transport.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Linux futexes on shared memory, through the C library's {@code syscall}: a thread of one process
 * sleeps on a word of a mapped file ({@code FUTEX_WAIT}, not the private variant, so the word is found by
 * its file page) and a thread of another process wakes it ({@code FUTEX_WAKE}). This is how a parked
 * rank's poller sleeps until a peer writes to one of its rings, without a thread hop on any socket.
 *
 * <p>Linux on x86-64 or AArch64 only; elsewhere (or without native access) {@link #supported} is false,
 * a wait is a plain timed park of at most one millisecond and a wake does nothing, so the poller looks
 * at its rings every millisecond instead.
 */
final class Futex {
    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    private static final long FALLBACK_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** {@code long syscall(long number, ...)}, called as syscall(SYS_futex, addr, op, val, timeout, 0, 0). */
    private static final MethodHandle SYSCALL;

    private static final long SYS_FUTEX;

    static {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        long number = arch.equals("amd64") ? 202 : arch.equals("aarch64") ? 98 : -1;
        MethodHandle handle = null;
        if (os.contains("linux") && number > 0) {
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                handle = linker.downcallHandle(
                        libc.find("syscall").orElseThrow(),
                        FunctionDescriptor.of(
                                ValueLayout.JAVA_LONG,
                                ValueLayout.JAVA_LONG,
                                ValueLayout.ADDRESS,
                                ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_INT,
                                ValueLayout.ADDRESS,
                                ValueLayout.ADDRESS,
                                ValueLayout.JAVA_INT),
                        Linker.Option.firstVariadicArg(1));
            } catch (RuntimeException e) {
                handle = null; // native access refused or no such symbol: fall back to timed parks
            }
        }
        SYSCALL = handle;
        SYS_FUTEX = number;
    }

    private Futex() {}

    static boolean supported() {
        return SYSCALL != null;
    }

    /**
     * Sleeps while the int at {@code word} holds {@code expected}, for at most {@code timeoutNanos}; may
     * return early (a wake, a signal, the value already changed). {@code timespec} is 16 bytes of native
     * memory of the calling thread ({@link #timespec}).
     */
    static void await(MemorySegment word, int expected, long timeoutNanos, MemorySegment timespec) {
        if (SYSCALL == null) {
            LockSupport.parkNanos(Math.min(timeoutNanos, FALLBACK_WAIT_NANOS));
            return;
        }
        timespec.set(ValueLayout.JAVA_LONG, 0, timeoutNanos / 1_000_000_000L);
        timespec.set(ValueLayout.JAVA_LONG, 8, timeoutNanos % 1_000_000_000L);
        try {
            long ignored =
                    (long) SYSCALL.invokeExact(SYS_FUTEX, word, FUTEX_WAIT, expected, timespec, MemorySegment.NULL, 0);
        } catch (Throwable t) {
            throw new IllegalStateException("futex wait failed", t);
        }
    }

    /** Wakes every thread sleeping on the int at {@code word}, in any process. */
    static void wake(MemorySegment word) {
        if (SYSCALL == null) {
            return;
        }
        try {
            long ignored = (long) SYSCALL.invokeExact(
                    SYS_FUTEX, word, FUTEX_WAKE, Integer.MAX_VALUE, MemorySegment.NULL, MemorySegment.NULL, 0);
        } catch (Throwable t) {
            throw new IllegalStateException("futex wake failed", t);
        }
    }

    /** A {@code struct timespec} for one thread's waits. */
    static MemorySegment timespec(Arena arena) {
        return arena.allocate(16, 8);
    }
}
