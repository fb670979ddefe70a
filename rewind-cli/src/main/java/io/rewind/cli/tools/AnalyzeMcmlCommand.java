package io.rewind.cli.tools;

import io.rewind.tools.mcml.Dendrogram;
import io.rewind.tools.mcml.McmlAnalysis;
import io.rewind.tools.mcml.SwitchOffStrategy;
import io.rewind.tools.profile.CommMatrix;
import io.rewind.tools.profile.CommProfile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code rewind analyze mcml}: channel switch-off under a log budget, rollback set and chain. */
@Command(
        name = "mcml",
        mixinStandardHelpOptions = true,
        header = "Channels MCML switches off under a log budget, with the rollback sets they cost.",
        description = {
            "Memory-constrained message logging: with a per-rank log budget of theta %% of the "
                    + "largest log under full logging, switches channels off (the heaviest link first, or the "
                    + "nearest in a dendrogram first) and reports the average rollback set and rollback chain "
                    + "after one failure, in %% of ranks."
        })
final class AnalyzeMcmlCommand extends ToolCommand {

    enum Strategy {
        HEAVIEST,
        DENDROGRAM,
        DENDROGRAM_CONTIGUOUS
    }

    @Mixin
    InputOptions input;

    @Option(
            names = "--theta",
            split = ",",
            defaultValue = "30,40,50,60,70",
            paramLabel = "PERCENT",
            description = "Thresholds in %% of the largest full-logging log (default: ${DEFAULT-VALUE}).")
    double[] thetas;

    @Option(
            names = "--strategy",
            split = ",",
            defaultValue = "HEAVIEST,DENDROGRAM",
            paramLabel = "S",
            description = "Strategies: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}). DENDROGRAM clusters by "
                    + "communication; DENDROGRAM_CONTIGUOUS by rank ranges.")
    List<Strategy> strategies;

    @Option(
            names = "--quota",
            split = ",",
            paramLabel = "SIZE",
            converter = ByteSizeConverter.class,
            description = "Budgets per rank in bytes (for example 48KiB), instead of --theta: what a run with "
                    + "'--protocol mcml --log-quota SIZE' would switch off.")
    List<Double> quotas;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the dendrogram's partitioner.")
    long seed;

    @Option(
            names = "--dendrogram-out",
            paramLabel = "FILE",
            description = "Write the communication dendrogram (the DENDROGRAM strategy's) to FILE, for "
                    + "'rewind run --protocol mcml --switch-off dendrogram:FILE'.")
    java.nio.file.Path dendrogramOut;

    @Override
    int execute() {
        CommProfile profile = input.load();
        CommMatrix m = profile.traffic(input.traffic);
        List<SwitchOffStrategy> chosen = new ArrayList<>();
        for (Strategy s : strategies) {
            chosen.add(
                    switch (s) {
                        case HEAVIEST -> new SwitchOffStrategy.HeaviestLinkFirst();
                        case DENDROGRAM -> new SwitchOffStrategy.DendrogramNearestFirst(
                                Dendrogram.fromCommunication(m, seed));
                        case DENDROGRAM_CONTIGUOUS -> new SwitchOffStrategy.DendrogramNearestFirst(
                                Dendrogram.contiguous(m.ranks()));
                    });
        }
        if (dendrogramOut != null) {
            try {
                java.nio.file.Files.writeString(
                        dendrogramOut,
                        io.rewind.ft.mcml.SwitchOffOrder.dendrogramText(
                                Dendrogram.fromCommunication(m, seed).paths()));
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("cannot write " + dendrogramOut + ": " + e.getMessage(), e);
            }
        }
        long start = System.nanoTime();
        McmlAnalysis a = quotas == null
                ? McmlAnalysis.run(m, thetas, chosen)
                : McmlAnalysis.runForBudgets(
                        m, quotas.stream().mapToLong(Double::longValue).toArray(), chosen);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("ranks", m.ranks());
            doc.put("fullLogMaxBytes", a.fullLogMaxBytes());
            doc.put("rows", a.rows());
            doc.put("seconds", seconds);
            printJson(doc);
            return 0;
        }
        printNotes(profile);
        out().printf(
                        "%d ranks; largest per-rank log under full logging %s; %.2f s%n",
                        m.ranks(), TextTable.bytes(a.fullLogMaxBytes()), seconds);
        TextTable t = new TextTable(
                "strategy",
                "theta %",
                "budget/rank",
                "channels off",
                "unlogged %",
                "avg rollback set %",
                "avg rollback chain %",
                "max set (ranks)",
                "measured");
        for (McmlAnalysis.Row r : a.rows()) {
            t.row(
                    r.strategy(),
                    TextTable.f(r.thetaPercent(), 0),
                    TextTable.bytes(r.thresholdBytes()),
                    r.channelsOff(),
                    TextTable.f(100 * r.unloggedFraction(), 2),
                    TextTable.f(r.rollback().avgSetPercent(), 2),
                    TextTable.f(r.rollback().avgChainPercent(), 2),
                    r.rollback().maxSetSize(),
                    r.rollback().sampled() ? r.rollback().sampledRanks() + " sampled" : "all");
        }
        t.print(out());
        out().flush();
        return 0;
    }
}
