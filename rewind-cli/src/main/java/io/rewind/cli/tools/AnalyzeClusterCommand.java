package io.rewind.cli.tools;

import io.rewind.tools.cluster.ClusterComparison;
import io.rewind.tools.cluster.ClusterFile;
import io.rewind.tools.cluster.ClusterRequest;
import io.rewind.tools.cluster.Clustering;
import io.rewind.tools.cluster.ClusteringMetrics;
import io.rewind.tools.profile.CommMatrix;
import io.rewind.tools.profile.CommProfile;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code rewind analyze cluster}: clustering that minimises logged volume, against contiguous blocks. */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        header = "Clusters ranks so that few bytes cross clusters, against contiguous blocks.",
        description = {
            "Clusters ranks so that as few bytes as possible cross clusters (those are the bytes a "
                    + "hierarchical protocol logs), optionally keeping the ranks of a node together; --balanced"
                    + " then lowers the largest per-rank log. Compares the result with contiguous blocks of "
                    + "ranks and can write a cluster file for hierarchical logging (rewind run --protocol spbc "
                    + "--clusters FILE)."
        })
final class AnalyzeClusterCommand extends ToolCommand {

    @Mixin
    InputOptions input;

    @Mixin
    GroupOptions groups;

    static final class Size {
        @Option(
                names = {"-k", "--clusters"},
                paramLabel = "K",
                description = "Number of clusters.")
        Integer clusters;

        @Option(names = "--max-size", paramLabel = "S", description = "Largest cluster in ranks (the count follows).")
        Integer maxSize;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Size size;

    @Option(names = "--balanced", description = "Minimise the largest per-rank log after the total logged volume.")
    boolean balanced;

    @Option(names = "--seed", defaultValue = "1", description = "Partitioner seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Write the cluster file here.")
    Path output;

    @Override
    int execute() {
        CommProfile profile = input.load();
        CommMatrix m = profile.traffic(input.traffic);
        ClusterRequest request = size.clusters != null
                ? ClusterRequest.intoClusters(size.clusters)
                : ClusterRequest.withMaxSize(size.maxSize);
        request = request.keeping(groups.groups(m.ranks())).balanced(balanced).seeded(seed);
        long start = System.nanoTime();
        ClusterComparison result = ClusterComparison.run(m, request, profile.durationSeconds());
        double seconds = (System.nanoTime() - start) / 1e9;
        if (output != null) {
            ClusterFile.write(result.clustering(), output);
        }
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("ranks", m.ranks());
            doc.put("balanced", balanced);
            doc.put("computed", result.computed());
            doc.put("contiguous", result.contiguous());
            doc.put("clusterOf", result.clustering().clusterOf());
            doc.put("clusterFile", output == null ? null : output.toString());
            doc.put("seconds", seconds);
            printJson(doc);
            return 0;
        }
        printNotes(profile);
        Clustering c = result.clustering();
        out().printf(
                        "%d ranks into %d clusters (largest %d ranks)%s, %.2f s%n",
                        m.ranks(), c.count(), c.maxSize(), balanced ? ", balanced" : "", seconds);
        TextTable t = new TextTable(
                "clustering",
                "logged bytes",
                "logged %",
                "coverage",
                "restart % per failure",
                "max log/rank",
                "avg log/rank",
                "max log rate",
                "avg log rate");
        row(t, balanced ? "min-cut + balanced" : "min-cut", result.computed());
        row(t, "contiguous blocks", result.contiguous());
        t.print(out());
        if (output != null) {
            out().println("cluster file written to " + output);
        }
        out().flush();
        return 0;
    }

    private static void row(TextTable t, String name, ClusteringMetrics x) {
        t.row(
                name,
                TextTable.bytes(x.loggedBytes()),
                TextTable.f(100 * x.loggedFraction(), 2),
                TextTable.f(x.coverage(), 3),
                TextTable.f(100 * x.restartFraction(), 2),
                TextTable.bytes(x.maxLogBytes()),
                TextTable.bytes(x.avgLogBytes()),
                Double.isNaN(x.maxLogBytesPerSec()) ? "n/a" : TextTable.bytes(x.maxLogBytesPerSec()) + "/s",
                Double.isNaN(x.avgLogBytesPerSec()) ? "n/a" : TextTable.bytes(x.avgLogBytesPerSec()) + "/s");
    }
}
