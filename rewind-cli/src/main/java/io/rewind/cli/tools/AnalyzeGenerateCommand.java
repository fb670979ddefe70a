package io.rewind.cli.tools;

import io.rewind.tools.profile.CommProfile;
import io.rewind.tools.profile.ProfileWriter;
import io.rewind.tools.profile.SyntheticProfiles;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rewind analyze generate}: synthetic profiles for demos and the 16,384-rank benchmark. */
@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        header = "Writes a synthetic profile: a 3-D stencil with hot spots, a 2-D grid, or cliques.",
        description = "Write a synthetic profile: a 3-D stencil with hot spots (skewed load), a 2-D grid, or cliques.")
final class AnalyzeGenerateCommand extends ToolCommand {

    enum Pattern {
        STENCIL3D,
        GRID2D,
        CLIQUES
    }

    @Option(
            names = "--pattern",
            defaultValue = "STENCIL3D",
            description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Pattern pattern;

    @Option(
            names = "--dims",
            defaultValue = "8x8x4",
            paramLabel = "AxBxC",
            description = "Stencil: PXxPYxPZ; grid: ROWSxCOLS; cliques: GROUPSxSIZE (default: ${DEFAULT-VALUE}).")
    String dims;

    @Option(names = "--seconds", defaultValue = "60", description = "Rank time written to the profile (stencil).")
    double seconds;

    @Option(names = "--seed", defaultValue = "1")
    long seed;

    @Option(
            names = {"-o", "--output"},
            required = true,
            paramLabel = "FILE")
    Path output;

    @Override
    int execute() {
        String[] parts = dims.toLowerCase(java.util.Locale.ROOT).split("x");
        int[] d = new int[parts.length];
        try {
            for (int i = 0; i < parts.length; i++) {
                d[i] = Integer.parseInt(parts[i]);
                if (d[i] < 1) {
                    throw new NumberFormatException();
                }
            }
        } catch (NumberFormatException e) {
            throw new ToolFailure("--dims must be positive numbers separated by 'x': " + dims);
        }
        int needed = pattern == Pattern.STENCIL3D ? 3 : 2;
        if (d.length != needed) {
            throw new ToolFailure(pattern + " needs " + needed + " dimensions, got '" + dims + "'");
        }
        CommProfile p =
                switch (pattern) {
                    case STENCIL3D -> SyntheticProfiles.stencil3d(d[0], d[1], d[2], 1 << 20, 3, 8.0, seconds, seed);
                    case GRID2D -> SyntheticProfiles.grid2d(d[0], d[1], 1 << 20);
                    case CLIQUES -> SyntheticProfiles.cliques(d[0], d[1], 1 << 20, 1 << 10, seed);
                };
        ProfileWriter.write(p, output);
        out().printf(
                        "wrote %s: %d ranks, %d point-to-point channels%n",
                        output, p.ranks(), p.p2p().channelCount());
        out().flush();
        return 0;
    }
}
