package io.rewind.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The workloads the harness knows, by short name, each at three sizes: {@code small} (seconds for a
 * whole sweep, what CI runs), {@code medium} (the figures in docs/benchmarks.md) and {@code large}
 * ({@code medium} with {@value #LARGE_FACTOR} times its iterations: spans long enough that a restarted
 * rank's cold code and the machine's noise weigh little in what a recovery measures). Every
 * workload prints one result line starting with {@link #prefix()} and calls
 * {@code Checkpointer.point()} exactly {@code iterations} times.
 */
enum BenchWorkload {
    STENCIL3D(
            "io.rewind.apps.workloads.Stencil3D",
            "stencil3d",
            "Himeno-like 3-D Jacobi: halo planes + allReduce",
            new String[] {"16", "24"},
            24,
            new String[] {"64", "150"},
            150,
            1),
    CG(
            "io.rewind.apps.workloads.ConjugateGradient",
            "cg",
            "NPB-CG-like sparse CG on a 2-D process grid",
            new String[] {"600", "5", "24"},
            24,
            new String[] {"12000", "8", "100"},
            100,
            2),
    HEAT(
            "io.rewind.apps.workloads.HeatCG",
            "heat",
            "TeaLeaf-like implicit heat, CG per step",
            new String[] {"32", "32", "24", "100"},
            24,
            new String[] {"96", "96", "40", "200"},
            40,
            2),
    AMR(
            "io.rewind.apps.workloads.AmrHalo",
            "amr",
            "MiniAMR-like refined halo exchange (uneven)",
            new String[] {"24", "8", "8", "2", "3", "2"},
            24,
            new String[] {"60", "8", "8", "8", "3", "4"},
            60,
            0),
    BFS(
            "io.rewind.apps.workloads.GraphBfs",
            "bfs",
            "Graph500-like BFS on a Kronecker graph",
            new String[] {"9", "8", "12"},
            12,
            new String[] {"13", "16", "24"},
            24,
            2),
    DISCOVERY(
            "io.rewind.apps.workloads.Discovery",
            "discovery",
            "SPBC fig. 4: iProbe(ANY_SOURCE), replies, testAll",
            new String[] {"24", "3"},
            24,
            new String[] {"200", "4"},
            200,
            0),
    MONTECARLO(
            "io.rewind.apps.workloads.MonteCarlo",
            "montecarlo",
            "SPhot-like: tallies to the root, barriers",
            new String[] {"24", "8", "200"},
            24,
            new String[] {"60", "32", "3000"},
            60,
            0),
    MASTERWORKER(
            "io.rewind.apps.workloads.MasterWorker",
            "masterworker",
            "ANY_SOURCE master-worker schedule",
            new String[] {"24", "200"},
            24,
            new String[] {"200", "100000"},
            200,
            0);

    /**
     * Problem sizes. {@code large} and {@code huge} are the medium problem run for more iterations:
     * {@code huge} runs 5-20 s for 8 rank threads on 2 cores, so that more of a run lies past the
     * compiler's work on every rank's copy of the program (not all of it, for every workload).
     */
    enum Size {
        SMALL(0),
        MEDIUM(1),
        LARGE(LARGE_FACTOR),
        HUGE(HUGE_FACTOR);

        /** How many times a medium run's iterations this size makes (0: its own small problem). */
        final int mediumFactor;

        Size(int mediumFactor) {
            this.mediumFactor = mediumFactor;
        }
    }

    /** How many times a medium run's iterations a large run makes. */
    static final int LARGE_FACTOR = 6;
    /** How many times a medium run's iterations a huge run makes. */
    static final int HUGE_FACTOR = 30;

    /** The sizes, as the benches' help texts name them. */
    static final String SIZES = "small, medium, large or huge (medium with " + LARGE_FACTOR + " or " + HUGE_FACTOR
            + " times its iterations)";

    private final String mainClass;
    private final String prefix;
    private final String pattern;
    private final String[] smallArgs;
    private final int smallIterations;
    private final String[] mediumArgs;
    private final int mediumIterations;
    /** Which argument is the iteration count (what {@link Size#LARGE} and {@link Size#HUGE} multiply). */
    private final int iterationArg;

    BenchWorkload(
            String mainClass,
            String prefix,
            String pattern,
            String[] smallArgs,
            int smallIterations,
            String[] mediumArgs,
            int mediumIterations,
            int iterationArg) {
        this.mainClass = mainClass;
        this.prefix = prefix;
        this.pattern = pattern;
        this.smallArgs = smallArgs;
        this.smallIterations = smallIterations;
        this.mediumArgs = mediumArgs;
        this.mediumIterations = mediumIterations;
        this.iterationArg = iterationArg;
        if (!mediumArgs[iterationArg].equals(Integer.toString(mediumIterations))) {
            throw new IllegalStateException(name() + ": argument " + iterationArg + " is not the iteration count");
        }
    }

    String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    String mainClass() {
        return mainClass;
    }

    String prefix() {
        return prefix;
    }

    String pattern() {
        return pattern;
    }

    List<String> args(Size size) {
        if (size == Size.SMALL) {
            return List.of(smallArgs);
        }
        String[] a = mediumArgs.clone();
        a[iterationArg] = Integer.toString(iterations(size));
        return List.of(a);
    }

    int iterations(Size size) {
        return size == Size.SMALL ? smallIterations : mediumIterations * size.mediumFactor;
    }

    /** The smallest rank count the workload accepts. */
    int minRanks() {
        return this == MASTERWORKER ? 2 : 1;
    }

    /** Parses a comma-separated list of names, or {@code all}. */
    static List<BenchWorkload> parseList(String spec) {
        List<BenchWorkload> out = new ArrayList<>();
        for (String s : spec.split(",")) {
            String name = s.trim().toLowerCase(Locale.ROOT);
            if (name.equals("all")) {
                out.addAll(List.of(values()));
                continue;
            }
            out.add(byName(name));
        }
        return out;
    }

    static BenchWorkload byName(String name) {
        for (BenchWorkload w : values()) {
            if (w.cliName().equals(name.trim().toLowerCase(Locale.ROOT))) {
                return w;
            }
        }
        List<String> names = new ArrayList<>();
        for (BenchWorkload w : values()) {
            names.add(w.cliName());
        }
        throw new IllegalArgumentException(
                "unknown workload '" + name + "' (use " + String.join(", ", names) + " or all)");
    }

    static Size parseSize(String s) {
        try {
            return Size.valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown size '" + s + "' (use " + SIZES + ")");
        }
    }
}
