package io.rewind.cli.tools;

import io.rewind.tools.plan.LoggerPlan;
import io.rewind.tools.plan.LoggerPlanner;
import io.rewind.tools.plan.PlanOption;
import io.rewind.tools.plan.PlanRequest;
import io.rewind.tools.profile.CommMatrix;
import io.rewind.tools.profile.CommProfile;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code rewind plan}: clustering, memory quota and logger nodes for a run. */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        header = "Chooses the clustering, log quota and number of logger nodes for a run.",
        description = {
            "Picks a clustering, a memory quota for the message log and a number of logger nodes, by "
                    + "the procedure of 'Addressing the last roadblock for message logging in HPC' (section "
                    + "4.6), so that the loggers stay under a share of the nodes, and prints the whole "
                    + "trade-off table. --options-out FILE writes the choice as 'rewind run' options, for "
                    + "rewind run -n N @FILE PROGRAM."
        })
public final class PlanCommand extends ToolCommand {

    @Mixin
    InputOptions input;

    @Option(
            names = "--ranks-per-node",
            defaultValue = "1",
            paramLabel = "G",
            description = "Ranks per node, kept in one cluster (default: ${DEFAULT-VALUE}).")
    int ranksPerNode;

    @Option(
            names = "--node-memory",
            required = true,
            converter = ByteSizeConverter.class,
            paramLabel = "SIZE",
            description = "Memory of one node, e.g. 16GiB.")
    double nodeMemory;

    @Option(
            names = "--run",
            required = true,
            converter = SecondsConverter.class,
            paramLabel = "DURATION",
            description = "How long logs accumulate before a checkpoint frees them, e.g. 20m.")
    double runSeconds;

    @Option(
            names = "--profile-seconds",
            converter = SecondsConverter.class,
            paramLabel = "DURATION",
            description = "Length of the profiled run (default: the profile's longest rank-time).")
    Double profileSeconds;

    @Option(
            names = "--quotas",
            split = ",",
            paramLabel = "FRACTION",
            description = "Candidate shares of node memory for the log (default: 0.05,0.10,0.15,0.20,0.25).")
    double[] quotas = PlanRequest.DEFAULT_QUOTAS;

    @Option(
            names = "--cluster-counts",
            split = ",",
            paramLabel = "K",
            description = "Candidate cluster counts (default: 1, 2, 4, ... one per node, and one per rank).")
    int[] clusterCounts = new int[0];

    @Option(
            names = "--max-logger-fraction",
            defaultValue = "0.10",
            paramLabel = "FRACTION",
            description = "Loggers allowed as a share of the nodes (default: ${DEFAULT-VALUE}).")
    double maxLoggerFraction;

    @Option(
            names = "--logger-memory",
            converter = ByteSizeConverter.class,
            paramLabel = "SIZE",
            description = "Log capacity of one logger node (default: --node-memory).")
    Double loggerMemory;

    @Option(names = "--seed", defaultValue = "1")
    long seed;

    @Option(
            names = "--options-out",
            paramLabel = "FILE",
            description = "Write the chosen configuration as 'rewind run' options to FILE (for 'rewind run -n N "
                    + "@FILE PROGRAM') and, for hierarchical logging, its clusters to FILE.clusters.")
    Path optionsOut;

