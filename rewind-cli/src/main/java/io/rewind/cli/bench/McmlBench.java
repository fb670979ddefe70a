package io.rewind.cli.bench;

import io.rewind.ft.ProtocolRegistry;
import io.rewind.ft.RollbackChains;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.ft.mcml.SwitchOffOrder;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.PointListener;
import io.rewind.runtime.RunReport;
import io.rewind.tools.mcml.Dendrogram;
import io.rewind.tools.profile.Traffic;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rewind bench mcml}: the MCML paper's Tables II and V on real runs. A failure-free {@code
 * causal} run without checkpoints (the log grows for the whole run) gives each workload's
 * unconstrained per-rank log peak and its communication profile; then {@code mcml} runs failure-free
 * with a quota of theta % of that peak under each switch-off order, and the channels it switched off
 * give, through {@link RollbackChains#rollbackSet}, the rollback set and chain of every possible single
 * failure. A few real kills per configuration check that the runtime rolls back exactly that set and
 * still prints the failure-free result.
 */
@Command(
        name = "mcml",
        mixinStandardHelpOptions = true,
        header = "Memory-constrained logging: log peaks, channels switched off and rollback sets.",
        description = {
            "For each workload, measures the per-rank log peak of causal logging without checkpoints,"
                    + " then runs mcml with a quota of theta %% of it under each switch-off order. Reports the "
                    + "measured log peak (at most the quota), the channels switched off, and the average "
                    + "rollback set and chain depth over every single failed rank, in %% of ranks; it kills a "
                    + "few ranks per configuration to check that the runtime rolls back that set. Writes "
                    + "mcml.json, mcml.csv and mcml.md."
        })
public final class McmlBench implements Callable<Integer> {
    @Option(names = "--workloads", defaultValue = "amr,cg", description = "Workloads. Default: ${DEFAULT-VALUE}.")
    String workloads;

    @Option(
            names = {"-n", "--ranks"},
            defaultValue = "16",
            description = "Ranks. Default: ${DEFAULT-VALUE}.")
    int ranks;

    @Option(
            names = "--thetas",
            defaultValue = "30,40,50,60,70",
            description = "Quotas in %% of the unconstrained per-rank log peak. Default: ${DEFAULT-VALUE}.")
    String thetas;

    @Option(
            names = "--strategies",
            defaultValue = "heaviest,dendrogram,communication",
            description = "Switch-off orders: heaviest, dendrogram (contiguous halves) and communication (the "
                    + "dendrogram of the profiled run, passed as dendrogram=PATHS). Default: ${DEFAULT-VALUE}.")
    String strategies;

    @Option(
            names = "--kills",
            defaultValue = "2",
            description =
                    "Single-failure runs per configuration that check the rollback set. Default: ${DEFAULT-VALUE}.")
    int kills;

    @Option(
            names = "--size",
            defaultValue = "small",
            description = "Problem size: " + BenchWorkload.SIZES + ". Default: ${DEFAULT-VALUE}.")
    String size;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the communication dendrogram.")
    long seed;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "300s",
            converter = io.rewind.cli.DurationConverter.class,
            description =
                    "How long a run may take, e.g. 90s or 10m (a bare number is seconds). Default: ${DEFAULT-VALUE}.")
    java.time.Duration timeout;

    @Option(names = "--out", defaultValue = "runs/mcml", description = "Output folder. Default: ${DEFAULT-VALUE}.")
    Path out;

    /** What a configuration's single failures would roll back, averaged over the failed rank. */
    record Rollbacks(double setPercent, double depthPercent, double setRanks, double depth) {}

    /** The average rollback set and chain depth over every single failed rank, as the runtime plans them. */
    static Rollbacks rollbacks(boolean[][] off) {
        int n = off.length;
        double set = 0;
        double depth = 0;
        for (int f = 0; f < n; f++) {
            RollbackChains.Chain c = RollbackChains.rollbackSet(Set.of(f), off);
            set += c.ranks().size();
            depth += c.depth();
        }
        return new Rollbacks(100 * set / n / n, 100 * depth / n / n, set / n, depth / n);
    }

    /** The off-matrix of a run record's {@code channelsSwitchedOff} (pairs source, destination). */
    static boolean[][] offMatrix(RunReport report) {
        boolean[][] off = new boolean[report.ranks()][report.ranks()];
        Object list = report.protocolRecord().get("channelsSwitchedOff");
        if (list instanceof List<?> pairs) {
            for (Object p : pairs) {
                int s;
                int d;
                if (p instanceof int[] a) {
                    s = a[0];
                    d = a[1];
                } else if (p instanceof List<?> l) {
                    s = ((Number) l.get(0)).intValue();
                    d = ((Number) l.get(1)).intValue();
                } else {
                    throw new IllegalStateException("unexpected channel " + p);
                }
                off[s][d] = true;
            }
        }
        return off;
    }

    /** A switch-off order: its name, the spec the job gets, what {@code --switch-off} takes. */
    private record Variant(String name, String spec, String option) {}

    @Override
    public Integer call() throws IOException {
        List<BenchWorkload> ws;
        BenchWorkload.Size sz;
        List<Integer> ts;
        List<String> strategyNames = new ArrayList<>();
        try {
            ws = BenchWorkload.parseList(workloads);
            sz = BenchWorkload.parseSize(size);
            ts = Harness.ints(thetas);
            for (String s : strategies.split(",")) {
                String name = s.trim().toLowerCase(Locale.ROOT);
                if (!List.of("heaviest", "dendrogram", "communication").contains(name)) {
                    throw new IllegalArgumentException(
                            "unknown strategy '" + s + "' (heaviest, dendrogram or communication)");
                }
                strategyNames.add(name);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("rewind bench mcml: " + e.getMessage());
            return 2;
        }
        if (ranks < 2 || kills < 0 || ts.stream().anyMatch(t -> t > 100)) {
            System.err.println("rewind bench mcml: at least 2 ranks, --kills at least 0, thetas at most 100");
            return 2;
        }
        Harness.Table t = table();
        int checked = 0;
        int mismatched = 0;
        for (BenchWorkload w : ws) {
            // Unconstrained: causal, no checkpoints, so every rank's log only grows; its peak is the base of
            // the quotas and its traffic the profile the communication dendrogram is built from.
            Harness.Run base =
                    new Harness.Run(w, sz, ranks, ProtocolRegistry.get("causal"), 0, 2, FailureSchedule.NONE, timeout);
            base.execute(); // warms the JVM up for this workload; not measured
            JobResult b = base.execute();
            String reference = Harness.resultLine(b, w.prefix());
            if (!b.ok() || reference == null) {
                System.err.print("rewind bench mcml: the causal run of " + w.cliName() + " failed\n  "
                        + base.commandLine() + "\n" + b.describeFailures());
                return 1;
            }
            long peak = b.report().logHighWaterBytes();
            int[][] paths = Dendrogram.fromCommunication(
                            ProfileBench.profileOf(b.report()).traffic(Traffic.P2P), seed)
                    .paths();
            // The dendrogram file, so that the command lines printed for a failing run can be repeated.
            Path dendrogramFile = out.resolve(w.cliName() + "-" + ranks + ".dendrogram");
            java.nio.file.Files.createDirectories(out);
            java.nio.file.Files.writeString(dendrogramFile, SwitchOffOrder.dendrogramText(paths));
            List<Variant> variants = new ArrayList<>();
            for (String s : strategyNames) {
                variants.add(
                        s.equals("communication")
                                ? new Variant(s, new SwitchOffOrder(paths).spec(), "dendrogram:" + dendrogramFile)
                                : new Variant(s, s, s));
            }
            System.err.printf(
                    Locale.ROOT,
                    "  %s n=%d causal: per-rank log peak %d bytes, %d logged; communication dendrogram %s%n",
                    w.cliName(),
                    ranks,
                    peak,
                    b.report().loggedBytes(),
                    new SwitchOffOrder(paths).spec());
            for (int theta : ts) {
                long quota = Math.max(1, peak * theta / 100);
                for (Variant v : variants) {
                    Harness.Run run = new Harness.Run(
                            w, sz, ranks, ProtocolRegistry.get("mcml"), 0, 2, FailureSchedule.NONE, timeout);
                    JobResult r = execute(run, quota, v.spec(), FailureSchedule.NONE);
                    String line = Harness.resultLine(r, w.prefix());
                    if (!r.ok() || !reference.equals(line)) {
                        System.err.print("rewind bench mcml: " + w.cliName() + " under mcml (theta " + theta + " %, "
                                + v.name() + ") failed or printed " + line + " against " + reference + "\n  "
                                + commandLine(run, quota, v, FailureSchedule.NONE) + "\n" + r.describeFailures());
                        return 1;
                    }
                    boolean[][] off = offMatrix(r.report());
                    Rollbacks rb = rollbacks(off);
                    long measured = r.report().logHighWaterBytes();
                    // Real kills: the ranks whose failure would drag in the most ranks, killed at the last
                    // point (every switch-off of the failure-free run has happened by then).
                    List<String> killResults = new ArrayList<>();
                    boolean allMatch = true;
                    for (int f : killTargets(off, kills)) {
                        Set<Integer> expected =
                                RollbackChains.rollbackSet(Set.of(f), off).ranks();
                        FailureSchedule kill = FailureSchedule.parse(f + "@" + w.iterations(sz), ranks);
                        JobResult k = execute(run, quota, v.spec(), kill);
                        String kLine = Harness.resultLine(k, w.prefix());
                        Set<Integer> rolled = k.report().failures().isEmpty()
                                ? Set.of()
                                : new TreeSet<>(k.report().failures().get(0).rolledBack());
                        boolean match = k.ok() && reference.equals(kLine) && expected.equals(rolled);
                        allMatch &= match;
                        checked++;
                        if (!match) {
                            mismatched++;
                            System.err.println("  mismatch: kill " + kill + " expected " + expected + " rolled back "
                                    + rolled + (k.ok() ? "" : " (run failed)") + ", output "
                                    + (reference.equals(kLine) ? "same" : kLine) + "\n    "
                                    + commandLine(run, quota, v, kill) + "\n    its switch-offs "
                                    + countOff(offMatrix(k.report())) + " channels, "
                                    + k.report().protocolRecord().get("rollbackSets") + "\n"
                                    + k.describeFailures());
                        }
                        killResults.add(f + ":" + rolled.size() + (match ? "" : "!"));
                    }
                    System.err.printf(
                            Locale.ROOT,
                            "  %s theta=%d%% %s: quota %d, peak %d, %d channels off, set %.1f%%, chain %.1f%%,"
                                    + " kills %s%n",
                            w.cliName(),
                            theta,
                            v.name(),
                            quota,
                            measured,
                            countOff(off),
                            rb.setPercent(),
                            rb.depthPercent(),
                            killResults);
                    t.add(
                            w.cliName(),
                            ranks,
                            theta,
                            v.name(),
                            quota,
                            peak,
                            measured,
                            measured <= quota ? "yes" : "NO",
                            countOff(off),
                            rb.setPercent(),
                            rb.setRanks(),
                            rb.depthPercent(),
                            rb.depth(),
                            killResults.isEmpty() ? "-" : String.join(" ", killResults),
                            killResults.isEmpty() ? "-" : allMatch ? "yes" : "NO");
                }
            }
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("size", sz.name().toLowerCase(Locale.ROOT));
        settings.put("checkpoint_every", 0);
        settings.put("kills_per_configuration", kills);
        settings.put("kills_checked", checked);
        settings.put("kills_mismatched", mismatched);
        settings.put("seed", seed);
        settings.put("cores", Runtime.getRuntime().availableProcessors());
        t.write(out, "mcml", command(), settings);
        System.out.print(t.markdown());
        System.out.printf(
                "kill check: %d single failures, %d rolled back the computed set and printed the failure-free result%n",
                checked, checked - mismatched);
        System.out.println("wrote mcml.json, mcml.csv and mcml.md in " + out);
        return mismatched == 0 ? 0 : 1;
    }

    private static JobResult execute(Harness.Run run, long quota, String spec, FailureSchedule failures) {
        JobConfig.Builder b = run.builder(PointListener.NONE)
                .failures(failures)
                .payloadLog(PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                        .quotaBytes(quota)
                        .build())
                .option("--switch-off", spec);
        return io.rewind.runtime.Job.run(b.build());
    }

    /**
     * Up to {@code count} ranks to kill: those with the largest rollback sets first (the chains are what
     * needs checking), then a rank whose failure rolls back only itself, if any.
     */
    static List<Integer> killTargets(boolean[][] off, int count) {
        int n = off.length;
        List<Integer> byDrag = new ArrayList<>();
        for (int f = 0; f < n; f++) {
            byDrag.add(f);
        }
        byDrag.sort((a, c) -> Integer.compare(
                RollbackChains.rollbackSet(Set.of(c), off).ranks().size(),
                RollbackChains.rollbackSet(Set.of(a), off).ranks().size()));
        List<Integer> out = new ArrayList<>(byDrag.subList(0, Math.min(count, n)));
        if (out.size() >= 2 && !out.contains(byDrag.get(n - 1))) {
            out.set(out.size() - 1, byDrag.get(n - 1));
        }
        return out;
    }

    private static int countOff(boolean[][] off) {
        int c = 0;
        for (boolean[] row : off) {
            for (boolean b : row) {
                c += b ? 1 : 0;
            }
        }
        return c;
    }

    /** The {@code rewind run} command that repeats a run; its options go before the main class. */
    private String commandLine(Harness.Run run, long quota, Variant v, FailureSchedule kill) {
        String c = run.commandLine();
        int at = c.indexOf(" " + run.workload().mainClass());
        return c.substring(0, at) + " --log-quota " + quota + " --switch-off " + v.option()
                + (kill.isEmpty() ? "" : " --kill " + kill) + c.substring(at);
    }

    private String command() {
        return "rewind bench mcml --workloads " + workloads + " -n " + ranks + " --thetas " + thetas + " --strategies "
                + strategies + " --kills " + kills + " --size " + size + " --seed " + seed;
    }

    private static Harness.Table table() {
        return new Harness.Table(
                "workload",
                "workload",
                0,
                "ranks",
                "ranks",
                0,
                "theta",
                "theta %",
                0,
                "strategy",
                "switch-off",
                0,
                "quota_bytes",
                "quota bytes",
                0,
                "unconstrained_peak_bytes",
                "causal peak bytes",
                0,
                "peak_bytes",
                "mcml peak bytes (max rank)",
                0,
                "within_quota",
                "peak <= quota",
                0,
                "channels_off",
                "channels off",
                0,
                "rollback_set_pct",
                "rollback set % of ranks",
                1,
                "rollback_set_ranks",
                "rollback set ranks",
                2,
                "chain_depth_pct",
                "chain depth % of ranks",
                1,
                "chain_depth",
                "chain depth",
                2,
                "kills",
                "kills rank:rolled back",
                0,
                "kills_match",
                "kills match",
                0);
    }
}
