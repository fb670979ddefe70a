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
 * {@code rewind bench recovery}: the setup of section 8.1 of "Local rollback for resilient MPI
 * applications with application-level checkpointing and message logging": checkpoints at about
 * 40 % and 80 % of the run, one recovery line kept, the last rank killed at 75 %. For local
 * rollback (pessimistic) and global rollback it measures the time the failure cost the job, the
 * recovery phases of the killed rank, and its rework (from the restored checkpoint back to where it
 * died) against the same span of a failure-free run, the comparison of figure 5 of "SPBC:
 * hierarchical protocol for channel-deterministic applications".
 */
@Command(
        name = "recovery",
        mixinStandardHelpOptions = true,
        description = {
            "Local versus global rollback after one crash: checkpoints at ~40% and ~80% of the run (one line",
            "kept), the last rank killed at 75%. Reports time lost against a failure-free run of the same",
            "protocol, recovery phases (detect, respawn, restore, rework), the rework against the same span",
            "failure-free, and the reduction local rollback brings. Writes recovery.json/.csv/.md into --out."
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

    @Option(names = "--size", defaultValue = "small", description = "small or medium. Default: ${DEFAULT-VALUE}.")
    String size;

    @Option(
            names = "--timeout",
            defaultValue = "300",
            description = "Seconds a run may take. Default: ${DEFAULT-VALUE}.")
    int timeoutSeconds;

    @Option(names = "--out", defaultValue = "runs/recovery", description = "Output folder. Default: ${DEFAULT-VALUE}.")
    Path out;

    private static final List<ProtocolDescriptor> PROTOCOLS =
            List.of(ProtocolRegistry.get("pessimistic"), ProtocolRegistry.get("global"));

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
        long line;
        int rollbackSet;
        long replayed;
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
        for (BenchWorkload w : ws) {
            new Harness.Run(
                            w,
                            sz,
                            ranks,
                            ProtocolRegistry.NONE,
                            0,
                            1,
                            FailureSchedule.NONE,
                            Duration.ofSeconds(timeoutSeconds))
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
                for (ProtocolDescriptor p : PROTOCOLS) {
                    Sample s = samples.computeIfAbsent(w.cliName() + "/" + p.name(), k -> new Sample());
                    Harness.Run ff = new Harness.Run(
                            w, sz, ranks, p, every, 1, FailureSchedule.NONE, Duration.ofSeconds(timeoutSeconds));
                    Harness.Run failing =
                            new Harness.Run(w, sz, ranks, p, every, 1, kill, Duration.ofSeconds(timeoutSeconds));
                    JobResult a = ff.execute();
                    JobResult b = failing.execute();
                    String la = Harness.resultLine(a, w.prefix());
                    String lb = Harness.resultLine(b, w.prefix());
                    if (!a.ok()
                            || !b.ok()
                            || la == null
                            || !la.equals(lb)
                            || b.report().failures().isEmpty()) {
                        System.err.print("rewind bench recovery: " + w.cliName() + " under " + p.name()
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
                    // The same iterations, line point to kill point, in the failure-free run.
                    long from = f.line() * every;
                    s.span.add(ta * 1000 * (killAt - from) / iterations);
                    s.line = f.line();
                    s.rollbackSet = f.rollbackSet();
                    s.replayed = f.replayedFrames();
                    System.err.printf(
                            "  %s %s run %d: failure-free %.3f s, with failure %.3f s%n",
                            w.cliName(), p.name(), rep + 1, ta, tb);
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
                "rework ms",
                1,
                "span_failure_free_ms",
                "same span failure-free ms",
                1,
                "rework_ratio",
                "rework / span",
                2,
                "recovery_ms",
                "kill to caught up ms",
                1,
                "lost_reduction",
                "time lost: reduction by local rollback",
                2);
        for (BenchWorkload w : ws) {
            int[] pl = plan.get(w.cliName());
            Sample local = samples.get(w.cliName() + "/pessimistic");
            Sample global = samples.get(w.cliName() + "/global");
            double reduction = 1 - Harness.median(local.lost) / Harness.median(global.lost);
            for (ProtocolDescriptor p : PROTOCOLS) {
                Sample s = p == ProtocolRegistry.get("pessimistic") ? local : global;
                double rework = Harness.median(s.rework);
                double span = Harness.median(s.span);
                t.add(
                        w.cliName(),
                        p.name(),
                        ranks,
                        pl[1] + "," + 2 * pl[1] + " of " + pl[0],
                        (long) pl[2],
                        s.line,
                        (long) s.rollbackSet,
                        s.replayed,
                        Harness.median(s.failureFree),
                        Harness.median(s.withFailure),
                        Harness.median(s.lost),
                        Harness.min(s.lost),
                        Harness.max(s.lost),
                        Harness.median(s.detect),
                        Harness.median(s.respawn),
                        Harness.median(s.restore),
                        rework,
                        span,
                        rework / span,
                        Harness.median(s.recovery),
                        p == ProtocolRegistry.get("pessimistic") ? reduction : Double.NaN);
            }
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("size", sz.name().toLowerCase());
        settings.put("repeat", repeat);
        settings.put("keep_lines", 1);
        settings.put("killed_rank", ranks - 1);
        settings.put("cores", Runtime.getRuntime().availableProcessors());
        String cmd = "rewind bench recovery --workloads " + workloads + " -n " + ranks + " --repeat " + repeat
                + " --size " + size;
        t.write(out, "recovery", cmd, settings);
        System.out.print(t.markdown());
        System.out.println("wrote recovery.json, recovery.csv and recovery.md in " + out);
        return 0;
    }
}
