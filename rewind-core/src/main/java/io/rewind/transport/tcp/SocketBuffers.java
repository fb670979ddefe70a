package io.rewind.transport.tcp;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The size asked for the send and receive buffers of the data connections' sockets.
 *
 * <p>Why fixed buffers: Linux grows a connection's receive window with what the reader took in the last
 * round trip. After a phase of short messages a connection starts its first long message with a window of
 * a few hundred KiB, so a 4 MiB message crosses in window-sized steps, each written by a poll of the
 * sender once the reader made room; on two cores that was 2 to 7 times slower than the same message on a
 * connection that had carried long ones from the start (docs/benchmarks.md). A buffer fixed at the size
 * of a long message lets it go in one write whatever came before.
 *
 * <p>Why not always: a size above the system's maximum ({@code net.core.rmem_max}, {@code wmem_max}) is
 * cut down to that maximum and turns autotuning off, which on a system left at the usual 208 KiB maximum
 * would give a smaller window than autotuning does. So the size is asked for only where both maxima
 * allow it; elsewhere (or where they cannot be read: not Linux) the kernel's autotuning stays.
 */
final class SocketBuffers {
    /** 4 MiB: the longest message of the usual bandwidth benchmarks in one write. */
    static final int DEFAULT_BYTES = 4 << 20;

    private static final Path RMEM_MAX = Path.of("/proc/sys/net/core/rmem_max");
    private static final Path WMEM_MAX = Path.of("/proc/sys/net/core/wmem_max");

    private SocketBuffers() {}

    /** What to ask for on this system: {@code requested}, or 0 (the kernel's autotuning). */
    static int sizeFor(int requested) {
        return sizeFor(requested, readLimit(RMEM_MAX), readLimit(WMEM_MAX));
    }

    /**
     * What to ask for given the system's maxima (-1: unknown, as on a system without them).
     *
     * @return {@code requested} if both maxima are known and allow it, else 0
     */
    static int sizeFor(int requested, long receiveMax, long sendMax) {
        if (requested <= 0 || receiveMax < requested || sendMax < requested) {
            return 0;
        }
        return requested;
    }

    private static long readLimit(Path file) {
        // Read as a stream: a file under /proc reports a size that is not its content's.
        try (BufferedReader in = Files.newBufferedReader(file)) {
            String line = in.readLine();
            return line == null ? -1 : Long.parseLong(line.trim());
        } catch (IOException | NumberFormatException | SecurityException e) {
            return -1;
        }
    }
}
