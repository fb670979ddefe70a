package io.rewind.cli;

import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.RunReport;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rewind demo}: a real job loses a rank and recovers it locally. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        header = "Shows a job that loses a rank and recovers it locally.",
        description = {
            "Runs the fault-tolerant 2-D stencil twice on the same input: once without failures, once"
                    + " under the pessimistic protocol with one rank killed at 75%% of the run. Only the killed"
                    + " rank restarts from its checkpoint; the others replay its messages from their logs. "
                    + "Prints both checksums (they must be bit-identical) and the recovery timeline. With "
                    + "--launch local every rank is a process of its own and the victim's process is killed "
                    + "with SIGKILL."
        })
final class DemoCommand implements Callable<Integer> {
    @Option(
            names = {"-n", "--np"},
            defaultValue = "4",
            description = "Ranks (default: ${DEFAULT-VALUE}).")
    int ranks;

    @Option(names = "--size", defaultValue = "256", description = "Grid side (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--sweeps", defaultValue = "400", description = "Sweeps (default: ${DEFAULT-VALUE}).")
    int sweeps;

    @Option(
            names = "--launch",
            defaultValue = "threads",
            description = "threads (ranks are threads of this JVM, the default) or local (one process per "
                    + "rank, over TCP; the rank is killed with SIGKILL).")
    String launch;

    @Override
    public Integer call() {
        Launch processes;
        switch (launch) {
            case "threads" -> processes = null;
            case "local" -> processes = Launch.local(2);
            default -> {
                System.err.println("rewind demo: unknown --launch " + launch + " (expected threads or local)");
                return 2;
            }
        }
        if (ranks < 2 || size < ranks || sweeps < 8) {
            System.err.println("rewind demo: needs at least 2 ranks, --size >= ranks and --sweeps >= 8");
            return 2;
        }
        String main = "io.rewind.apps.workloads.Stencil2D";
        List<String> args = List.of(Integer.toString(size), Integer.toString(sweeps));
        int victim = ranks - 1;
        int killAt = sweeps * 3 / 4;
        int every = Math.max(1, sweeps / 5); // checkpoints at 20%, 40%, ... of the run
        System.out.printf("== rewind demo: %s %d x %d, %d sweeps, %d ranks%n", "Stencil2D", size, size, sweeps, ranks);
        System.out.println("== 1. failure-free run (protocol none)");
        JobResult clean = run(
                JobConfig.builder(main)
                        .ranks(ranks)
                        .args(args)
                        .timeout(Duration.ofMinutes(10))
                        .build(),
                processes);
        if (!clean.ok()) {
            System.err.print(clean.describeFailures());
            return clean.exitCode();
        }
        System.out.printf(
                "== 2. pessimistic logging, checkpoint every %d sweeps, rank %d killed at sweep %d%s%n",
                every, victim, killAt, processes == null ? "" : " (its process, with SIGKILL)");
        JobResult faulty = run(
                JobConfig.builder(main)
                        .ranks(ranks)
                        .args(args)
                        .timeout(Duration.ofMinutes(10))
                        .protocol("pessimistic")
                        .checkpointEvery(every)
                        .failures(FailureSchedule.parse(victim + "@" + killAt, ranks))
                        .build(),
                processes);
        if (!faulty.ok()) {
            System.err.print(faulty.describeFailures());
            return faulty.exitCode();
        }
        String a = checksum(clean);
        String b = checksum(faulty);
        RunReport report = faulty.report();
        System.out.println("== recovery");
        for (RunReport.FailureRecord f : report.failures()) {
            System.out.printf(Locale.ROOT, "   rank %d %s%n", f.rank(), f.how());
            System.out.printf(
                    Locale.ROOT,
                    "   restarted alone from checkpoint line %d (%d of %d ranks rolled back); "
                            + "peers replayed %d logged messages%n",
                    f.line(),
                    f.rollbackSet(),
                    ranks,
                    f.replayedFrames());
            System.out.printf(
                    Locale.ROOT,
                    "   detect %.1f ms | respawn %.1f ms | restore %.1f ms | replay to the " + "crash point %.1f ms%n",
                    f.detectMs(),
                    f.respawnMs(),
                    f.restoreMs(),
                    f.replayMs());
        }
        System.out.printf(
                Locale.ROOT,
                "   logged %d messages (%.1f KiB), %d checkpoints (%.1f KiB)%n",
                report.loggedEntries(),
                report.loggedBytes() / 1024.0,
                report.checkpoints(),
                report.checkpointBytes() / 1024.0);
        System.out.println("== checksums");
        System.out.println("   failure-free: " + a);
        System.out.println("   with a crash: " + b);
        boolean same = a.equals(b);
        System.out.printf(
                Locale.ROOT,
                "== %s (failure-free %.2f s, with crash and recovery %.2f s)%n",
                same ? "IDENTICAL: the crash was masked" : "MISMATCH",
                clean.wallTime().toNanos() / 1e9,
                faulty.wallTime().toNanos() / 1e9);
        return same ? 0 : 1;
    }

    private static JobResult run(JobConfig config, Launch processes) {
        return processes == null ? Job.run(config) : ProcessJob.run(config, processes);
    }

    private static String checksum(JobResult r) {
        for (String line : r.output(0)) {
            int i = line.indexOf("checksum=");
            if (i >= 0) {
                return line.substring(i);
            }
        }
        throw new IllegalStateException("no checksum in the output of rank 0");
    }
}
