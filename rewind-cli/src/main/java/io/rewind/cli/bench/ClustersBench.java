package io.rewind.cli.bench;

import io.rewind.ft.ClusterLayout;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.RunReport;
import io.rewind.tools.cluster.ClusterFile;
import io.rewind.tools.cluster.ClusterRequest;
import io.rewind.tools.cluster.Clusterer;
import io.rewind.tools.cluster.Clustering;
import io.rewind.tools.cluster.ClusteringMetrics;
import io.rewind.tools.profile.CommMatrix;
import io.rewind.tools.profile.CommProfile;
import io.rewind.tools.profile.Traffic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rewind bench clusters}: table 1 of "SPBC: hierarchical protocol for channel-deterministic
 * applications", the log growth rate per rank by number of clusters. For each workload a
 * failure-free run without fault tolerance gives the traffic (as {@code rewind bench profile} does);
 * the clustering tool cuts it into K clusters twice, minimising the logged volume (its default) and
 * then also the largest per-rank log ({@code --balanced}); each clustering runs under {@code spbc},
 * and the growth rates each rank measured stand beside what the tool predicted from the profile.
 */
@Command(
        name = "clusters",
        mixinStandardHelpOptions = true,
        header = "Log growth by number of clusters under spbc.",
        description = {
            "Clusters the traffic of a failure-free run with the clustering tool (min-cut and "
                    + "balanced) into each K, runs each clustering under spbc, and reports the per-rank log "
                    + "growth (average and maximum MB/s), the logged share of the bytes sent and the tool's "
                    + "prediction. Writes clusters.json, clusters.csv, clusters.md and the cluster files into "
                    + "--out."
        })
public final class ClustersBench implements Callable<Integer> {
    @Option(
            names = "--workloads",
            defaultValue = "stencil3d,cg,heat,amr,bfs",
            description = "Comma-separated workloads, or all. Default: ${DEFAULT-VALUE}.")
    String workloads;

    @Option(
            names = {"-n", "--ranks"},
            defaultValue = "64",
            description = "Ranks. Default: ${DEFAULT-VALUE}.")
    int ranks;

    @Option(
            names = {"-k", "--clusters"},
            defaultValue = "2,4,8,16,N",
            description = "Cluster counts; N is the number of ranks (one rank per cluster). Default: ${DEFAULT-VALUE}.")
    String clusterCounts;

    @Option(
            names = "--traffic",
            defaultValue = "P2P",
            description = "Traffic the tool clusters: ${COMPLETION-CANDIDATES} (as rewind analyze cluster; "
                    + "collectives are logged per call, not per message). Default: ${DEFAULT-VALUE}.")
    Traffic traffic;

    @Option(
            names = "--repeat",
            defaultValue = "1",
            description = "Runs of every clustering. Default: ${DEFAULT-VALUE}.")
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

    @Option(names = "--out", defaultValue = "runs/clusters", description = "Output folder. Default: ${DEFAULT-VALUE}.")
    Path out;

    /** One clustering of one workload; {@code variant} says which of the tool's objectives made it. */
    private record Variant(BenchWorkload workload, int k, String variant, Clustering clustering, Path file) {}

    /** What the runs of one variant measured. */
    private static final class Sample {
        final List<Double> avgRate = new ArrayList<>();
        final List<Double> maxRate = new ArrayList<>();
        final List<Double> seconds = new ArrayList<>();
        /** Per repetition: this variant's maximum rate over the min-cut variant's of the same repetition. */
        final List<Double> maxAgainstMinCut = new ArrayList<>();

        RunReport last;
    }

