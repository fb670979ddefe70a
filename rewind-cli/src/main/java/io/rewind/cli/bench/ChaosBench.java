package io.rewind.cli.bench;

import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.JobResult;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rewind bench chaos}: seeded random failure schedules over workloads x protocols. Each run
 * is bounded in time and its result line must equal the failure-free run's, bit for bit; any
 * difference, failure or timeout makes the command exit with status 1 after printing the seed and
 * the command that replays it.
 */
@Command(
        name = "chaos",
        mixinStandardHelpOptions = true,
        header = "Random crash schedules over workloads and protocols, each checked bit for bit.",
        description = {
            "Draws random crash schedules (one to three kills, some concurrent) from seeds, over "
                    + "workloads x protocols. Every run has a time limit, and its result must equal the "
                    + "failure-free run's bit for bit. The exit status is 1 on any difference, error or hang, "
                    + "with the failing seed and a command that replays it. Writes chaos.json, chaos.csv and "
                    + "chaos.md into --out."
        })
public final class ChaosBench implements Callable<Integer> {
    @Option(
            names = "--workloads",
            defaultValue = "all",
            description = "Comma-separated workloads, or all. " + "Default: ${DEFAULT-VALUE}.")
    String workloads;

    @Option(
            names = "--protocols",
            defaultValue = "recovering",
            description = "Comma-separated protocols that recover, or recovering for every one the registry holds. "
                    + "Default: ${DEFAULT-VALUE}.")
    String protocols;

    @Option(names = "--seeds", defaultValue = "5", description = "How many seeds. Default: ${DEFAULT-VALUE}.")
    int seeds;

    @Option(names = "--first-seed", defaultValue = "1", description = "The first seed. Default: ${DEFAULT-VALUE}.")
    long firstSeed;

    @Option(
            names = {"-n", "--ranks"},
            defaultValue = "4",
            description = "Ranks. Default: ${DEFAULT-VALUE}.")
    int ranks;

    @Option(
            names = "--size",
            defaultValue = "small",
            description = BenchWorkload.SIZES + ". Default: ${DEFAULT-VALUE}.")
    String size;

    @Option(
            names = "--checkpoints",
            defaultValue = "5",
            description = "Checkpoints per run (checkpoint every iterations/K points). Default: ${DEFAULT-VALUE}.")
    int checkpoints;

