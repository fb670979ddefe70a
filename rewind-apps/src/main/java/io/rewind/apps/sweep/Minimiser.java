package io.rewind.apps.sweep;

import io.rewind.runtime.FailureSchedule;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Makes a failing run's reproduction as small as it stays failing. First it runs the failing run again
 * to estimate how often it fails (k of N); a run that fails that rarely needs that many tries before a
 * smaller one may be said to pass. Then it drops kills one at a time, keeping each drop after which the
 * run still fails, and then shortens a random program's steps while it still fails.
 *
 * <p>"Still fails" means fails in some way, not necessarily the same way: the report keeps the text of
 * the original failure beside the smallest reproduction. The trials are bounded in number and by a
 * stop condition (the campaign's deadline), and what was found by then is the result.
 */
final class Minimiser {
    /** One run of a spec: whether it failed. */
    interface Trial {
        boolean fails(RunSpec spec);
    }

    /**
     * What minimising found.
     *
     * @param failed   of {@code reruns} reruns of the original, how many failed
     * @param smallest the smallest run found that still fails (the original when nothing smaller did, or
     *                 when no rerun failed)
     * @param log      one line per candidate tried
     * @param trials   runs made in all
     */
    record Result(RunSpec original, int failed, int reruns, RunSpec smallest, List<String> log, int trials) {
        /** "k of N reruns failed". */
        String rate() {
            return failed + " of " + reruns + " reruns failed";
        }
    }

    /** Fewer steps than this are not tried: the program has next to nothing left to run. */
    static final int MIN_STEPS = 2;

    private final Trial trial;
    private final int reruns;
    private final int maxTries;
    private final int budget;
    private final BooleanSupplier stop;
    private int trials;

    /**
     * @param reruns   reruns of the original, to estimate how often it fails
     * @param maxTries the most runs of one candidate before it is taken to pass
     * @param budget   the most runs in all, the reruns included
     * @param stop     true once minimising must end (it then returns what it has)
     */
    Minimiser(Trial trial, int reruns, int maxTries, int budget, BooleanSupplier stop) {
        if (reruns < 1 || maxTries < 1 || budget < reruns) {
            throw new IllegalArgumentException(
                    "reruns " + reruns + ", tries " + maxTries + " and budget " + budget + " do not fit");
        }
        this.trial = trial;
        this.reruns = reruns;
        this.maxTries = maxTries;
        this.budget = budget;
        this.stop = stop;
    }

    Result minimise(RunSpec failing) {
        trials = 0;
        List<String> log = new ArrayList<>();
        int failed = 0;
        int ran = 0;
        for (int i = 0; i < reruns && !stop.getAsBoolean(); i++) {
            ran++;
            if (once(failing)) {
                failed++;
            }
        }
        if (failed == 0) {
            log.add("no rerun failed: nothing to minimise against");
            return new Result(failing, 0, ran, failing, log, trials);
        }
        // A candidate that passes this many times in a row passes: with a failure rate of k/N, it has
        // failed at least once in that many runs about 19 times in 20 (-ln 0.05 = 3).
        int tries = Math.max(2, Math.min(maxTries, (int) Math.ceil(3.0 * ran / failed)));
        RunSpec current = failing;
        boolean dropped = true;
        while (dropped && !exhausted()) {
            dropped = false;
            List<FailureSchedule.Kill> kills = current.kills().kills();
            for (int i = 0; i < kills.size() && !exhausted(); i++) {
                List<FailureSchedule.Kill> fewer = new ArrayList<>(kills);
                FailureSchedule.Kill gone = fewer.remove(i);
                RunSpec candidate = current.withKills(new FailureSchedule(fewer));
                boolean fails = stillFails(candidate, tries);
                log.add("without kill " + gone + ": "
                        + (fails ? "still fails, dropped" : "passes " + tries + " times, kept"));
                if (fails) {
                    current = candidate;
                    dropped = true;
                    break;
                }
            }
        }
        if (current.program().canShorten()) {
            // Halves the steps cut while a cut passes, keeps it while one fails: about log2(steps) squared
            // candidates at most.
            int steps = current.program().steps();
            int delta = steps / 2;
            while (delta >= 1 && !exhausted()) {
                if (steps - delta < MIN_STEPS) {
                    delta = steps - MIN_STEPS; // 0 ends it: nothing shorter is tried
                    continue;
                }
                RunSpec candidate = current.withProgram(current.program().withSteps(steps - delta));
                boolean fails = stillFails(candidate, tries);
                log.add((steps - delta) + " steps: " + (fails ? "still fails" : "passes " + tries + " times"));
                if (fails) {
                    current = candidate;
                    steps -= delta;
                } else {
                    delta /= 2;
                }
            }
        }
        if (exhausted()) {
            log.add("stopped after " + trials + " runs: the budget or the time was up");
        }
        return new Result(failing, failed, ran, current, log, trials);
    }

    private boolean exhausted() {
        return trials >= budget || stop.getAsBoolean();
    }

    private boolean stillFails(RunSpec candidate, int tries) {
        for (int i = 0; i < tries && !exhausted(); i++) {
            if (once(candidate)) {
                return true;
            }
        }
        return false;
    }

    private boolean once(RunSpec spec) {
        trials++;
        return trial.fails(spec);
    }
}
