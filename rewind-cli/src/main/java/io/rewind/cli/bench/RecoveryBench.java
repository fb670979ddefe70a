package io.rewind.cli.bench;

import io.rewind.ft.ClusterLayout;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.PointListener;
import io.rewind.runtime.RunReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLongArray;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rewind bench recovery}: the setup of section 8.1 of "Local rollback for resilient MPI
 * applications with application-level checkpointing and message logging": checkpoints at about
 * 40 % and 80 % of the run, one recovery line kept, the last rank killed at 75 %. For local
 * rollback (pessimistic), global rollback and spbc with K clusters it measures the time the failure
 * cost the job, the recovery phases of the killed rank, and the rework of the ranks rolled back
 * (from the restored checkpoint until the last of them is back at the iteration of the kill) against
 * the time the same ranks took for the same iterations in a failure-free run of the same protocol,
 * both read from per-iteration timestamps: figure 5 of "SPBC: hierarchical protocol for
 * channel-deterministic applications".
 */
@Command(
        name = "recovery",
        mixinStandardHelpOptions = true,
        header = "Time lost to one crash under local, cluster and global rollback.",
        description = {
            "Local, cluster (spbc) and global rollback after one crash: checkpoints at about 40%% and"
                    + " 80%% of the run (one line kept), the last rank killed at 75%%. Reports the time lost "
                    + "against a failure-free run of the same protocol, the recovery phases (detect, respawn, "
                    + "restore, rework), the rework of the ranks rolled back against the same iterations "
                    + "failure-free (from per-iteration timestamps), and the reduction of time lost against "
                    + "global rollback. Writes recovery.json, recovery.csv and recovery.md into --out."
        })
public final class RecoveryBench implements Callable<Integer> {
    @Option(
            names = "--workloads",
            defaultValue = "stencil3d,cg,heat,amr,montecarlo",
            description = "Comma-separated workloads, or all. Default: ${DEFAULT-VALUE}.")
    String workloads;

    @Option(
            names = {"-n", "--ranks"},
            defaultValue = "4",
            description = "Ranks. Default: ${DEFAULT-VALUE}.")
    int ranks;

