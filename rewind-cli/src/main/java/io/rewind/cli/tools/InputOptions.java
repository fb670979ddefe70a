package io.rewind.cli.tools;

import io.rewind.tools.profile.CommProfile;
import io.rewind.tools.profile.InputFormat;
import io.rewind.tools.profile.Traffic;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options naming a communication input; shared by every command that reads one. */
final class InputOptions {

    @Option(
            names = {"-i", "--input"},
            paramLabel = "FILE",
            description =
                    "Communication input: a Rewind profile, a dense N x N CSV of bytes, or an edge list src,dst,bytes[,count].")
    Path input;

    @Option(
            names = "--format",
            defaultValue = "AUTO",
            paramLabel = "FORMAT",
            description =
                    "Input format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}, decided from the content).")
    InputFormat format;

    @Option(
            names = "--counts",
            paramLabel = "FILE",
            description = "Dense CSV of message counts matching a dense CSV of bytes.")
    Path counts;

    @Option(
            names = "--ranks",
            defaultValue = "0",
            paramLabel = "N",
            description = "Rank count of an edge list (default: largest rank + 1).")
    int ranks;

    @Option(
            names = "--traffic",
            defaultValue = "P2P",
            paramLabel = "KIND",
            description =
                    "Traffic analysed: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}; collectives are logged per call, not per message).")
    Traffic traffic;

    boolean given() {
        return input != null;
    }

    CommProfile load() {
        if (input == null) {
            throw new ToolFailure("no input: give --input FILE");
        }
        return format.load(input, counts, ranks);
    }
}
