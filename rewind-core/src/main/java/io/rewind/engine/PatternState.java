package io.rewind.engine;

import java.util.Arrays;

/**
 * The communication patterns a rank declared (see {@code io.rewind.api.Patterns}): how many, the
 * iteration each has reached, and which one is active. Every point-to-point send and receive of the
 * rank carries the active (pattern id, iteration id); outside any pattern that is (0, 0), the default
 * pattern.
 *
 * <p>The active pair is kept in one volatile long, so that a send or receive posted by any thread of
 * the rank reads both ids of the same iteration with one read; the rest is changed by the program's
 * own calls, which are rare, under this object's lock.
 */
public final class PatternState {
    /** Pattern ids handed out so far; ids 1..declared are valid. */
    private int declared;
    /**
     * By pattern id, its last iteration id (0: none begun); index 0 is unused. May be longer than
     * {@link #declared}: a restarted rank may restore before it declares again, and declaring must then
     * find the restored counters, not reset them.
     */
    private int[] iterations = new int[1];
    /** The active pattern id in the high half, its iteration id in the low half; 0 outside patterns. */
    private volatile long active;
    /**
     * Set by a restore whose checkpoint was taken inside an iteration, until the rank reaches its
     * resume point: the program runs again from {@code main} to that point, and a {@link #begin} of
     * the restored pattern on the way is the one that began the checkpointed iteration, made again.
     */
    private boolean resuming;

    /** A new pattern id: 1, 2, 3 ... in declaration order. */
    public synchronized int declare() {
        if (declared == Integer.MAX_VALUE) {
            throw new IllegalStateException("too many communication patterns");
        }
        declared++;
        if (iterations.length <= declared) {
            iterations = Arrays.copyOf(iterations, declared + 1); // declaring is rare: exact size
        }
        return declared;
    }

    /**
     * Starts the next iteration of {@code pattern}, which becomes active. Everything is checked before
     * anything changes, so a refused call changes nothing.
     */
    public synchronized void begin(int pattern) {
        checkDeclared(pattern);
        int current = activePatternId();
        if (resuming && current == pattern) {
            resuming = false; // the begin of the restored iteration, made again: its id stays
            return;
        }
        if (current != 0) {
            throw new IllegalStateException("cannot begin an iteration of pattern " + pattern + " while pattern "
                    + current + " is active (patterns do not nest): end it first");
        }
        if (iterations[pattern] == Integer.MAX_VALUE) {
            throw new IllegalStateException("pattern " + pattern + " has run out of iteration ids");
        }
        int iteration = ++iterations[pattern];
        active = pack(pattern, iteration);
    }

    /** Ends the current iteration of {@code pattern}: the default pattern is active again. */
    public synchronized void end(int pattern) {
        checkDeclared(pattern);
        int current = activePatternId();
        if (current != pattern) {
            throw new IllegalStateException("cannot end pattern " + pattern + ": "
                    + (current == 0 ? "no pattern is active" : "pattern " + current + " is active"));
        }
        resuming = false;
        active = 0;
    }

    /** The last iteration id begun of {@code pattern} (0 before its first iteration). */
    public synchronized int iteration(int pattern) {
        checkDeclared(pattern);
        return iterations[pattern];
    }

    /** Pattern ids declared so far. */
    public synchronized int declared() {
        return declared;
    }

    private void checkDeclared(int pattern) {
        if (pattern < 1 || pattern > declared) {
            throw new IllegalArgumentException("pattern " + pattern + " was not declared (declared ids: "
                    + (declared == 0 ? "none" : "1.." + declared) + ")");
        }
    }

    /** The active pattern id, 0 outside any declared pattern. */
    public int activePatternId() {
        return (int) (active >>> 32);
    }

    /** The active pattern and iteration ids packed as by {@link #pack}: one read, both ids. */
    long active() {
        return active;
    }

    static long pack(int pattern, int iteration) {
        return ((long) pattern << 32) | (iteration & 0xFFFF_FFFFL);
    }

    static int patternOf(long packed) {
        return (int) (packed >>> 32);
    }

    static int iterationOf(long packed) {
        return (int) packed;
    }

    /**
     * For a checkpoint: the active pattern id and its iteration id, then the last iteration id of
     * each pattern from id 1 on.
     */
    public synchronized int[] save() {
        long a = active;
        int n = iterations.length - 1;
        int[] out = new int[2 + n];
        out[0] = patternOf(a);
        out[1] = iterationOf(a);
        System.arraycopy(iterations, 1, out, 2, n);
        return out;
    }

    /**
     * Restores what {@link #save} returned (a restarted rank). The declared count stays: the program
     * declares its patterns again, before or after restoring, and gets the same ids in the same order.
     * If the checkpoint was taken inside an iteration, that iteration is active again, and the first
     * {@link #begin} of its pattern before {@link #resumed} is taken for the program beginning it
     * again on its way to the resume point: it keeps the restored id.
     */
    public synchronized void restore(int[] saved) {
        if (saved.length < 2) {
            throw new IllegalArgumentException("pattern state of " + saved.length + " ints");
        }
        int n = saved.length - 2;
        int[] restored = new int[Math.max(n, iterations.length - 1) + 1];
        System.arraycopy(saved, 2, restored, 1, n);
        iterations = restored;
        active = pack(saved[0], saved[1]);
        resuming = saved[0] != 0;
    }

    /** The restarted rank reached the point its checkpoint was taken at: patterns work as usual again. */
    public synchronized void resumed() {
        resuming = false;
    }
}