    @Option(names = "--keep-lines", defaultValue = "2", description = "Recovery lines kept. Default: ${DEFAULT-VALUE}.")
    int keepLines;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "60s",
            converter = io.rewind.cli.DurationConverter.class,
            description = "How long a run may take before it counts as a hang, e.g. 90s or 10m (a bare number is "
                    + "seconds). Default: ${DEFAULT-VALUE}.")
    java.time.Duration timeout;

    @Option(names = "--out", defaultValue = "runs/chaos", description = "Output folder. Default: ${DEFAULT-VALUE}.")
    Path out;

    private static final int GRACE_SECONDS = 30;

    @Override
    public Integer call() throws IOException {
        List<BenchWorkload> ws;
        List<ProtocolDescriptor> ps;
        BenchWorkload.Size sz;
        try {
            ws = BenchWorkload.parseList(workloads);
            ps = protocols.trim().equals("recovering") ? ProtocolRegistry.recovering() : Harness.protocols(protocols);
            sz = BenchWorkload.parseSize(size);
        } catch (IllegalArgumentException e) {
            System.err.println("rewind bench chaos: " + e.getMessage());
            return 2;
        }
        for (ProtocolDescriptor p : ps) {
            if (!p.recovers()) {
                System.err.println("rewind bench chaos: protocol " + p.name() + " cannot recover; use "
                        + ProtocolRegistry.recovering());
                return 2;
            }
        }
        if (seeds < 1 || checkpoints < 1 || ranks < 2) {
            System.err.println("rewind bench chaos: --seeds and --checkpoints must be positive, --ranks at least 2");
            return 2;
        }
        Duration limit = timeout;
        Harness.Table t = new Harness.Table(
                "seed",
                "seed",
                0,
                "workload",
                "workload",
                0,
                "protocol",
                "protocol",
                0,
                "kills",
                "kills",
                0,
                "recoveries",
                "recoveries",
                0,
                "seconds",
                "seconds",
                2,
                "outcome",
                "outcome",
                0);
        List<String> failures = new ArrayList<>();
        for (BenchWorkload w : ws) {
            if (ranks < w.minRanks()) {
                continue;
            }
            Harness.Run ref =
                    new Harness.Run(w, sz, ranks, ProtocolRegistry.NONE, 0, keepLines, FailureSchedule.NONE, limit);
            JobResult base = ref.execute();
            String expected = Harness.resultLine(base, w.prefix());
            if (!base.ok() || expected == null) {
                System.err.print("rewind bench chaos: the failure-free run of " + w.cliName() + " failed\n  "
                        + ref.commandLine() + "\n" + base.describeFailures());
                return 1;
            }
            int iterations = w.iterations(sz);
            int every = Math.max(1, iterations / checkpoints);
            for (long seed = firstSeed; seed < firstSeed + seeds; seed++) {
                FailureSchedule schedule = FailureSchedule.chaos(seed, ranks, iterations);
                for (ProtocolDescriptor p : ps) {
                    Harness.Run run = new Harness.Run(w, sz, ranks, p, every, keepLines, schedule, limit);
                    JobResult r;
                    try {
                        // The runtime enforces the limit itself; this guard catches a runtime that does not.
                        r = CompletableFuture.supplyAsync(run::execute)
                                .get(timeout.toSeconds() + GRACE_SECONDS, TimeUnit.SECONDS);
                    } catch (TimeoutException | ExecutionException | InterruptedException e) {
                        System.err.printf(
                                "FAILED seed %d: %s under %s, kills %s: the runtime did not return within "
                                        + "%d s (%s)%n  replay: %s%n",
                                seed,
                                w.cliName(),
                                p.name(),
                                schedule,
                                timeout.toSeconds() + GRACE_SECONDS,
                                e,
                                run.commandLine());
                        return 1;
                    }
                    String got = Harness.resultLine(r, w.prefix());
                    String outcome;
                    if (r.exitCode() == 124) {
                        outcome = "hang";
                    } else if (!r.ok()) {
                        outcome = "error";
                    } else if (!expected.equals(got)) {
                        outcome = "wrong result";
                    } else {
                        outcome = "ok";
                    }
                    int recoveries =
                            r.report() == null ? 0 : r.report().failures().size();
                    if (outcome.equals("ok") && recoveries == 0) {
                        outcome = "ok, no kill struck"; // e.g. an operation count the rank never reached
                    }
                    t.add(
                            seed,
                            w.cliName(),
                            p.name(),
                            schedule.toString(),
                            (long) recoveries,
                            r.wallTime().toNanos() / 1e9,
                            outcome);
                    if (!outcome.startsWith("ok")) {
                        String msg = String.format(
                                "FAILED seed %d: %s under %s, kills %s: %s%n"
                                        + "  replay: rewind bench chaos --workloads %s --protocols %s -n %d --size %s "
                                        + "--checkpoints %d --keep-lines %d --first-seed %d --seeds 1%n"
                                        + "  or:     %s%n  expected: %s%n  got:      %s%n%s",
                                seed,
                                w.cliName(),
                                p.name(),
                                schedule,
                                outcome,
                                w.cliName(),
                                p.name(),
                                ranks,
                                size,
                                checkpoints,
                                keepLines,
                                seed,
                                run.commandLine(),
                                expected,
                                got,
                                r.describeFailures().indent(2));
                        failures.add(msg);
                        System.err.print(msg);
                    } else {
                        System.err.printf(
                                "  seed %d %s %s kills %s: ok (%d recoveries)%n",
                                seed, w.cliName(), p.name(), schedule, recoveries);
                    }
                }
            }
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("ranks", ranks);
        settings.put("size", sz.name().toLowerCase());
        settings.put("checkpoints_per_run", checkpoints);
        settings.put("keep_lines", keepLines);
        settings.put("timeout_s", timeout.toSeconds());
        settings.put("failed", failures.size());
        String cmd = "rewind bench chaos --workloads " + workloads + " --protocols " + protocols + " -n " + ranks
                + " --size " + size + " --first-seed " + firstSeed + " --seeds " + seeds;
        t.write(out, "chaos", cmd, settings);
        int runs = t.rows().size();
        if (!failures.isEmpty()) {
            System.out.println(failures.size() + " of " + runs + " chaos runs FAILED; see above for the seeds");
            return 1;
        }
        System.out.println("all " + runs + " chaos runs recovered to the failure-free result; wrote chaos.json, "
                + "chaos.csv and chaos.md in " + out);
        return 0;
    }
}
