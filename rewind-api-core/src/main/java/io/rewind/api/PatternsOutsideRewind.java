package io.rewind.api;

import io.rewind.api.spi.RankPatterns;
import java.util.Arrays;

/**
 * The patterns of a program run without the Rewind runtime: ids and iterations counted and the calls
 * checked as under Rewind, so a mistake shows in either run, but nothing carries them anywhere.
 */
final class PatternsOutsideRewind implements RankPatterns {
    private int declared;
    /** By pattern id, its last iteration id; index 0 is unused. */
    private int[] iterations = new int[1];

    private int active;

    @Override
    public synchronized int declare() {
        if (declared == Integer.MAX_VALUE) {
            throw new IllegalStateException("too many communication patterns");
        }
        declared++;
        iterations = Arrays.copyOf(iterations, declared + 1);
        return declared;
    }

    @Override
    public synchronized void begin(int pattern) {
        checkDeclared(pattern);
        if (active != 0) {
            throw new IllegalStateException("cannot begin an iteration of pattern " + pattern + " while pattern "
                    + active + " is active (patterns do not nest): end it first");
        }
        if (iterations[pattern] == Integer.MAX_VALUE) {
            throw new IllegalStateException("pattern " + pattern + " has run out of iteration ids");
        }
        iterations[pattern]++;
        active = pattern;
    }

    @Override
    public synchronized void end(int pattern) {
        checkDeclared(pattern);
        if (active != pattern) {
            throw new IllegalStateException("cannot end pattern " + pattern + ": "
                    + (active == 0 ? "no pattern is active" : "pattern " + active + " is active"));
        }
        active = 0;
    }

    @Override
    public synchronized int iteration(int pattern) {
        checkDeclared(pattern);
        return iterations[pattern];
    }

    @Override
    public synchronized int active() {
        return active;
    }

    private void checkDeclared(int pattern) {
        if (pattern < 1 || pattern > declared) {
            throw new IllegalArgumentException("pattern " + pattern + " was not declared (declared ids: "
                    + (declared == 0 ? "none" : "1.." + declared) + ")");
        }
    }
}