    @Override
    public Integer call() throws IOException {
        List<BenchWorkload> ws;
        BenchWorkload.Size sz;
        List<Integer> ks = new ArrayList<>();
        try {
            ws = BenchWorkload.parseList(workloads);
            sz = BenchWorkload.parseSize(size);
            for (String s : clusterCounts.split(",")) {
                int k = s.strip().equalsIgnoreCase("N") ? ranks : Integer.parseInt(s.strip());
                if (k < 1 || k > ranks) {
                    throw new IllegalArgumentException(
                            "a cluster count is between 1 and the " + ranks + " ranks, got " + k);
                }
                if (!ks.contains(k)) {
                    ks.add(k);
                }
            }
        } catch (NumberFormatException e) {
            System.err.println("rewind bench clusters: '" + clusterCounts + "' is not a list of cluster counts");
            return 2;
        } catch (IllegalArgumentException e) {
            System.err.println("rewind bench clusters: " + e.getMessage());
            return 2;
        }
        if (ranks < 2 || repeat < 1) {
            System.err.println("rewind bench clusters: needs at least 2 ranks and 1 repetition");
            return 2;
        }
        Path files = out.resolve("cluster-files");
        Files.createDirectories(files);
        Map<BenchWorkload, CommProfile> profiles = new LinkedHashMap<>();
        Map<BenchWorkload, String> reference = new LinkedHashMap<>();
        List<Variant> variants = new ArrayList<>();
        for (BenchWorkload w : ws) {
            // The traffic, from a run without fault tolerance (it also warms the JIT up for the runs below).
            Harness.Run profiled =
                    new Harness.Run(w, sz, ranks, ProtocolRegistry.NONE, 0, 1, FailureSchedule.NONE, timeout);
            JobResult r = profiled.execute();
            String line = Harness.resultLine(r, w.prefix());
            if (!r.ok() || line == null) {
                System.err.print("rewind bench clusters: the profile run of " + w.cliName() + " failed\n  "
                        + profiled.commandLine() + "\n" + r.describeFailures());
                return 1;
            }
            reference.put(w, line);
            CommProfile profile = ProfileBench.profileOf(r.report());
            profiles.put(w, profile);
            CommMatrix m = profile.traffic(traffic);
            for (int k : ks) {
                Clustering minCut = Clusterer.cluster(m, ClusterRequest.intoClusters(k));
                Clustering balanced =
                        Clusterer.cluster(m, ClusterRequest.intoClusters(k).balanced(true));
                // With one rank per cluster (or one cluster) both objectives give the same clustering: run it once.
                boolean same = Arrays.equals(minCut.clusterOf(), balanced.clusterOf());
                variants.add(variant(w, k, same ? "min-cut = balanced" : "min-cut", minCut, files));
                if (!same) {
                    variants.add(variant(w, k, "balanced", balanced, files));
                }
            }
        }
        Map<Variant, Sample> samples = new LinkedHashMap<>();
        for (int rep = 0; rep < repeat; rep++) {
            for (Variant v : variants) {
                Harness.Run run = new Harness.Run(
                        v.workload(),
                        sz,
                        ranks,
                        ProtocolRegistry.get("spbc"),
                        0, // growth counts every appended byte; checkpoints would only trim the logs
                        1,
                        FailureSchedule.NONE,
                        timeout,
                        ClusterLayout.explicit(v.clustering().clusterOf()),
                        v.file());
                JobResult r = run.execute();
                String line = Harness.resultLine(r, v.workload().prefix());
                if (!r.ok() || line == null || !line.equals(reference.get(v.workload()))) {
                    System.err.print("rewind bench clusters: " + v.workload().cliName() + " with " + v.k()
                            + " clusters (" + v.variant() + ") failed or printed another result\n  "
                            + run.commandLine() + "\n" + r.describeFailures());
                    return 1;
                }
                double[] rates = r.report().logGrowthRates();
                Sample s = samples.computeIfAbsent(v, x -> new Sample());
                s.avgRate.add(Arrays.stream(rates).average().orElse(0) / 1e6);
                s.maxRate.add(Arrays.stream(rates).max().orElse(0) / 1e6);
                s.seconds.add(r.wallTime().toNanos() / 1e9);
                s.last = r.report();
                if (v.variant().equals("balanced")) {
                    Sample minCut = samples.get(variants.get(variants.indexOf(v) - 1));
                    s.maxAgainstMinCut.add(s.maxRate.getLast() / minCut.maxRate.getLast());
                }
                System.err.printf(
                        Locale.ROOT,
                        "  %s K=%d %s run %d: %.3f s, log MB/s per rank avg %.3f max %.3f%n",
                        v.workload().cliName(),
                        v.k(),
                        v.variant(),
                        rep + 1,
                        s.seconds.getLast(),
                        s.avgRate.getLast(),
                        s.maxRate.getLast());
            }
        }
        Harness.Table t = new Harness.Table(
                "workload",
                "workload",
                0,
                "ranks",
                "ranks",
                0,
                "clusters",
                "K",
                0,
                "variant",
                "clustering",
                0,
                "largest_cluster",
                "largest cluster",
                0,
                "run_s",
                "run s",
                3,
                "log_avg_MBps",
                "log MB/s per rank avg",
                3,
                "log_max_MBps",
                "log MB/s max rank",
                3,
                "max_vs_min_cut",
                "max: balanced / min-cut",
                3,
                "predicted_avg_MBps",
                "predicted avg MB/s",
                3,
                "predicted_max_MBps",
                "predicted max MB/s",
                3,
                "logged_share",
                "logged share of bytes sent",
                4,
                "predicted_logged_share",
                "predicted share",
                4,
                "max_rank_logged_bytes",
                "max rank logged bytes",
                0,
                "predicted_max_log_bytes",
                "predicted max rank bytes",
                0,
                "collective_logged_bytes",
                "of which collectives",
                0);
        for (Variant v : variants) {
            Sample s = samples.get(v);
            CommProfile profile = profiles.get(v.workload());
            ClusteringMetrics predicted =
                    ClusteringMetrics.of(profile.traffic(traffic), v.clustering(), profile.durationSeconds());
            RunReport rep = s.last;
            long sent = rep.sentBytes();
            t.add(
                    v.workload().cliName(),
                    ranks,
                    v.k(),
                    v.variant(),
                    v.clustering().maxSize(),
                    Harness.median(s.seconds),
                    Harness.median(s.avgRate),
                    Harness.median(s.maxRate),
                    Harness.median(s.maxAgainstMinCut),
                    predicted.avgLogBytesPerSec() / 1e6,
                    predicted.maxLogBytesPerSec() / 1e6,
                    sent == 0 ? 0.0 : rep.loggedBytes() / (double) sent,
                    predicted.loggedFraction(),
                    rep.maxRankLoggedBytes(),
                    predicted.maxLogBytes(),
                    rep.collectiveLoggedBytes());
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("size", sz.name().toLowerCase(Locale.ROOT));
        settings.put("repeat", repeat);
        settings.put("traffic", traffic.name().toLowerCase(Locale.ROOT));
        settings.put("checkpoints", 0);
        settings.put("cores", Runtime.getRuntime().availableProcessors());
        String cmd = "rewind bench clusters --workloads " + workloads + " -n " + ranks + " -k " + clusterCounts
                + " --traffic " + traffic.name().toLowerCase(Locale.ROOT) + " --repeat " + repeat + " --size " + size;
        t.write(out, "clusters", cmd, settings);
        System.out.print(t.markdown());
        System.out.println("wrote clusters.json, clusters.csv, clusters.md and " + files + "/*.clusters in " + out);
        return 0;
    }

    private Variant variant(BenchWorkload w, int k, String name, Clustering c, Path dir) {
        String tag = name.startsWith("balanced") ? "balanced" : "mincut";
        Path file = dir.resolve(w.cliName() + "-" + ranks + "-k" + k + "-" + tag + ".clusters");
        ClusterFile.write(c, file);
        return new Variant(w, k, name, c, file);
    }
}
