package io.rewind.cli.bench;

import io.rewind.ft.ClusterLayout;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.ft.logger.LoggerConfig;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.PointListener;
import io.rewind.tools.cluster.ClusterFile;
import io.rewind.tools.cluster.ClusterRequest;
import io.rewind.tools.cluster.Clusterer;
import io.rewind.tools.cluster.Clustering;
import io.rewind.tools.profile.Traffic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rewind bench loggers}: figure 1 of "Addressing the last roadblock for message logging in
 * HPC", the failure-free cost of keeping every rank's payload log under a quota by dumping its oldest
 * part to logger nodes. Each workload runs under {@code pessimistic} on every channel and under
 * {@code spbc} with the clusters the clustering tool cuts from a profile of that workload; each with
 * 1, 2, 4... loggers against the same configuration without loggers (the log only grows).
 *
 * <p>The comparison is of whole runs, one after the other (baseline, dumping, baseline, dumping...,
 * the order swapped every repetition), and each dumping run is divided by the baseline run next to
 * it: the per-pair ratios' median and quartiles are reported. The turn-taking of {@code bench overhead
 * --paired} is not used here: a logger copies dumps on its own thread, which would go on copying
 * during the other job's turn and charge the dumping run's cost to its baseline.
 *
 * <p>No checkpoints are taken, so nothing but dumping keeps a log small; the quota is by default a
 * fraction of the smallest per-rank log a baseline run grows, so that every rank that logs dumps.
 */
@Command(
        name = "loggers",
        mixinStandardHelpOptions = true,
        header = "Cost of logger nodes against the same runs without them.",
        description = {
            "Runs workloads x clustering (none: pessimistic; clustered: spbc) x logger counts, each "
                    + "dumping run against the same configuration without loggers, in interleaved pairs. "
                    + "Reports the median and quartiles of the per-pair wall-time ratios, the dumps, the bytes "
                    + "dumped, the blocking waits, the ranks that dumped and the peak log against the quota. "
                    + "Writes loggers.json, loggers.csv and loggers.md (and cluster files) into --out."
        })
public final class LoggersBench implements Callable<Integer> {
    @Option(
            names = "--workloads",
            defaultValue = "stencil3d,cg,amr,bfs",
            description = "Comma-separated workloads, or all (as bench overhead). Default: ${DEFAULT-VALUE}.")
    String workloads;

    @Option(
            names = {"-n", "--ranks"},
            defaultValue = "16",
            description = "Ranks of every job. Default: ${DEFAULT-VALUE}.")
    int ranks;

    @Option(
            names = "--loggers",
            defaultValue = "1,2,4",
            description = "Comma-separated logger counts. Default: ${DEFAULT-VALUE}.")
    String loggerCounts;

    @Option(
            names = "--clustering",
            defaultValue = "none,clustered",
            description = "none (pessimistic on every channel), clustered (spbc), or both. Default: ${DEFAULT-VALUE}.")
    String clusterings;

    @Option(
            names = {"-k", "--clusters"},
            defaultValue = "4",
            description = "Clusters of the clustered runs. Default: ${DEFAULT-VALUE}.")
    int clusters;

    @Option(
            names = "--blocks",
            description = "Clustered runs use K blocks of contiguous ranks instead of the clustering tool's "
                    + "min-cut of a profile of the workload.")
    boolean blocks;

    @Option(
            names = "--quota",
            description = "Log quota of every rank (e.g. 256KiB). Default: --quota-fraction of the smallest "
                    + "per-rank log of a baseline run of the same configuration (among ranks that log at least 1 percent "
                    + "of the largest).")
    String quota;

    @Option(
            names = "--quota-fraction",
            defaultValue = "0.25",
            description = "The quota as a share of the smallest per-rank log growth, when --quota is not given. "
                    + "Default: ${DEFAULT-VALUE}.")
    double quotaFraction;

