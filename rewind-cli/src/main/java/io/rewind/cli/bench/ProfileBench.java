package io.rewind.cli.bench;

import io.rewind.engine.PeerLongs;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.RunReport;
import io.rewind.tools.analysis.GiniIndex;
import io.rewind.tools.profile.CommMatrix;
import io.rewind.tools.profile.CommProfile;
import io.rewind.tools.profile.ProfileWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rewind bench profile}: runs a workload (or any main class) once without fault tolerance
 * and writes its communication matrix, point-to-point and collective traffic apart, with each
 * rank's run time, in the {@code rewind-profile 1} format of docs/formats.md that
 * {@code rewind analyze}, {@code plan} and {@code report} read.
 */
@Command(
        name = "profile",
        mixinStandardHelpOptions = true,
        header = "Records the communication matrix of one run as a profile.",
        description = {
            "Records the communication matrix of one run: bytes and messages per ordered pair of "
                    + "ranks, point-to-point and collective apart, and each rank's run time, as a "
                    + "rewind-profile file (docs/formats.md) for rewind analyze, plan and report. Prints the "
                    + "totals and the Gini index of the bytes each rank sent."
        })
public final class ProfileBench implements Callable<Integer> {
    @Option(
            names = {"-n", "--ranks"},
            defaultValue = "8",
            description = "Ranks. Default: ${DEFAULT-VALUE}.")
    int ranks;

    @Option(
            names = "--size",
            defaultValue = "small",
            description = "Size of a named workload when no ARGS are given: " + BenchWorkload.SIZES
                    + ". Default: ${DEFAULT-VALUE}.")
    String size;

    @Option(
            names = {"-o", "--output"},
            description = "Profile file (default: runs/profile/WORKLOAD-N.profile).")
    Path output;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "600s",
            converter = io.rewind.cli.DurationConverter.class,
            description =
                    "How long the run may take, e.g. 90s or 10m (a bare number is seconds). Default: ${DEFAULT-VALUE}.")
    java.time.Duration timeout;

    @Parameters(
            index = "0",
            paramLabel = "WORKLOAD",
            description = "A workload name (stencil3d, cg, heat, amr, bfs, discovery, montecarlo, masterworker) or a "
                    + "main class on the class path.")
    String workload;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "Program arguments (default: the size's).")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        String main;
        List<String> programArgs = args;
        String name;
        if (workload.contains(".")) {
            main = workload;
            name = workload.substring(workload.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        } else {
            try {
                BenchWorkload w = BenchWorkload.byName(workload);
                main = w.mainClass();
                name = w.cliName();
                if (programArgs.isEmpty()) {
                    programArgs = w.args(BenchWorkload.parseSize(size));
                }
            } catch (IllegalArgumentException e) {
                System.err.println("rewind bench profile: " + e.getMessage());
                return 2;
            }
        }
        JobResult r = Job.run(JobConfig.builder(main)
                .ranks(ranks)
                .args(programArgs)
                .timeout(timeout)
                .quiet()
                .build());
        if (!r.ok()) {
            System.err.print("rewind bench profile: the run failed\n" + r.describeFailures());
            return 1;
        }
        CommProfile profile = profileOf(r.report());
        Path file = output != null ? output : Path.of("runs", "profile", name + "-" + ranks + ".profile");
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        ProfileWriter.write(profile, file);
        CommMatrix p2p = profile.p2p();
        CommMatrix coll = profile.collective();
        System.out.printf(Locale.ROOT, "%s on %d ranks, %.3f s%n", name, ranks, profile.durationSeconds());
        System.out.printf(
                Locale.ROOT,
                "point-to-point: %d bytes in %d messages over %d channels%n",
                p2p.totalBytes(),
                p2p.totalMessages(),
                p2p.channelCount());
        System.out.printf(
                Locale.ROOT,
                "collective:     %d bytes in %d messages over %d channels%n",
                coll.totalBytes(),
                coll.totalMessages(),
                coll.channelCount());
        System.out.printf(
                Locale.ROOT,
                "Gini index of bytes sent per rank: point-to-point %.3f, all %.3f%n",
                GiniIndex.of(p2p.bytesSent()),
                GiniIndex.of(p2p.plus(coll).bytesSent()));
        System.out.println("wrote " + file);
        return 0;
    }

    /** The run's traffic as a profile. */
    public static CommProfile profileOf(RunReport report) {
        RunReport.Traffic t = report.traffic();
        int n = report.ranks();
        return new CommProfile(
                n,
                matrix(t.p2pBytes(), t.p2pMessages()),
                matrix(t.collBytes(), t.collMessages()),
                t.rankSeconds().clone(),
                List.of());
    }

    private static CommMatrix matrix(PeerLongs[] bytes, PeerLongs[] messages) {
        CommMatrix.Builder b = new CommMatrix.Builder(bytes.length);
        for (int s = 0; s < bytes.length; s++) {
            for (int d = 0; d < bytes.length; d++) {
                long n = bytes[s].get(d);
                long m = messages[s].get(d);
                if (n != 0 || m != 0) {
                    b.add(s, d, n, m);
                }
            }
        }
        return b.build();
    }
}
