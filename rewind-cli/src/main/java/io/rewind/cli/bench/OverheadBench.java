package io.rewind.cli.bench;

import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.RunReport;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rewind bench overhead}: failure-free cost of each protocol on each workload and rank
 * count, as a ratio of run time against protocol {@code none}, with what the protocol logged and
 * checkpointed. Runs are interleaved (every repetition runs every variant once, in turn) so that
 * drift of the machine touches all variants alike.
 */
@Command(
        name = "overhead",
        mixinStandardHelpOptions = true,
        description = {
            "Failure-free overhead: workloads x protocols x rank counts, interleaved and repeated.",
            "Reports the median run time and its spread, the ratio to protocol none, per-rank log growth",
            "(average and maximum MB/s), logged bytes and entries, determinants, checkpoint size and time.",
            "Writes overhead.json, overhead.csv and overhead.md into --out."
        })
public final class OverheadBench implements Callable<Integer> {
    @Option(
            names = "--workloads",
            defaultValue = "all",
            description =
                    "Comma-separated workloads, or all "
                            + "(stencil3d, cg, heat, amr, bfs, discovery, montecarlo, masterworker). Default: ${DEFAULT-VALUE}.")
    String workloads;

    @Option(
            names = "--protocols",
            defaultValue = "none,global,pessimistic",
            description = "Protocols to compare; none is always added as the reference. Default: ${DEFAULT-VALUE}.")
    String protocols;

    @Option(
            names = {"-n", "--ranks"},
            defaultValue = "4",
            description = "Comma-separated rank counts. " + "Default: ${DEFAULT-VALUE}.")
    String ranks;

    @Option(names = "--repeat", defaultValue = "3", description = "Runs of every variant. Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Option(
            names = "--size",
            defaultValue = "small",
            description = "Problem size: small or medium. " + "Default: ${DEFAULT-VALUE}.")
    String size;

    @Option(
            names = "--checkpoints",
            defaultValue = "4",
            description = "Checkpoints per run (checkpoint every iterations/K points). Default: ${DEFAULT-VALUE}.")
    int checkpoints;

    @Option(
            names = "--timeout",
            defaultValue = "300",
            description = "Seconds a run may take. Default: ${DEFAULT-VALUE}.")
    int timeoutSeconds;

    @Option(names = "--out", defaultValue = "runs/overhead", description = "Output folder. Default: ${DEFAULT-VALUE}.")
    Path out;

    private record Key(BenchWorkload workload, int ranks, ProtocolDescriptor protocol) {}