    @Option(names = "--repeat", defaultValue = "3", description = "Pairs per variant. Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Option(
            names = "--size",
            defaultValue = "small",
            description = BenchWorkload.SIZES + ". Default: ${DEFAULT-VALUE}.")
    String size;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "600s",
            converter = io.rewind.cli.DurationConverter.class,
            description =
                    "How long a run may take, e.g. 90s or 10m (a bare number is seconds). Default: ${DEFAULT-VALUE}.")
    java.time.Duration timeout;

    @Option(names = "--out", defaultValue = "runs/loggers", description = "Output folder. Default: ${DEFAULT-VALUE}.")
    Path out;

    /** One configuration of a workload: its protocol and clusters, and the quota its dumping runs get. */
    private record Config(
            BenchWorkload workload, String clustering, Harness.Run run, long quotaBytes, int loggingRanks) {}

    /** What the dumping runs of one configuration and logger count did. */
    private static final class Sample {
        final List<Double> ratios = new ArrayList<>();
        final List<Double> baseSeconds = new ArrayList<>();
        final List<Double> dumpSeconds = new ArrayList<>();
        DumpTotals last;
    }

    /**
     * The loggerNodes part of one run record, summed over ranks.
     *
     * @param ranksDumped ranks that dumped (or stored directly) at least once
     * @param peakLogBytes the largest peak log of any rank
     */
    record DumpTotals(
            long dumps,
            long dumpedBytes,
            long blockingWaits,
            double blockedMillis,
            int ranksDumped,
            long peakLogBytes,
            long quotaBytes) {

        @SuppressWarnings("unchecked")
        static DumpTotals of(Map<String, Object> protocolRecord) {
            Object nodes = protocolRecord.get("loggerNodes");
            if (!(nodes instanceof Map<?, ?> m)) {
                throw new IllegalStateException("the run record has no loggerNodes");
            }
            long dumps = 0;
            long bytes = 0;
            long waits = 0;
            double blocked = 0;
            int dumped = 0;
            long peak = 0;
            for (Map<String, Object> r : (List<Map<String, Object>>) m.get("dumpsPerRank")) {
                long d = number(r, "dumps");
                dumps += d;
                bytes += number(r, "dumpedBytes");
                waits += number(r, "blockingWaits");
                blocked += ((Number) r.get("blockedMillis")).doubleValue();
                peak = Math.max(peak, number(r, "peakLogBytes"));
                if (d > 0 || number(r, "directStores") > 0) {
                    dumped++;
                }
            }
            return new DumpTotals(
                    dumps, bytes, waits, blocked, dumped, peak, number((Map<String, Object>) m, "logQuotaBytes"));
        }

        private static long number(Map<String, Object> m, String key) {
            return ((Number) m.get(key)).longValue();
        }
    }

    @Override
    public Integer call() throws IOException {
        List<BenchWorkload> ws;
        BenchWorkload.Size sz;
        List<Integer> ls = new ArrayList<>();
        List<String> cs = new ArrayList<>();
        Long fixedQuota = null;
        try {
            ws = BenchWorkload.parseList(workloads);
            sz = BenchWorkload.parseSize(size);
            for (String s : loggerCounts.split(",")) {
                int l;
                try {
                    l = Integer.parseInt(s.strip());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + loggerCounts + "' is not a list of logger counts");
                }
                if (l < 1) {
                    throw new IllegalArgumentException("a logger count is at least 1, got " + l);
                }
                ls.add(l);
            }
            for (String s : clusterings.split(",")) {
                String c = s.strip().toLowerCase(Locale.ROOT);
                if (!c.equals("none") && !c.equals("clustered")) {
                    throw new IllegalArgumentException("unknown clustering '" + s + "' (use none, clustered)");
                }
                cs.add(c);
            }
            if (quota != null) {
                double q = new io.rewind.cli.tools.ByteSizeConverter().convert(quota);
                if (!(q >= 1) || q >= Long.MAX_VALUE) {
                    throw new IllegalArgumentException("--quota " + quota + ": must be at least 1 byte");
                }
                fixedQuota = (long) q;
            }
        } catch (IllegalArgumentException e) {
            System.err.println("rewind bench loggers: " + e.getMessage());
            return 2;
        }
        if (ranks < 2 || repeat < 1 || clusters < 1 || !(quotaFraction > 0 && quotaFraction <= 1)) {
            System.err.println("rewind bench loggers: needs at least 2 ranks, --repeat and --clusters of at least 1,"
                    + " and a --quota-fraction in (0, 1]");
            return 2;
        }
        Path files = out.resolve("cluster-files");
        List<Config> configs = new ArrayList<>();
        Map<BenchWorkload, String> reference = new LinkedHashMap<>();
        for (BenchWorkload w : ws) {
            // A run without fault tolerance: the result every other run must print, the traffic the clustering
            // tool cuts, and the JIT's warm-up.
            Harness.Run profiled =
                    new Harness.Run(w, sz, ranks, ProtocolRegistry.NONE, 0, 1, FailureSchedule.NONE, timeout);
            JobResult p = profiled.execute();
            String line = Harness.resultLine(p, w.prefix());
            if (!p.ok() || line == null) {
                System.err.print("rewind bench loggers: the profile run of " + w.cliName() + " failed\n  "
                        + profiled.commandLine() + "\n" + p.describeFailures());
                return 1;
            }
            reference.put(w, line);
            for (String c : cs) {
                Harness.Run run;
                if (c.equals("none")) {
                    run = new Harness.Run(
                            w, sz, ranks, ProtocolRegistry.get("pessimistic"), 0, 1, FailureSchedule.NONE, timeout);
                } else if (blocks) {
                    run = new Harness.Run(
                            w,
                            sz,
                            ranks,
                            ProtocolRegistry.get("spbc"),
                            0,
                            1,
                            FailureSchedule.NONE,
                            timeout,
                            ClusterLayout.blocks(Math.min(clusters, ranks)),
                            null);
                } else {
                    Clustering cut = Clusterer.cluster(
                            ProfileBench.profileOf(p.report()).traffic(Traffic.P2P),
                            ClusterRequest.intoClusters(Math.min(clusters, ranks)));
                    Files.createDirectories(files);
                    Path file = files.resolve(w.cliName() + "-" + ranks + "-k" + clusters + ".clusters");
                    ClusterFile.write(cut, file);
                    run = new Harness.Run(
                            w,
                            sz,
                            ranks,
                            ProtocolRegistry.get("spbc"),
                            0,
                            1,
                            FailureSchedule.NONE,
                            timeout,
                            ClusterLayout.explicit(cut.clusterOf()),
                            file);
                }
                // A baseline run measures how far each rank's log grows; it also warms this protocol's code up.
                JobResult b = run.execute();
                if (!sameResult(b, w, line, run, "baseline")) {
                    return 1;
                }
                // Ranks that log only a few collective calls (a rank whose every channel stays inside its
                // cluster) would set a quota below one message: the quota follows the ranks that log at least
                // 1 % of the largest log, and only those are expected to dump.
                long largest = b.report().maxRankLoggedBytes();
                long smallest = Long.MAX_VALUE;
                int logging = 0;
                for (long bytes : b.report().rankLoggedBytes()) {
                    if (bytes > 0 && bytes >= largest / 100) {
                        logging++;
                        smallest = Math.min(smallest, bytes);
                    }
                }
                if (logging == 0) {
                    System.err.println("rewind bench loggers: " + w.cliName() + " (" + c + ") logs nothing: no rank"
                            + " has anything to dump");
                    return 1;
                }
                long q = fixedQuota != null ? fixedQuota : Math.max(1, (long) (smallest * quotaFraction));
                configs.add(new Config(w, c, run, q, logging));
                System.err.printf(
                        Locale.ROOT,
                        "  %s %s: %d of %d ranks log 1 %% of the largest log or more, the smallest %d bytes, the largest %d;"
                                + " quota %d bytes%n",
                        w.cliName(),
                        c,
                        logging,
                        ranks,
                        smallest,
                        largest,
                        q);
            }
        }
        Map<String, Sample> samples = new LinkedHashMap<>();
        for (int rep = 0; rep < repeat; rep++) {
            for (Config c : configs) {
                for (int l : ls) {
                    // Baseline first on even repetitions, dumping first on odd ones: a drift of the machine within
                    // a pair then pushes the ratio up as often as down.
                    boolean baseFirst = rep % 2 == 0;
                    JobResult first = baseFirst ? c.run().execute() : dumping(c, l);
                    JobResult second = baseFirst ? dumping(c, l) : c.run().execute();
                    JobResult base = baseFirst ? first : second;
                    JobResult dump = baseFirst ? second : first;
                    String line = reference.get(c.workload());
                    if (!sameResult(base, c.workload(), line, c.run(), "baseline")
                            || !sameResult(
                                    dump, c.workload(), line, c.run(), l + " loggers, quota " + c.quotaBytes())) {
                        System.err.println("  with loggers: " + commandLine(c, l));
                        return 1;
                    }
                    Sample s = samples.computeIfAbsent(key(c, l), x -> new Sample());
                    double bs = base.wallTime().toNanos() / 1e9;
                    double ds = dump.wallTime().toNanos() / 1e9;
                    s.baseSeconds.add(bs);
                    s.dumpSeconds.add(ds);
                    s.ratios.add(ds / bs);
                    s.last = DumpTotals.of(dump.report().protocolRecord());
                    System.err.printf(
                            Locale.ROOT,
                            "  %s %s %d loggers pair %d: %.3f s against %.3f s (%.4f), %d dumps by %d of %d ranks,"
                                    + " %d blocking waits%n",
                            c.workload().cliName(),
                            c.clustering(),
                            l,
                            rep + 1,
                            ds,
                            bs,
                            ds / bs,
                            s.last.dumps(),
                            s.last.ranksDumped(),
                            c.loggingRanks(),
                            s.last.blockingWaits());
                }
            }
        }
        Harness.Table t = table(configs, ls, samples);
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("size", sz.name().toLowerCase(Locale.ROOT));
        settings.put("repeat", repeat);
        settings.put("quota", quota == null ? quotaFraction + " of the smallest per-rank log" : quota);
        settings.put("clusters", blocks ? clusters + " blocks" : clusters + " (min-cut of a profile)");
        settings.put("checkpoints", 0);
        settings.put("cores", Runtime.getRuntime().availableProcessors());
        t.write(out, "loggers", command(), settings);
        System.out.print(t.markdown());
        int all = 0;
        int dumped = 0;
        for (Config c : configs) {
            for (int l : ls) {
                all += c.loggingRanks();
                dumped += Math.min(c.loggingRanks(), samples.get(key(c, l)).last.ranksDumped());
            }
        }
        System.out.printf("ranks that dumped (last run of every row): %d of the %d ranks that log%n", dumped, all);
        System.out.println("wrote loggers.json, loggers.csv and loggers.md in " + out);
        return 0;
    }

    private static String key(Config c, int loggers) {
        return c.workload().cliName() + "/" + c.clustering() + "/" + loggers;
    }

    private static Harness.Table table(List<Config> configs, List<Integer> ls, Map<String, Sample> samples) {
        Harness.Table t = new Harness.Table(
                "workload",
                "workload",
                0,
                "ranks",
                "ranks",
                0,
                "clustering",
                "clustering",
                0,
                "protocol",
                "protocol",
                0,
                "loggers",
                "loggers",
                0,
                "pairs",
                "pairs",
                0,
                "ratio_median",
                "ratio median",
                4,
                "ratio_p25",
                "q1",
                4,
                "ratio_p75",
                "q3",
                4,
                "base_s",
                "baseline s (median)",
                3,
                "quota_bytes",
                "quota bytes",
                0,
                "ranks_dumped",
                "ranks dumped",
                0,
                "logging_ranks",
                "ranks that log (>= 1 % of the largest)",
                0,
                "dumps",
                "dumps",
                0,
                "dumped_MiB",
                "MiB dumped",
                2,
                "blocking_waits",
                "blocking waits",
                0,
                "blocked_ms",
                "ms blocked",
                1,
                "peak_log_bytes",
                "peak log bytes (max rank)",
                0,
                "peak_over_quota",
                "peak/quota",
                3);
        for (Config c : configs) {
            for (int l : ls) {
                Sample s = samples.get(key(c, l));
                DumpTotals d = s.last;
                t.add(
                        c.workload().cliName(),
                        c.run().ranks(),
                        c.clustering(),
                        c.run().protocol().name(),
                        l,
                        s.ratios.size(),
                        Harness.median(s.ratios),
                        Harness.quantile(s.ratios, 0.25),
                        Harness.quantile(s.ratios, 0.75),
                        Harness.median(s.baseSeconds),
                        c.quotaBytes(),
                        d.ranksDumped(),
                        c.loggingRanks(),
                        d.dumps(),
                        d.dumpedBytes() / (1024.0 * 1024.0),
                        d.blockingWaits(),
                        d.blockedMillis(),
                        d.peakLogBytes(),
                        d.peakLogBytes() / (double) c.quotaBytes());
            }
        }
        return t;
    }

    private static JobResult dumping(Config c, int loggers) {
        return Job.run(c.run()
                .builder(PointListener.NONE)
                .loggers(LoggerConfig.of(loggers, c.quotaBytes()))
                .build());
    }

    private static boolean sameResult(JobResult r, BenchWorkload w, String reference, Harness.Run run, String what) {
        String line = Harness.resultLine(r, w.prefix());
        if (r.ok() && reference.equals(line)) {
            return true;
        }
        System.err.print("rewind bench loggers: " + w.cliName() + " under "
                + run.protocol().name() + " (" + what
                + ") failed or printed another result (" + line + " against " + reference + ")\n  "
                + run.commandLine() + "\n" + r.describeFailures());
        return false;
    }

    /** The {@code rewind run} command of a dumping run; its options go before the main class. */
    private static String commandLine(Config c, int loggers) {
        String s = c.run().commandLine();
        int at = s.indexOf(" " + c.workload().mainClass());
        return s.substring(0, at) + " --loggers " + loggers + " --log-quota " + c.quotaBytes() + s.substring(at);
    }

    private String command() {
        return "rewind bench loggers --workloads " + workloads + " -n " + ranks + " --loggers " + loggerCounts
                + " --clustering " + clusterings + " --clusters " + clusters + (blocks ? " --blocks" : "")
                + (quota != null ? " --quota " + quota : " --quota-fraction " + quotaFraction) + " --repeat " + repeat
                + " --size " + size;
    }
}
