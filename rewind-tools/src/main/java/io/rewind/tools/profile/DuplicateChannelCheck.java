package io.rewind.tools.profile;

import java.util.Arrays;

/**
 * Remembers (key, line) pairs so a reader can reject a file that lists the same ordered pair
 * twice, naming both lines. Sorting once at the end is cheaper than hashing every line.
 */
final class DuplicateChannelCheck {

    private long[] keys = new long[256];
    private long[] lines = new long[256];
    private int size;

    void record(long key, long line) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            lines = Arrays.copyOf(lines, size * 2);
        }
        keys[size] = key;
        lines[size] = line;
        size++;
    }

    /** Throws when some key was recorded twice; {@code what} describes the key for the message. */
    void verify(LineSource source, java.util.function.LongFunction<String> what) {
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(
                order,
                (a, b) -> keys[a] != keys[b] ? Long.compare(keys[a], keys[b]) : Long.compare(lines[a], lines[b]));
        for (int i = 1; i < size; i++) {
            if (keys[order[i]] == keys[order[i - 1]]) {
                throw source.errorAt(
                        lines[order[i]], what.apply(keys[order[i]]) + " already given on line " + lines[order[i - 1]]);
            }
        }
    }
}
