package io.rewind.cli.tools;

import io.rewind.tools.cluster.ClusterFile;
import io.rewind.tools.cluster.Clustering;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Groups of ranks that must stay in one cluster: the ranks of one node. */
final class GroupOptions {

    @Option(
            names = "--ranks-per-node",
            paramLabel = "G",
            description = "Keep each block of G consecutive ranks (one node) in one cluster.")
    Integer ranksPerNode;

    @Option(
            names = "--groups",
            paramLabel = "FILE",
            description = "Cluster file whose clusters must each stay together (e.g. the node map).")
    Path groupsFile;

    /** The groups for {@code ranks} ranks, or null when none were asked for. */
    Clustering groups(int ranks) {
        if (ranksPerNode != null && groupsFile != null) {
            throw new ToolFailure("give --ranks-per-node or --groups, not both");
        }
        if (ranksPerNode != null) {
            if (ranksPerNode < 1) {
                throw new ToolFailure("--ranks-per-node must be at least 1");
            }
            return Clustering.blocksOf(ranks, ranksPerNode);
        }
        if (groupsFile != null) {
            Clustering g = ClusterFile.read(groupsFile);
            if (g.ranks() != ranks) {
                throw new ToolFailure(groupsFile + " covers " + g.ranks() + " ranks, the profile has " + ranks);
            }
            return g;
        }
        return null;
    }
}
