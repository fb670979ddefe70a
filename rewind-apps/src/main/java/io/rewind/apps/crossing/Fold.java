package io.rewind.apps.crossing;

/** The hashes the crossing programs build their payloads and checksums from. */
final class Fold {
    private Fold() {}

    /** Folds {@code value} into {@code hash}; the result depends on the order of the values folded. */
    static long in(long hash, long value) {
        return (hash ^ value) * 0x100000001B3L + 0x2545F4914F6CDD1DL;
    }

    /** Folds every word of {@code words}, in order. */
    static long in(long hash, long[] words, int count) {
        long h = hash;
        for (int i = 0; i < count; i++) {
            h = in(h, words[i]);
        }
        return h;
    }

    /**
     * A term for a value received from {@code source} whose arrival order MPI leaves free: terms are
     * summed, so the sum is the same whatever order they came in.
     */
    static long term(long source, long value) {
        long h = (source + 1) * 0x9E3779B97F4A7C15L ^ value * 0xC2B2AE3D27D4EB4FL;
        return h ^ (h >>> 29);
    }

    /** The {@code k}-th word of a payload made from {@code seed}. */
    static long word(long seed, long k) {
        long x = seed + (k + 1) * 0x9E3779B97F4A7C15L;
        x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
        x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
        return x ^ (x >>> 31);
    }
}
