package io.rewind.apps.sweep;

import io.rewind.apps.crossing.CrossingMix;
import io.rewind.apps.crossing.LateReceivePair;
import io.rewind.apps.crossing.PipelineRing;
import io.rewind.runtime.FailureSchedule;
import java.util.List;
import java.util.Random;

/**
 * Draws the campaign's runs from its seed. Run {@code i} is drawn from a seed of its own, made from the
 * campaign's seed and {@code i}, so that a campaign draws the same runs in the same order whatever its
 * workers do, and one run is drawn again without the ones before it.
 *
 * <p>A run's program is drawn first (a third of the runs take the program of an earlier run, so the
 * reference runs are shared); its kills come from the program's failure-free run (the operation count
 * each rank reached and how long it took), which the caller supplies. Protocols take turns.
 */
final class RunDrawer {
    /** Whether runs as threads have delivery jitter. */
    enum JitterMode {
        ON,
        OFF,
        /** Drawn per run, half and half. */
        MIXED
    }

    /** A plain program and the arguments it runs with (iterations first): short runs, many operations. */
    private record Plain(String name, List<String> args) {}

    private static final List<Plain> PLAIN = List.of(
            new Plain("CollectiveTour", List.of("10", "2000")),
            new Plain("RequestTour", List.of("10", "2000")),
            new Plain("ProbeTour", List.of("8", "2000", "40000")),
            new Plain("ThreadTour", List.of("10", "2000")),
            new Plain("CatchingTour", List.of("20", "2000")),
            new Plain("CommunicatorTour", List.of("6", "2000")),
            new Plain("VectorTour", List.of("6", "2000")),
            new Plain("DatatypeTour", List.of("8", "2000")));

    private final long campaignSeed;
    private final List<String> protocols;
    private final int processesEvery;
    private final JitterMode jitter;
    private final int jitterMicros;

    /**
     * @param protocols      taken in turn, run after run
     * @param processesEvery one run in this many, drawn, runs its ranks as processes (0: none)
     * @param jitterMicros   the delivery jitter of a run that has it
     */
    RunDrawer(long campaignSeed, List<String> protocols, int processesEvery, JitterMode jitter, int jitterMicros) {
        if (protocols.isEmpty()) {
            throw new IllegalArgumentException("no protocol to draw from");
        }
        this.campaignSeed = campaignSeed;
        this.protocols = List.copyOf(protocols);
        this.processesEvery = processesEvery;
        this.jitter = jitter;
        this.jitterMicros = jitterMicros;
    }

    /** The seed run {@code index} is drawn from (a 64-bit mix, so that nearby indices draw unrelated runs). */
    long runSeed(int index) {
        long z = campaignSeed + 0x9E3779B97F4A7C15L * (index + 1L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The program of run {@code index}: one of its own, or an earlier run's. */
    Program program(int index) {
        int i = index;
        while (true) {
            Random rnd = new Random(runSeed(i));
            if (i > 0 && rnd.nextInt(3) == 0) {
                i = rnd.nextInt(i);
                continue;
            }
            return freshProgram(rnd);
        }
    }

    private static Program freshProgram(Random rnd) {
        int x = rnd.nextInt(10);
        int ranks = 2 + rnd.nextInt(4);
        long seed = 1 + rnd.nextInt(1_000_000);
        if (x < 4) {
            return Program.random(seed, 5 + rnd.nextInt(46), ranks);
        }
        if (x < 8) {
            return Program.randomAcrossLines(seed, 10 + rnd.nextInt(31), ranks, 2 + rnd.nextInt(4));
        }
        if (x == 8) {
            Plain p = PLAIN.get(rnd.nextInt(PLAIN.size()));
            return new Program(Program.Kind.PLAIN, "io.rewind.apps.plain." + p.name(), p.args(), ranks, 0);
        }
        // The crossing programs with the arguments and intervals of their oracle: lines every few
        // iterations with messages in flight across them.
        return switch (rnd.nextInt(3)) {
            case 0 -> new Program(
                    Program.Kind.CROSSING, LateReceivePair.class.getName(), List.of("40", "2048", "2", "12"), 2, 5);
            case 1 -> new Program(
                    Program.Kind.CROSSING, PipelineRing.class.getName(), List.of("40", "4", "12"), ranks, 4);
            default -> new Program(
                    Program.Kind.CROSSING,
                    CrossingMix.class.getName(),
                    List.of("32", Integer.toString(160 << 10), "12"),
                    ranks,
                    3);
        };
    }

    /**
     * Run {@code index} of program {@link #program(int) program(index)}, whose failure-free run made
     * {@code ops} operations per rank in {@code referenceMillis}.
     */
    RunSpec draw(int index, long[] ops, long referenceMillis) {
        Program program = program(index);
        // Apart from the program's draw: the same program drawn by two runs gets kills of its own in each.
        Random rnd = new Random(runSeed(index) * 31 + 17);
        String protocol = protocols.get(index % protocols.size());
        RunSpec.Launcher launcher = processesEvery > 0 && rnd.nextInt(processesEvery) == 0
                ? RunSpec.Launcher.PROCESSES
                : RunSpec.Launcher.THREADS;
        boolean jittered =
                switch (jitter) {
                    case ON -> true;
                    case OFF -> false;
                    case MIXED -> rnd.nextBoolean();
                };
        int micros = jittered && launcher == RunSpec.Launcher.THREADS ? jitterMicros : 0;
        KillDrawer.Kind kind = KillDrawer.Kind.draw(rnd);
        FailureSchedule kills = KillDrawer.draw(kind, rnd, program, ops, referenceMillis);
        return new RunSpec(index, runSeed(index), program, protocol, kills, kind, launcher, micros);
    }
}