    @Override
    int execute() {
        if (optionsOut != null) {
            RunOptionsFile.checkWritable(optionsOut);
        }
        CommProfile profile = input.load();
        CommMatrix m = profile.traffic(input.traffic);
        double profiled = profileSeconds != null ? profileSeconds : profile.durationSeconds();
        if (Double.isNaN(profiled) || profiled <= 0) {
            throw new ToolFailure("the profile has no rank-time lines: give --profile-seconds");
        }
        PlanRequest request = new PlanRequest(
                ranksPerNode,
                nodeMemory,
                runSeconds,
                profiled,
                quotas,
                clusterCounts,
                maxLoggerFraction,
                loggerMemory == null ? nodeMemory : loggerMemory,
                seed);
        LoggerPlan plan = LoggerPlanner.plan(m, request);
        RunOptionsFile.Contents written =
                optionsOut == null || plan.chosen() == null ? null : writeOptions(plan, m.ranks());
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("request", request);
            doc.put("nodes", plan.nodes());
            doc.put("maxLoggers", plan.maxLoggers());
            doc.put("chosen", plan.chosen());
            doc.put("options", plan.options());
            if (written != null) {
                doc.put("optionsFile", optionsOut.toAbsolutePath().normalize().toString());
                doc.put("optionsFileLines", written.lines());
                Path clusterFile = written.clusterFile();
                doc.put("clusterFile", clusterFile == null ? null : clusterFile.toString());
            }
            printJson(doc);
            return statusAfterOutput(plan);
        }
        printNotes(profile);
        out().printf(
                        "%d ranks on %d nodes; logs accumulate for %.0f s (profile covers %.1f s); at most %d logger nodes%n",
                        m.ranks(), plan.nodes(), runSeconds, profiled, plan.maxLoggers());
        TextTable t = new TextTable(
                "clusters",
                "restart %",
                "max log/rank",
                "total log",
                "quota",
                "quota/rank",
                "to loggers",
                "loggers",
                "fits",
                "");
        for (PlanOption o : plan.options()) {
            t.row(
                    o.clusters(),
                    TextTable.f(100 * o.restartFraction(), 2),
                    TextTable.bytes(o.maxRankLogBytes()),
                    TextTable.bytes(o.totalLogBytes()),
                    TextTable.f(100 * o.quotaFraction(), 0) + " %",
                    TextTable.bytes(o.quotaPerRankBytes()),
                    TextTable.bytes(o.dumpedBytes()),
                    o.loggers(),
                    o.feasible() ? "yes" : "no",
                    o.equals(plan.chosen()) ? "<- chosen" : "");
        }
        t.print(out());
        PlanOption c = plan.chosen();
        if (c == null) {
            out().println("no configuration fits: raise --max-logger-fraction or the quotas, or shorten --run");
        } else {
            out().printf(
                            "chosen: %d clusters, %.0f %% of node memory for the log (%s per rank), %d logger node(s) for %s%n",
                            c.clusters(),
                            100 * c.quotaFraction(),
                            TextTable.bytes(c.quotaPerRankBytes()),
                            c.loggers(),
                            TextTable.bytes(c.dumpedBytes()));
        }
        if (written != null) {
            out().printf(
                            "run options written to %s%s: rewind run -n %d @%s PROGRAM [ARGS]%n",
                            optionsOut,
                            written.clusterFile() == null ? "" : " (clusters in " + written.clusterFile() + ")",
                            m.ranks(),
                            optionsOut);
        }
        out().flush();
        return statusAfterOutput(plan);
    }

    /** With --options-out, no feasible choice is a failure, after the table that shows why. */
    private int statusAfterOutput(LoggerPlan plan) {
        if (optionsOut != null && plan.chosen() == null) {
            throw new ToolFailure("no configuration fits, so --options-out " + optionsOut
                    + " was not written: raise --max-logger-fraction or the quotas, or shorten --run");
        }
        return 0;
    }

    /** Writes the chosen configuration for {@code rewind run}. */
    private RunOptionsFile.Contents writeOptions(LoggerPlan plan, int ranks) {
        PlanOption c = plan.chosen();
        String header = String.format(
                Locale.ROOT,
                "written by rewind plan -i %s: %d clusters, %.0f %% of node memory for the log (%s per rank), "
                        + "%d logger node(s)",
                input.input,
                c.clusters(),
                100 * c.quotaFraction(),
                TextTable.bytes(c.quotaPerRankBytes()),
                c.loggers());
        RunOptionsFile.Contents contents =
                RunOptionsFile.of(c, plan.chosenClustering(), ranks, loggerMemory, optionsOut, List.of(header));
        RunOptionsFile.write(contents, optionsOut);
        return contents;
    }
}
