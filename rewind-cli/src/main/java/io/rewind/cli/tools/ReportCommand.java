package io.rewind.cli.tools;

import io.rewind.tools.cluster.ClusterFile;
import io.rewind.tools.cluster.ClusterRequest;
import io.rewind.tools.cluster.Clusterer;
import io.rewind.tools.cluster.Clustering;
import io.rewind.tools.profile.CommProfile;
import io.rewind.tools.profile.Traffic;
import io.rewind.tools.report.HtmlReport;
import io.rewind.tools.report.ReportInput;
import io.rewind.tools.report.RunRecord;
import io.rewind.tools.report.RunRecordJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code rewind report}: a self-contained HTML page with plots. */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        header = "Writes a self-contained HTML report with plots of a profile and a run record.",
        description = {
            "Writes one HTML page, from a profile, a run record or both, with the communication "
                    + "heatmap, the load curve with its Gini gap, the cluster map, the log growth per rank, the"
                    + " recovery timeline (every rank a recovery rolled back), the protocol comparison, and "
                    + "with --model or any model option the analytical model's curves. With a run record of a "
                    + "protocol that checkpoints by clusters, the cluster map is the run's own unless "
                    + "--clusters or --clustering asks for another."
        })
public final class ReportCommand extends ToolCommand {

    @Mixin
    InputOptions input;

    @Mixin
    GroupOptions groups;

    @Option(
            names = {"--run", "--run-record"},
            paramLabel = "FILE",
            description = "Run record JSON written by the runtime.")
    Path runRecord;

    @Option(
            names = {"-k", "--clusters"},
            paramLabel = "K",
            description = "Clusters for the cluster map (default: the run record's clusters, else one per node "
                    + "with --ranks-per-node, else 8).")
    Integer clusters;

    @Option(names = "--clustering", paramLabel = "FILE", description = "Use this cluster file for the cluster map.")
    Path clusteringFile;

    @Option(
            names = "--model",
            description = "Include the analytical model's projection (MCML against simple causal logging at "
                    + "scale), with the model options given or table VI's values; it describes a machine of "
                    + "the options, not the run.")
    boolean withModel;

    @Mixin
    ModelOptions model;

    @Option(names = "--title", defaultValue = "Rewind report", description = "Page title.")
    String title;

    @Option(
            names = {"-o", "--output"},
            defaultValue = "rewind-report.html",
            paramLabel = "FILE",
            description = "Where to write the page (default: ${DEFAULT-VALUE}).")
    Path output;

    @Override
    int execute() {
        if (!input.given() && runRecord == null) {
            throw new ToolFailure("give --input (a profile or matrix), --run-record, or both");
        }
        CommProfile profile = input.given() ? input.load() : null;
        RunRecord run = runRecord == null ? null : RunRecordJson.read(runRecord);
        Clustering clustering = null;
        if (profile != null) {
            if (clusteringFile != null) {
                clustering = ClusterFile.read(clusteringFile);
            } else if (clusters == null && run != null && run.clusterOf() != null) {
                if (run.clusterOf().length != profile.ranks()) {
                    throw new ToolFailure("the run record's clusters cover " + run.clusterOf().length
                            + " ranks, the profile has " + profile.ranks());
                }
                clustering = Clustering.ofLabels(run.clusterOf());
            } else {
                Clustering nodeGroups = groups.groups(profile.ranks());
                int k = clusters != null
                        ? clusters
                        : nodeGroups != null ? nodeGroups.count() : Math.min(8, profile.ranks());
                clustering = Clusterer.cluster(
                        profile.traffic(input.traffic),
                        ClusterRequest.intoClusters(k).keeping(nodeGroups));
            }
        }
        String html = HtmlReport.render(new ReportInput(
                title,
                profile,
                input.traffic == null ? Traffic.P2P : input.traffic,
                clustering,
                run,
                withModel || model.given() ? model.parameters() : null));
        try {
            Files.writeString(output, html);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + output, e);
        }
        out().printf("report written to %s (%d KiB)%n", output, html.length() / 1024);
        out().flush();
        return 0;
    }
}
