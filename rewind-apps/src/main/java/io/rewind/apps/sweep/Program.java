package io.rewind.apps.sweep;

import io.rewind.apps.random.RandomSpmd;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A program the campaign runs: its main class, arguments and ranks, and the checkpoint interval its
 * runs take (0: none). Two runs of one program share its failure-free reference run.
 */
record Program(Kind kind, String mainClass, List<String> args, int ranks, int checkpointEvery) {
    /** What kind of program, which sets its time limits and how its steps are counted. */
    enum Kind {
        /** {@code RandomSpmd SEED STEPS}: no checkpoints, no points. */
        RANDOM("random"),
        /** {@code RandomSpmd SEED STEPS lines}: a point every step, messages that cross the lines. */
        RANDOM_LINES("random-lines"),
        /** One of {@code io.rewind.apps.plain}: plain mpi, no checkpoint API. */
        PLAIN("plain"),
        /** One of {@code io.rewind.apps.crossing}: checkpoints with messages in flight across them. */
        CROSSING("crossing");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    Program {
        args = List.copyOf(args);
        if (ranks < 1) {
            throw new IllegalArgumentException("a program needs a rank, was " + ranks);
        }
    }

    static Program random(long seed, int steps, int ranks) {
        return new Program(
                Kind.RANDOM,
                RandomSpmd.class.getName(),
                List.of(Long.toString(seed), Integer.toString(steps)),
                ranks,
                0);
    }

    static Program randomAcrossLines(long seed, int steps, int ranks, int every) {
        return new Program(
                Kind.RANDOM_LINES,
                RandomSpmd.class.getName(),
                List.of(Long.toString(seed), Integer.toString(steps), "lines"),
                ranks,
                every);
    }

    /** Whether the program calls {@code Checkpointer.point()}, so that kills at points land there. */
    boolean hasPoints() {
        return kind == Kind.RANDOM_LINES || kind == Kind.CROSSING;
    }

    /**
     * The iterations a kill at a point may name: steps of a random program, the first argument
     * (iterations) of the others.
     */
    int steps() {
        return Integer.parseInt(args.get(kind == Kind.RANDOM || kind == Kind.RANDOM_LINES ? 1 : 0));
    }

    /** The same program with fewer steps (what the minimiser tries), only for random programs. */
    Program withSteps(int steps) {
        if (kind != Kind.RANDOM && kind != Kind.RANDOM_LINES) {
            throw new IllegalStateException(this + " has no step count to change");
        }
        List<String> a = new ArrayList<>(args);
        a.set(1, Integer.toString(steps));
        return new Program(kind, mainClass, a, ranks, checkpointEvery);
    }

    /** Whether {@link #withSteps} applies. */
    boolean canShorten() {
        return kind == Kind.RANDOM || kind == Kind.RANDOM_LINES;
    }

    /**
     * Per run as threads. Random programs with lines end in a few seconds; a rank that polls for a
     * lost message keeps making operations, which the stall watch takes for progress, so only this
     * limit ends such a run (as in the random-program oracle).
     */
    Duration limit() {
        return kind == Kind.RANDOM_LINES ? Duration.ofSeconds(30) : Duration.ofSeconds(60);
    }

    /** None of these programs waits inside MPI this long without another rank making progress. */
    Duration stall() {
        return Duration.ofSeconds(10);
    }

    /** The simple name and arguments, as on a command line. */
    String shortName() {
        return mainClass.substring(mainClass.lastIndexOf('.') + 1)
                + (args.isEmpty() ? "" : " " + String.join(" ", args));
    }

    @Override
    public String toString() {
        return shortName() + " on " + ranks + " ranks"
                + (checkpointEvery > 0 ? ", checkpoint every " + checkpointEvery : "");
    }
}
