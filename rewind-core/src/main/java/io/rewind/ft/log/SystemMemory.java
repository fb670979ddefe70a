package io.rewind.ft.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This machine's memory as Linux reports it in {@code /proc/meminfo}; -1 where that file is not
 * there or says nothing useful. Read, not cached: what is available changes as logs fault memory in.
 */
public final class SystemMemory {
    private static final Path MEMINFO = Path.of("/proc/meminfo");

    private SystemMemory() {}

    /** Physical memory of the machine, or -1 if unknown. */
    public static long totalBytes() {
        return field("MemTotal:");
    }

    /** Memory that can be given to processes now without swapping, or -1 if unknown. */
    public static long availableBytes() {
        return field("MemAvailable:");
    }

    private static long field(String name) {
        try {
            for (String line : Files.readAllLines(MEMINFO)) {
                if (line.startsWith(name)) {
                    String[] parts = line.substring(name.length()).trim().split("\\s+");
                    long value = Long.parseLong(parts[0]);
                    return parts.length > 1 && parts[1].equalsIgnoreCase("kB") ? value * 1024 : value;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or a format this reader does not know: unknown
        }
        return -1;
    }
}
