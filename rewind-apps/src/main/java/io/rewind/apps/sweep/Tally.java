package io.rewind.apps.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The campaign's counts, kept by its workers as runs end: runs and failures per protocol, launch mode,
 * jitter, kind of program and kind of kill, and every failure with its minimised reproduction.
 */
final class Tally {
    /** Runs and failures of one value of one dimension (one protocol, say). */
    record Count(int runs, int failures) {
        Count plus(boolean failed) {
            return new Count(runs + 1, failures + (failed ? 1 : 0));
        }
    }

    /** A failed run and what minimising it found (null until it has been minimised, or if it was not). */
    record Failure(Runner.Outcome outcome, Minimiser.Result minimised) {}

    /** The dimensions runs are counted by, in the order the report shows them. */
    static final List<String> DIMENSIONS = List.of("protocol", "launch", "jitter", "program", "kills");

    private final Map<String, Map<String, Count>> counts = new TreeMap<>();
    private final List<Failure> failures = new ArrayList<>();
    private int runs;
    private int struck;
    private long runMillis;

    synchronized void add(Runner.Outcome o) {
        runs++;
        struck += o.struck();
        runMillis += o.millis();
        RunSpec s = o.spec();
        count("protocol", s.protocol(), o);
        count("launch", s.launcher().label, o);
        count("jitter", s.jitterMicros() > 0 ? "on" : "off", o);
        count("program", s.program().kind().label, o);
        count("kills", s.killKind().label, o);
    }

    private void count(String dimension, String value, Runner.Outcome o) {
        counts.computeIfAbsent(dimension, d -> new TreeMap<>())
                .merge(value, new Count(1, o.ok() ? 0 : 1), (a, b) -> a.plus(!o.ok()));
    }

    /** Records a failure; returns its number, by which {@link #minimised} names it. */
    synchronized int failed(Runner.Outcome o) {
        failures.add(new Failure(o, null));
        return failures.size() - 1;
    }

    synchronized void minimised(int failure, Minimiser.Result r) {
        failures.set(failure, new Failure(failures.get(failure).outcome(), r));
    }

    synchronized int runs() {
        return runs;
    }

    synchronized int failureCount() {
        return failures.size();
    }

    synchronized int struck() {
        return struck;
    }

    synchronized long runMillis() {
        return runMillis;
    }

    synchronized List<Failure> failures() {
        return List.copyOf(failures);
    }

    /** A copy of the counts of {@code dimension}, by value. */
    synchronized Map<String, Count> counts(String dimension) {
        return new TreeMap<>(counts.getOrDefault(dimension, Map.of()));
    }
}