    @Option(names = "--repeat", defaultValue = "3", description = "Runs of every variant. Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Option(
            names = "--size",
            defaultValue = "small",
            description = BenchWorkload.SIZES + ". Default: ${DEFAULT-VALUE}.")
    String size;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "300s",
            converter = io.rewind.cli.DurationConverter.class,
            description =
                    "How long a run may take, e.g. 90s or 10m (a bare number is seconds). Default: ${DEFAULT-VALUE}.")
    java.time.Duration timeout;

    @Option(
            names = "--clusters",
            defaultValue = "2,4,N",
            description = "Cluster counts spbc runs with, K blocks of contiguous ranks (N: one rank per cluster; "
                    + "counts above the rank count are left out). Empty: no spbc. Default: ${DEFAULT-VALUE}.")
    String spbcClusters;

    /** The name {@code --clusters} had before it matched the other commands' (kept for one release). */
    @Option(names = "--spbc-clusters", hidden = true)
    void oldClusters(String value) {
        spbcClusters = value;
    }

    @Option(names = "--out", defaultValue = "runs/recovery", description = "Output folder. Default: ${DEFAULT-VALUE}.")
    Path out;

    private static final ProtocolDescriptor PESSIMISTIC = ProtocolRegistry.get("pessimistic");
    private static final ProtocolDescriptor GLOBAL = ProtocolRegistry.get("global");

    /** A protocol, and for spbc its clusters. */
    private record Variant(String label, ProtocolDescriptor protocol, ClusterLayout clusters) {}

    /**
     * When each rank passed each checkpoint point, as the point listener is told (a restarted rank's
     * later pass overwrites the earlier one): the rework of a rollback is read from these, in the run
     * with the crash and in the failure-free run alike.
     */
    private static final class PointTimes implements PointListener {
        private final int points;
        private final AtomicLongArray nanos;

        PointTimes(int ranks, int iterations) {
            points = iterations + 1;
            nanos = new AtomicLongArray(ranks * points);
        }

        @Override
        public void atPoint(int rank, long point) {
            if (point < points) {
                nanos.set(rank * points + (int) point, System.nanoTime());
            }
        }

        /** When the last of {@code ranks} passed {@code point} (0: one never did). */
        long lastOf(Iterable<Integer> ranks, int point) {
            long last = 0;
            for (int r : ranks) {
                long t = nanos.get(r * points + point);
                if (t == 0) {
                    return 0;
                }
                last = Math.max(last, t);
            }
            return last;
        }
    }

    /** Figures of one protocol on one workload, over the repetitions. */
    private static final class Sample {
        final List<Double> failureFree = new ArrayList<>();
        final List<Double> withFailure = new ArrayList<>();
        final List<Double> lost = new ArrayList<>();
        final List<Double> detect = new ArrayList<>();
        final List<Double> respawn = new ArrayList<>();
        final List<Double> restore = new ArrayList<>();
        final List<Double> rework = new ArrayList<>();
        final List<Double> recovery = new ArrayList<>();
        final List<Double> span = new ArrayList<>();
        final List<Double> clusterRework = new ArrayList<>();
        final List<Double> reworkRatio = new ArrayList<>();
        long line;
        int rollbackSet;
        long replayed;
        /** The most frames that waited at once for their receive in a restarted rank, over the runs. */
        long heldAtMost;
    }

    @Override
    public Integer call() throws IOException {
        List<BenchWorkload> ws;
        BenchWorkload.Size sz;
        try {
            ws = BenchWorkload.parseList(workloads);
            sz = BenchWorkload.parseSize(size);
        } catch (IllegalArgumentException e) {
            System.err.println("rewind bench recovery: " + e.getMessage());
            return 2;
        }
        if (ranks < 2 || repeat < 1) {
            System.err.println("rewind bench recovery: needs at least 2 ranks and 1 repetition");
            return 2;
        }
        List<Variant> variants = new ArrayList<>();
        variants.add(new Variant("pessimistic", PESSIMISTIC, null));
        variants.add(new Variant("global", GLOBAL, null));
        for (String k : spbcClusters.isBlank() ? new String[0] : spbcClusters.split(",")) {
            int count;
            try {
                count = k.strip().equalsIgnoreCase("N") ? ranks : Integer.parseInt(k.strip());
            } catch (NumberFormatException e) {
                System.err.println("rewind bench recovery: '" + spbcClusters + "' is not a list of cluster counts");
                return 2;
            }
            String label = "spbc K=" + count;
            if (count >= 1
                    && count <= ranks
                    && variants.stream().noneMatch(v -> v.label().equals(label))) {
                variants.add(new Variant(label, ProtocolRegistry.get("spbc"), ClusterLayout.blocks(count)));
            }
        }
        for (BenchWorkload w : ws) {
            new Harness.Run(w, sz, ranks, ProtocolRegistry.NONE, 0, 1, FailureSchedule.NONE, timeout)
                    .execute(); // untimed warm-up
        }
        Map<String, Sample> samples = new LinkedHashMap<>();
        Map<String, int[]> plan = new LinkedHashMap<>();
        for (int rep = 0; rep < repeat; rep++) {
            for (BenchWorkload w : ws) {
                int iterations = w.iterations(sz);
                int every = Math.max(1, (int) Math.round(0.4 * iterations));
                int killAt = Math.max(every + 1, (int) Math.round(0.75 * iterations));
                plan.put(w.cliName(), new int[] {iterations, every, killAt});
                FailureSchedule kill = FailureSchedule.parse((ranks - 1) + "@" + killAt, ranks);
                for (Variant v : variants) {
                    Sample s = samples.computeIfAbsent(w.cliName() + "/" + v.label(), k -> new Sample());
                    Harness.Run ff = new Harness.Run(
                            w, sz, ranks, v.protocol(), every, 1, FailureSchedule.NONE, timeout, v.clusters(), null);
                    Harness.Run failing =
                            new Harness.Run(w, sz, ranks, v.protocol(), every, 1, kill, timeout, v.clusters(), null);
                    PointTimes ffTimes = new PointTimes(ranks, iterations);
                    PointTimes failingTimes = new PointTimes(ranks, iterations);
                    JobResult a = ff.execute(ffTimes);
                    JobResult b = failing.execute(failingTimes);
                    String la = Harness.resultLine(a, w.prefix());
                    String lb = Harness.resultLine(b, w.prefix());
                    if (!a.ok()
                            || !b.ok()
                            || la == null
                            || !la.equals(lb)
                            || b.report().failures().isEmpty()) {
                        System.err.print("rewind bench recovery: " + w.cliName() + " under " + v.label()
                                + " did not recover to the failure-free result\n  " + failing.commandLine() + "\n"
                                + a.describeFailures() + b.describeFailures() + "  failure-free: " + la
                                + "\n  with failure: " + lb + "\n");
                        return 1;
                    }
                    double ta = a.wallTime().toNanos() / 1e9;
                    double tb = b.wallTime().toNanos() / 1e9;
                    s.failureFree.add(ta);
                    s.withFailure.add(tb);
                    s.lost.add(tb - ta);
                    RunReport.FailureRecord f = b.report().failures().get(0);
                    s.detect.add(f.detectMs());
                    s.respawn.add(f.respawnMs());
                    s.restore.add(f.restoreMs());
                    s.rework.add(f.replayMs());
                    s.recovery.add(f.totalMs());
                    // The rework of the rolled-back ranks: from the killed rank's restore (the ranks of a
                    // rollback restart together) until the last of them passes the point of the kill again;
                    // against the time the same ranks took from the restored line's point to that point in
                    // the failure-free run.
                    int from = (int) (f.line() * every);
                    double restoredMs = Double.NaN;
                    for (RunReport.FailureRecord.Phase ph : f.phases(0)) {
                        if (ph.name().equals("restore")) {
                            restoredMs = ph.endMs();
                        }
                    }
                    long back = failingTimes.lastOf(f.rolledBack(), killAt);
                    long ffFrom = from == 0 ? 0 : ffTimes.lastOf(f.rolledBack(), from);
                    long ffTo = ffTimes.lastOf(f.rolledBack(), killAt);
                    double clusterRework = back == 0 ? Double.NaN : back / 1e6 - restoredMs;
                    double span = from == 0 || ffFrom == 0 || ffTo == 0 ? Double.NaN : (ffTo - ffFrom) / 1e6;
                    s.clusterRework.add(clusterRework);
                    s.span.add(span);
                    s.reworkRatio.add(clusterRework / span);
                    s.line = f.line();
                    s.rollbackSet = f.rollbackSet();
                    s.replayed = f.replayedFrames();
                    s.heldAtMost = Math.max(s.heldAtMost, f.peakUnmatched());
                    System.err.printf(
                            Locale.ROOT,
                            "  %s %s run %d: failure-free %.3f s, with failure %.3f s, %d rank(s) rolled back, "
                                    + "rework %.1f ms against %.1f ms failure-free%n",
                            w.cliName(),
                            v.label(),
                            rep + 1,
                            ta,
                            tb,
                            f.rollbackSet(),
                            clusterRework,
                            span);
                }
            }
        }
        Harness.Table t = new Harness.Table(
                "workload",
                "workload",
                0,
                "protocol",
                "protocol",
                0,
                "ranks",
                "ranks",
                0,
                "checkpoints_at",
                "checkpoints at",
                0,
                "kill_at",
                "kill at",
                0,
                "line",
                "line",
                0,
                "rolled_back",
                "ranks rolled back",
                0,
                "replayed",
                "replayed msgs",
                0,
                "held_at_most",
                "most msgs waiting in the restarted rank",
                0,
                "failure_free_s",
                "failure-free s",
                3,
                "with_failure_s",
                "with failure s",
                3,
                "lost_s",
                "time lost s",
                3,
                "lost_min_s",
                "lost min",
                3,
                "lost_max_s",
                "lost max",
                3,
                "detect_ms",
                "detect ms",
                1,
                "respawn_ms",
                "respawn ms",
                1,
                "restore_ms",
                "restore ms",
                1,
                "rework_ms",
                "killed rank rework ms",
                1,
                "cluster_rework_ms",
                "rework of the rolled-back ranks ms",
                1,
                "span_failure_free_ms",
                "same span failure-free ms",
                1,
                "rework_ratio",
                "rework / span (median)",
                2,
                "rework_ratio_min",
                "min",
                2,
                "rework_ratio_max",
                "max",
                2,
                "recovery_ms",
                "kill to caught up ms",
                1,
                "lost_reduction",
                "time lost: reduction against global",
                2);
        for (BenchWorkload w : ws) {
            int[] pl = plan.get(w.cliName());
            double globalLost = Harness.median(samples.get(w.cliName() + "/global").lost);
            for (Variant v : variants) {
                Sample s = samples.get(w.cliName() + "/" + v.label());
                t.add(
                        w.cliName(),
                        v.label(),
                        ranks,
                        pl[1] + "," + 2 * pl[1] + " of " + pl[0],
                        (long) pl[2],
                        s.line,
                        (long) s.rollbackSet,
                        s.replayed,
                        s.heldAtMost,
                        Harness.median(s.failureFree),
                        Harness.median(s.withFailure),
                        Harness.median(s.lost),
                        Harness.min(s.lost),
                        Harness.max(s.lost),
                        Harness.median(s.detect),
                        Harness.median(s.respawn),
                        Harness.median(s.restore),
                        Harness.median(s.rework),
                        Harness.median(s.clusterRework),
                        Harness.median(s.span),
                        Harness.median(s.reworkRatio),
                        Harness.min(s.reworkRatio),
                        Harness.max(s.reworkRatio),
                        Harness.median(s.recovery),
                        v.protocol() == GLOBAL ? Double.NaN : 1 - Harness.median(s.lost) / globalLost);
            }
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("size", sz.name().toLowerCase());
        settings.put("repeat", repeat);
        settings.put("keep_lines", 1);
        settings.put("killed_rank", ranks - 1);
        settings.put("cores", Runtime.getRuntime().availableProcessors());
        String cmd = "rewind bench recovery --workloads " + workloads + " -n " + ranks + " --repeat " + repeat
                + " --size " + size + " --clusters " + (spbcClusters.isBlank() ? "''" : spbcClusters);
        t.write(out, "recovery", cmd, settings);
        System.out.print(t.markdown());
        System.out.println("wrote recovery.json, recovery.csv and recovery.md in " + out);
        return 0;
    }
}
