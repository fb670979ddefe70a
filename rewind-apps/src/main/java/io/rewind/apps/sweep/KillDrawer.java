package io.rewind.apps.sweep;

import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.FailureSchedule.Kill;
import io.rewind.runtime.FailureSchedule.Trigger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Draws a run's kills from the failure-free run's operation counts: the recovery oracle's three kinds
 * (as {@code RecoveryCheck.schedules} draws them), a group killed at one operation count (as the
 * random-program oracle's {@code killedTogether}), {@code --chaos} schedules, and kills at drawn times.
 * Every kill it returns is one {@code --kill} can name, so a run is reproduced from its command line.
 */
public final class KillDrawer {
    /** How a schedule was drawn. */
    enum Kind {
        /** One rank at an operation count. */
        SINGLE("single", 2),
        /** Two ranks at the same point of their runs (the same share of their operations): one recovery for both. */
        TWO_AT_ONCE("two-at-once", 2),
        /** One rank twice, the second time in the incarnation that replaced it. */
        TWICE("twice", 2),
        /** Two ranks or more, up to every rank, at one operation count: they restart as a group. */
        TOGETHER("together", 2),
        /** {@code FailureSchedule.chaos}: one to three kills at points or operation counts. */
        CHAOS("chaos", 1),
        /** One to three kills at drawn times, wherever the run happens to be then. */
        TIME("time", 1);

        final String label;
        /** How often it is drawn against the others. */
        final int weight;

        Kind(String label, int weight) {
            this.label = label;
            this.weight = weight;
        }

        static Kind draw(Random rnd) {
            int total = 0;
            for (Kind k : values()) {
                total += k.weight;
            }
            int x = rnd.nextInt(total);
            for (Kind k : values()) {
                x -= k.weight;
                if (x < 0) {
                    return k;
                }
            }
            throw new AssertionError();
        }
    }

    /** The earliest time kill, in milliseconds: before it, the ranks are still starting. */
    static final long EARLIEST_MILLIS = 20;

    private KillDrawer() {}

    /**
     * A schedule of {@code kind} for {@code program}, whose failure-free run made {@code ops}
     * operations per rank and took {@code referenceMillis}.
     */
    static FailureSchedule draw(Kind kind, Random rnd, Program program, long[] ops, long referenceMillis) {
        int n = ops.length;
        List<Kill> kills = new ArrayList<>();
        switch (kind) {
            case SINGLE -> {
                int rank = rnd.nextInt(n);
                kills.add(atOperation(rank, pick(rnd, ops[rank])));
            }
            case TWO_AT_ONCE -> {
                int rank = rnd.nextInt(n);
                long at = pick(rnd, ops[rank]);
                kills.add(atOperation(rank, at));
                if (n > 1) {
                    int other = (rank + 1 + rnd.nextInt(n - 1)) % n;
                    double fraction = (double) at / Math.max(1, ops[rank]);
                    kills.add(atOperation(other, Math.max(1, Math.round(fraction * ops[other]))));
                }
            }
            case TWICE -> {
                int rank = rnd.nextInt(n);
                long at = pick(rnd, ops[rank]);
                kills.add(atOperation(rank, at));
                kills.add(atOperation(rank, pick(rnd, at)));
            }
            case TOGETHER -> kills.addAll(together(rnd, ops));
            case CHAOS -> {
                FailureSchedule chaos = FailureSchedule.chaos(rnd.nextLong(), n, Math.max(2, program.steps()));
                for (Kill k : chaos.kills()) {
                    kills.add(nameable(k, program.hasPoints()));
                }
            }
            case TIME -> {
                int count = 1 + rnd.nextInt(3);
                long span = Math.max(EARLIEST_MILLIS + 1, referenceMillis);
                for (int i = 0; i < count; i++) {
                    long at = EARLIEST_MILLIS + (long) (rnd.nextDouble() * (span - EARLIEST_MILLIS));
                    kills.add(new Kill(rnd.nextInt(n), Trigger.TIME, at));
                }
            }
        }
        return new FailureSchedule(kills);
    }

    /**
     * Two ranks or more, drawn, at one operation count below the fewest any of them made ({@code ops}:
     * each rank's operations in the failure-free run). The oracle's tests draw their groups here too.
     */
    public static List<Kill> together(Random rnd, long[] ops) {
        int n = ops.length;
        if (n < 2) {
            return List.of(atOperation(0, pick(rnd, ops[0])));
        }
        int size = 2 + rnd.nextInt(n - 1);
        List<Integer> ranks = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            ranks.add(r);
        }
        Collections.shuffle(ranks, rnd);
        long fewest = Long.MAX_VALUE;
        for (int r : ranks.subList(0, size)) {
            fewest = Math.min(fewest, ops[r]);
        }
        long at = fewest <= 1 ? 1 : 1 + (long) (rnd.nextDouble() * (fewest - 1));
        List<Kill> kills = new ArrayList<>();
        for (int r : ranks.subList(0, size)) {
            kills.add(atOperation(r, at));
        }
        return kills;
    }

    /**
     * A chaos kill as {@code --kill} names it: a kill at a point strikes at its fallback operation count
     * in a program without points, so that is where it is put; in a program with points, at the point.
     */
    static Kill nameable(Kill k, boolean hasPoints) {
        if (k.fallbackOperation() == 0) {
            return k;
        }
        return hasPoints ? new Kill(k.rank(), k.trigger(), k.value()) : atOperation(k.rank(), k.fallbackOperation());
    }

    private static Kill atOperation(int rank, long at) {
        return new Kill(rank, Trigger.OPERATION, at);
    }

    /** An operation count in [1, max] (1 if the rank made none). */
    private static long pick(Random rnd, long max) {
        return max <= 1 ? 1 : 1 + (long) (rnd.nextDouble() * max);
    }
}
