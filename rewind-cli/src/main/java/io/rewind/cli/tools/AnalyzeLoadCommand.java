package io.rewind.cli.tools;

import io.rewind.tools.analysis.LoadDistribution;
import io.rewind.tools.analysis.LoadKind;
import io.rewind.tools.cluster.ClusterFile;
import io.rewind.tools.cluster.Clustering;
import io.rewind.tools.cluster.ClusteringMetrics;
import io.rewind.tools.profile.CommMatrix;
import io.rewind.tools.profile.CommProfile;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code rewind analyze load}: per-rank load, Gini index, and the coverage of a clustering. */
@Command(
        name = "load",
        mixinStandardHelpOptions = true,
        header = "Per-rank communication load, its Gini index, and the coverage of a clustering.",
        description = {
            "The Gini index is computed as in the MCML paper, section III-A. With --clustering, also "
                    + "the coverage of that clustering: the share of the bytes that stay inside clusters."
        })
final class AnalyzeLoadCommand extends ToolCommand {

    @Mixin
    InputOptions input;

    @Option(names = "--clustering", paramLabel = "FILE", description = "Cluster file whose coverage to report.")
    Path clusteringFile;

    @Option(names = "--per-rank", description = "Also list every rank's load (text output).")
    boolean perRank;

    @Override
    int execute() {
        CommProfile profile = input.load();
        CommMatrix m = profile.traffic(input.traffic);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("ranks", m.ranks());
        result.put("channels", m.channelCount());
        result.put("totalBytes", m.totalBytes());
        result.put("totalMessages", m.totalMessages());
        result.put("durationSeconds", profile.durationSeconds());
        result.put("notes", profile.notes());
        Map<String, LoadDistribution> loads = new LinkedHashMap<>();
        for (LoadKind kind : LoadKind.values()) {
            loads.put(kind.name().toLowerCase(java.util.Locale.ROOT), LoadDistribution.of(m, kind));
        }
        result.put("load", loads);
        ClusteringMetrics coverage = null;
        if (clusteringFile != null) {
            Clustering c = ClusterFile.read(clusteringFile);
            if (c.ranks() != m.ranks()) {
                throw new ToolFailure(clusteringFile + " covers " + c.ranks() + " ranks, the profile has " + m.ranks());
            }
            coverage = ClusteringMetrics.of(m, c, profile.durationSeconds());
            result.put("clustering", coverage);
        }
        if (json) {
            printJson(result);
            return 0;
        }
        printNotes(profile);
        out().printf(
                        "ranks %d, channels %d, %s in %d messages (%s traffic)%n",
                        m.ranks(),
                        m.channelCount(),
                        TextTable.bytes(m.totalBytes()),
                        m.totalMessages(),
                        input.traffic.name().toLowerCase(java.util.Locale.ROOT));
        TextTable t = new TextTable("load", "gini", "mean", "max", "max/mean", "heaviest ranks");
        for (var e : loads.entrySet()) {
            LoadDistribution d = e.getValue();
            StringBuilder heavy = new StringBuilder();
            for (int i = 0; i < Math.min(5, d.heaviest().length); i++) {
                heavy.append(i == 0 ? "" : " ").append(d.heaviest()[i]);
            }
            t.row(
                    e.getKey(),
                    TextTable.f(d.gini(), 3),
                    TextTable.bytes(d.mean()),
                    TextTable.bytes(d.max()),
                    TextTable.f(d.peakToMean(), 2),
                    heavy);
        }
        t.print(out());
        if (coverage != null) {
            out().printf(
                            "clustering %s: %d clusters, coverage %.3f, logged %.1f %% of bytes%n",
                            clusteringFile, coverage.clusters(), coverage.coverage(), 100 * coverage.loggedFraction());
        }
        if (perRank) {
            long[] sent = loads.get("sent").perRank();
            long[] received = loads.get("received").perRank();
            TextTable r = new TextTable("rank", "sent", "received");
            for (int i = 0; i < sent.length; i++) {
                r.row(i, sent[i], received[i]);
            }
            r.print(out());
        }
        out().flush();
        return 0;
    }
}
