package io.rewind.runtime.rank;

import io.rewind.runtime.InputRouter;
import io.rewind.runtime.OutputRouter;
import io.rewind.runtime.RankOutcome;

/** One rank across its incarnations: where it prints and reads, and its incarnation now. */
public final class RankSlot {
    private final int rank;
    private final OutputRouter.RankOutput output;
    private final InputRouter.RankInput input;
    private volatile Incarnation current;
    /** How its program ended, as the rank saw it (a thread host's coordinator keeps the job's view). */
    private volatile RankOutcome outcome;

    public RankSlot(int rank, OutputRouter.RankOutput output, InputRouter.RankInput input) {
        this.rank = rank;
        this.output = output;
        this.input = input;
    }

    public int rank() {
        return rank;
    }

    public OutputRouter.RankOutput output() {
        return output;
    }

    public InputRouter.RankInput input() {
        return input;
    }

    /** Its newest incarnation (null before the first is prepared). */
    public Incarnation current() {
        return current;
    }

    void current(Incarnation inc) {
        current = inc;
    }

    /** How its newest incarnation's program ended (null: it has not, or it crashed). */
    public RankOutcome outcome() {
        return outcome;
    }

    void outcome(RankOutcome o) {
        outcome = o;
    }
}
