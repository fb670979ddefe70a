package io.rewind.checkpoint;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one rank saved at one recovery line: named byte sections (the registered program state and
 * the runtime's own state), in insertion order.
 *
 * @param rank     world rank
 * @param line     recovery-line number (1 for the first checkpoint)
 * @param sections name to bytes
 */
public record CheckpointImage(int rank, long line, Map<String, byte[]> sections) {
    public CheckpointImage {
        Objects.requireNonNull(sections, "sections");
        sections = Collections.unmodifiableMap(new LinkedHashMap<>(sections));
        if (rank < 0) {
            throw new IllegalArgumentException("rank must be >= 0, was " + rank);
        }
        if (line < 1) {
            throw new IllegalArgumentException("line must be >= 1, was " + line);
        }
    }

    public byte[] section(String name) {
        byte[] b = sections.get(name);
        if (b == null) {
            throw new CheckpointException("checkpoint of rank " + rank + " at line " + line + " has no section '" + name
                    + "' (sections: " + sections.keySet() + ")");
        }
        return b;
    }

    public long sizeBytes() {
        long n = 0;
        for (byte[] b : sections.values()) {
            n += b.length;
        }
        return n;
    }
}
