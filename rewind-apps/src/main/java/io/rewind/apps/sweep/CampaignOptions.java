package io.rewind.apps.sweep;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The campaign's command line. Every option has a default; a bad one is refused with one line that
 * names it ({@link IllegalArgumentException}).
 *
 * @param seed           null: drawn fresh when the campaign starts
 * @param processesEvery one run in this many runs its ranks as processes (0: none)
 * @param jitterMicros   the delivery jitter of a run that has it, in microseconds
 * @param minimise       how many failures are minimised (the others are reported as they failed)
 */
record CampaignOptions(
        Duration duration,
        int workers,
        Long seed,
        int processesEvery,
        RunDrawer.JitterMode jitter,
        int jitterMicros,
        Path out,
        int minimise) {
    static final String USAGE =
            """
            Usage: Campaign [options]
            Draws run after run (a random or hand-written program, 2 to 5 ranks, a recovering protocol,
            kills, threads or processes, delivery jitter on or off), compares each with its failure-free
            run bit for bit, and minimises every failure to a small reproduction.

              --minutes M            how long to draw new runs (default 10; fractions allowed)
              --workers W            runs at once in this JVM (default 2)
              --seed S               the campaign's seed (default: drawn from the time, and printed)
              --processes-every K    one run in K, drawn, runs its ranks as processes (default 10; 0: never)
              --jitter on|off|mixed  delivery jitter of runs as threads (default mixed: half of them)
              --jitter-micros U      the longest delay jitter makes (default 200)
              --minimise N           failures minimised (default 5; the rest are reported as they failed)
              --out DIR              where the report goes (default target/sweep)
              --help                 this text

            Exit status: 0 when every run matched its failure-free run, 1 when any failed, 2 for bad options.
            """;

    CampaignOptions {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("--minutes must be more than 0");
        }
        if (workers < 1 || workers > 64) {
            throw new IllegalArgumentException("--workers must be from 1 to 64, was " + workers);
        }
        if (processesEvery < 0) {
            throw new IllegalArgumentException("--processes-every must be 0 or more, was " + processesEvery);
        }
        if (jitterMicros < 1) {
            throw new IllegalArgumentException("--jitter-micros must be 1 or more, was " + jitterMicros);
        }
        if (minimise < 0) {
            throw new IllegalArgumentException("--minimise must be 0 or more, was " + minimise);
        }
    }

    static CampaignOptions defaults() {
        return new CampaignOptions(
                Duration.ofMinutes(10), 2, null, 10, RunDrawer.JitterMode.MIXED, 200, Path.of("target", "sweep"), 5);
    }

    /**
     * Parses {@code args}; null when {@code --help} was asked for.
     *
     * @throws IllegalArgumentException with a one-line message for an unknown option or a bad value
     */
    static CampaignOptions parse(String... args) {
        CampaignOptions o = defaults();
        Duration duration = o.duration;
        int workers = o.workers;
        Long seed = o.seed;
        int processesEvery = o.processesEvery;
        RunDrawer.JitterMode jitter = o.jitter;
        int jitterMicros = o.jitterMicros;
        Path out = o.out;
        int minimise = o.minimise;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                return null;
            }
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + a + "' (see --help)");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value (see --help)");
            }
            String v = args[++i];
            switch (a) {
                case "--minutes" -> {
                    double m = number(a, v);
                    if (!(m > 0) || m > 7 * 24 * 60) {
                        throw new IllegalArgumentException(
                                "--minutes must be more than 0 and at most a week, was " + v);
                    }
                    duration = Duration.ofMillis(Math.round(m * 60_000));
                }
                case "--workers" -> workers = integer(a, v);
                case "--seed" -> {
                    try {
                        seed = Long.decode(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--seed must be a whole number, was '" + v + "'");
                    }
                }
                case "--processes-every" -> processesEvery = integer(a, v);
                case "--jitter" -> jitter = switch (v) {
                    case "on" -> RunDrawer.JitterMode.ON;
                    case "off" -> RunDrawer.JitterMode.OFF;
                    case "mixed" -> RunDrawer.JitterMode.MIXED;
                    default -> throw new IllegalArgumentException("--jitter must be on, off or mixed, was '" + v + "'");
                };
                case "--jitter-micros" -> jitterMicros = integer(a, v);
                case "--minimise" -> minimise = integer(a, v);
                case "--out" -> out = Path.of(v);
                default -> throw new IllegalArgumentException("unknown option " + a + " (see --help)");
            }
        }
        return new CampaignOptions(duration, workers, seed, processesEvery, jitter, jitterMicros, out, minimise);
    }

    private static int integer(String option, String v) {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number, was '" + v + "'");
        }
    }

    private static double number(String option, String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a number, was '" + v + "'");
        }
    }
}