    @Override
    public Integer call() throws IOException {
        List<BenchWorkload> ws;
        List<ProtocolDescriptor> ps;
        List<Integer> ns;
        BenchWorkload.Size sz;
        try {
            ws = BenchWorkload.parseList(workloads);
            ps = new ArrayList<>(Harness.protocols(protocols));
            ps.remove(ProtocolRegistry.NONE);
            ps.add(0, ProtocolRegistry.NONE);
            ns = Harness.ints(ranks);
            sz = BenchWorkload.parseSize(size);
        } catch (IllegalArgumentException e) {
            System.err.println("rewind bench overhead: " + e.getMessage());
            return 2;
        }
        if (repeat < 1 || checkpoints < 1) {
            System.err.println("rewind bench overhead: --repeat and --checkpoints must be positive");
            return 2;
        }
        List<Integer> counts = ns;
        if (ws.stream().noneMatch(w -> counts.stream().anyMatch(n -> n >= w.minRanks()))) {
            System.err.println("rewind bench overhead: none of the workloads runs on " + ranks + " ranks");
            return 2;
        }
        for (BenchWorkload w : ws) {
            // One untimed run per workload, so the first timed variant does not pay for class loading and JIT.
            for (int n : ns) {
                if (n >= w.minRanks()) {
                    new Harness.Run(
                                    w,
                                    sz,
                                    n,
                                    ProtocolRegistry.NONE,
                                    0,
                                    2,
                                    FailureSchedule.NONE,
                                    Duration.ofSeconds(timeoutSeconds))
                            .execute();
                    break;
                }
            }
        }
        Map<Key, List<Double>> seconds = new LinkedHashMap<>();
        Map<Key, RunReport> last = new LinkedHashMap<>();
        Map<Key, String> result = new LinkedHashMap<>();
        for (int rep = 0; rep < repeat; rep++) {
            for (BenchWorkload w : ws) {
                for (int n : ns) {
                    if (n < w.minRanks()) {
                        continue;
                    }
                    int every = Math.max(1, w.iterations(sz) / checkpoints);
                    for (ProtocolDescriptor p : ps) {
                        Harness.Run run = new Harness.Run(
                                w,
                                sz,
                                n,
                                p,
                                p == ProtocolRegistry.NONE ? 0 : every,
                                2,
                                FailureSchedule.NONE,
                                Duration.ofSeconds(timeoutSeconds));
                        JobResult r = run.execute();
                        String line = Harness.resultLine(r, w.prefix());
                        if (!r.ok() || line == null) {
                            System.err.print("rewind bench overhead: " + w.cliName() + " on " + n + " ranks under "
                                    + p.name() + " failed\n  " + run.commandLine() + "\n" + r.describeFailures());
                            return 1;
                        }
                        Key k = new Key(w, n, p);
                        String before = result.putIfAbsent(new Key(w, n, ProtocolRegistry.NONE), line);
                        if (before != null && !before.equals(line)) {
                            System.err.println("rewind bench overhead: " + w.cliName() + " on " + n + " ranks under "
                                    + p.name() + " printed\n  " + line + "\nbut the reference printed\n  " + before);
                            return 1;
                        }
                        seconds.computeIfAbsent(k, x -> new ArrayList<>())
                                .add(r.wallTime().toNanos() / 1e9);
                        last.put(k, r.report());
                        System.err.printf(
                                "  %s n=%d %s run %d: %.3f s%n",
                                w.cliName(), n, p.name(), rep + 1, r.wallTime().toNanos() / 1e9);
                    }
                }
            }
        }
        Harness.Table t = new Harness.Table(
                "workload",
                "workload",
                0,
                "ranks",
                "ranks",
                0,
                "protocol",
                "protocol",
                0,
                "runs",
                "runs",
                0,
                "median_s",
                "median s",
                3,
                "min_s",
                "min s",
                3,
                "max_s",
                "max s",
                3,
                "ratio",
                "ratio to none",
                3,
                "log_avg_MBps",
                "log MB/s per rank (avg)",
                2,
                "log_max_MBps",
                "log MB/s (max rank)",
                2,
                "logged_bytes",
                "logged bytes",
                0,
                "logged_entries",
                "logged entries",
                0,
                "determinants",
                "determinants",
                0,
                "checkpoints",
                "checkpoints",
                0,
                "checkpoint_bytes",
                "bytes per checkpoint",
                0,
                "checkpoint_ms",
                "ms per checkpoint",
                2);
        for (Map.Entry<Key, List<Double>> e : seconds.entrySet()) {
            Key k = e.getKey();
            List<Double> s = e.getValue();
            double med = Harness.median(s);
            double ref = Harness.median(seconds.get(new Key(k.workload(), k.ranks(), ProtocolRegistry.NONE)));
            RunReport rep = last.get(k);
            double wall = rep.wall().toNanos() / 1e9;
            double avgRate = rep.loggedBytes() / (double) k.ranks() / wall / 1e6;
            double maxRate = rep.maxRankLoggedBytes() / wall / 1e6;
            t.add(
                    k.workload().cliName(),
                    k.ranks(),
                    k.protocol().name(),
                    s.size(),
                    med,
                    Harness.min(s),
                    Harness.max(s),
                    med / ref,
                    avgRate,
                    maxRate,
                    rep.loggedBytes(),
                    rep.loggedEntries(),
                    rep.events(),
                    rep.checkpoints(),
                    rep.checkpoints() == 0 ? 0L : rep.checkpointBytes() / rep.checkpoints(),
                    rep.checkpoints() == 0 ? 0.0 : rep.checkpointNanos() / 1e6 / rep.checkpoints());
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("size", sz.name().toLowerCase());
        settings.put("repeat", repeat);
        settings.put("checkpoints_per_run", checkpoints);
        settings.put("cores", Runtime.getRuntime().availableProcessors());
        String cmd = "rewind bench overhead --workloads " + workloads + " --protocols " + protocols + " -n " + ranks
                + " --repeat " + repeat + " --size " + size + " --checkpoints " + checkpoints;
        t.write(out, "overhead", cmd, settings);
        System.out.print(t.markdown());
        System.out.println("wrote overhead.json, overhead.csv and overhead.md in " + out);
        return 0;
    }
}
