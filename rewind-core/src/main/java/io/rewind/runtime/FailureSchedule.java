package io.rewind.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * When ranks crash: parsed from {@code RANK@ITERATION}, {@code RANK@tMILLIS},
 * {@code RANK@cCHECKPOINT} or {@code RANK@oOPERATION} items separated by commas, or drawn from a
 * seed. Every item strikes once.
 */
public record FailureSchedule(List<Kill> kills) implements java.io.Serializable {
    /** What triggers a kill. */
    public enum Trigger {
        /** At the rank's n-th checkpoint point call (1-based), before it checkpoints. */
        ITERATION,
        /** Some milliseconds after the job started, at the rank's next runtime call. */
        TIME,
        /** While the rank writes its n-th checkpoint: the file is left half written. */
        CHECKPOINT,
        /** At the rank's n-th communication operation (send, receive, completion function, probe). */
        OPERATION
    }

    /**
     * One crash.
     *
     * @param fallbackOperation for a kill at a checkpoint point: the operation count at which it strikes
     *                          instead if the rank has passed no point by then (a program without the
     *                          checkpoint API); 0 for none
     */
    public record Kill(int rank, Trigger trigger, long value, long fallbackOperation) implements java.io.Serializable {
        public Kill(int rank, Trigger trigger, long value) {
            this(rank, trigger, value, 0);
        }

        @Override
        public String toString() {
            return rank + "@"
                    + switch (trigger) {
                        case ITERATION -> Long.toString(value);
                        case TIME -> "t" + value;
                        case CHECKPOINT -> "c" + value;
                        case OPERATION -> "o" + value;
                    } + (fallbackOperation > 0 ? "(or o" + fallbackOperation + " without points)" : "");
        }
    }

    public FailureSchedule {
        kills = List.copyOf(kills);
    }

    public static final FailureSchedule NONE = new FailureSchedule(List.of());

    public boolean isEmpty() {
        return kills.isEmpty();
    }

    /**
     * The time of a time kill in milliseconds: a bare number is milliseconds (the first syntax, kept),
     * or a number with a unit as every duration option takes it: {@code 300ms}, {@code 2s},
     * {@code 1.5s}, {@code 2m}.
     */
    private static long millis(String when) {
        String v = when.trim().toLowerCase(java.util.Locale.ROOT);
        double unit = 1;
        if (v.endsWith("ms")) {
            v = v.substring(0, v.length() - 2);
        } else if (v.endsWith("s")) {
            unit = 1000;
            v = v.substring(0, v.length() - 1);
        } else if (v.endsWith("m")) {
            unit = 60_000;
            v = v.substring(0, v.length() - 1);
        } else {
            return Long.parseLong(v);
        }
        double ms = Double.parseDouble(v) * unit;
        if (!Double.isFinite(ms) || ms > Long.MAX_VALUE) {
            throw new NumberFormatException(when);
        }
        return Math.round(ms);
    }

    /** Parses e.g. {@code 2@5,0@t1500,0@t2s,3@c2}; ranks are checked against {@code ranks}. */
    public static FailureSchedule parse(String spec, int ranks) {
        List<Kill> kills = new ArrayList<>();
        if (spec == null || spec.isBlank()) {
            return NONE;
        }
        for (String item : spec.split(",")) {
            String s = item.trim();
            int at = s.indexOf('@');
            if (at <= 0 || at == s.length() - 1) {
                throw new IllegalArgumentException(
                        "'" + s
                                + "' is not RANK@ITERATION, RANK@tTIME (e.g. t1500 in ms, t2s), RANK@cCHECKPOINT or RANK@oOPERATION");
            }
            int rank;
            long value;
            Trigger trigger = Trigger.ITERATION;
            String when = s.substring(at + 1);
            try {
                rank = Integer.parseInt(s.substring(0, at));
                if (when.startsWith("t")) {
                    trigger = Trigger.TIME;
                    when = when.substring(1);
                } else if (when.startsWith("c")) {
                    trigger = Trigger.CHECKPOINT;
                    when = when.substring(1);
                } else if (when.startsWith("o")) {
                    trigger = Trigger.OPERATION;
                    when = when.substring(1);
                }
                value = trigger == Trigger.TIME ? millis(when) : Long.parseLong(when);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "'" + s
                                + "' is not RANK@ITERATION, RANK@tTIME (e.g. t1500 in ms, t2s), RANK@cCHECKPOINT or RANK@oOPERATION");
            }
            if (rank < 0 || rank >= ranks) {
                throw new IllegalArgumentException(
                        "kill '" + s + "' names rank " + rank + " but the job has " + ranks + " ranks");
            }
            if (value < (trigger == Trigger.TIME ? 0 : 1)) {
                throw new IllegalArgumentException("kill '" + s + "': the "
                        + trigger.name().toLowerCase() + " must be " + (trigger == Trigger.TIME ? ">= 0" : ">= 1"));
            }
            kills.add(new Kill(rank, trigger, value));
        }
        return new FailureSchedule(kills);
    }

    /**
     * A reproducible random schedule of one to three crashes on random ranks: at a checkpoint point
     * (an iteration in [2, span]), sometimes two at the same iteration, or in the middle of the
     * communication of an iteration (an operation count in [1, 6 x span]: a send, a receive, a wait,
     * possibly inside a collective). A kill at a point falls back to operation count 6 x its iteration
     * in a rank that has passed no point by then, so a program without checkpoint points crashes too.
     */
    /** How many communication operations {@link #chaos} assumes an iteration makes. */
    private static final int OPERATIONS_PER_ITERATION = 6;

    public static FailureSchedule chaos(long seed, int ranks, int span) {
        Random rnd = new Random(seed);
        int count = 1 + rnd.nextInt(3);
        List<Kill> kills = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int rank = rnd.nextInt(ranks);
            if (rnd.nextBoolean()) {
                int operations = Math.max(1, OPERATIONS_PER_ITERATION * span);
                kills.add(new Kill(rank, Trigger.OPERATION, 1 + rnd.nextInt(operations)));
                continue;
            }
            long iteration = 2 + rnd.nextInt(Math.max(1, span - 1));
            if (!kills.isEmpty() && kills.get(kills.size() - 1).trigger() == Trigger.ITERATION && rnd.nextInt(4) == 0) {
                iteration = kills.get(kills.size() - 1).value(); // concurrent with the previous one
            }
            kills.add(new Kill(rank, Trigger.ITERATION, iteration, OPERATIONS_PER_ITERATION * iteration));
        }
        return new FailureSchedule(kills);
    }

    @Override
    public String toString() {
        List<String> s = new ArrayList<>();
        for (Kill k : kills) {
            s.add(k.toString());
        }
        return String.join(",", s);
    }
}
