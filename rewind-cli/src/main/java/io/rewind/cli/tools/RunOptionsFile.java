package io.rewind.cli.tools;

import io.rewind.tools.cluster.ClusterFile;
import io.rewind.tools.cluster.Clustering;
import io.rewind.tools.plan.PlanOption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The options file {@code rewind plan --options-out} writes: the chosen configuration as {@code
 * rewind run} options, one per line, for picocli to expand from {@code rewind run -n N @FILE
 * PROGRAM}.
 *
 * <p>The cluster count picks the protocol the way the planner measured it: one cluster logs
 * nothing and rolls everyone back (coordinated checkpointing, {@code global}); one cluster per rank
 * logs every message (plain message logging, {@code pessimistic}); anything between is hierarchical
 * logging ({@code spbc}) with the measured partition in a cluster file next to the options file. A
 * log quota is only written with logger nodes: without loggers the plan predicts that every log fits,
 * and {@code rewind run} refuses a quota that nothing could dump to. A protocol that logs also gets
 * {@code --log-reserve}: the largest per-rank log the plan predicts (within the rank's quota), faulted
 * in when each log opens so that the log never waits for new memory while it grows.
 */
final class RunOptionsFile {

    /** What to write: the lines of the options file and, for spbc, the cluster file they name. */
    record Contents(List<String> lines, Path clusterFile, Clustering clustering) {}

    private RunOptionsFile() {}

    /** Where the cluster file goes: beside the options file, named after it. */
    static Path clusterFileFor(Path optionsFile) {
        Path absolute = optionsFile.toAbsolutePath().normalize();
        return absolute.resolveSibling(absolute.getFileName() + ".clusters");
    }

    /** Refuses a place no file can be written to before the plan is computed, not after. */
    static void checkWritable(Path optionsFile) {
        Path absolute = optionsFile.toAbsolutePath().normalize();
        if (absolute.toString().contains("\n") || absolute.toString().contains("\r")) {
            // Inside an @-file an argument ends at the end of its line, quoted or not.
            throw new ToolFailure("--options-out " + optionsFile + ": a path with a line break cannot be read back");
        }
        Path folder = absolute.getParent();
        if (folder == null || !Files.isDirectory(folder)) {
            throw new ToolFailure("--options-out " + optionsFile + ": the folder " + folder + " does not exist");
        }
        if (!Files.isWritable(folder)) {
            throw new ToolFailure("--options-out " + optionsFile + ": the folder " + folder + " is not writable");
        }
        for (Path p : List.of(absolute, clusterFileFor(optionsFile))) {
            if (Files.isDirectory(p)) {
                throw new ToolFailure("--options-out " + optionsFile + ": " + p + " is a folder");
            }
        }
    }

    /**
     * The options for a chosen plan.
     *
     * @param ranks         ranks of the profiled job (the run must have as many)
     * @param loggerMemory  the plan's {@code --logger-memory}, or null when it was not given
     * @param header        the comment lines saying what made the file
     */
    static Contents of(
            PlanOption chosen,
            Clustering clustering,
            int ranks,
            Double loggerMemory,
            Path optionsFile,
            List<String> header) {
        List<String> lines = new ArrayList<>();
        for (String h : header) {
            // A line break would end the comment and turn the rest into arguments.
            lines.add("# " + h.replaceAll("[\\r\\n]+", " "));
        }
        lines.add("# for " + ranks + " ranks: rewind run -n " + ranks + " @" + optionsFile + " PROGRAM [ARGS]");
        Path clusterFile = null;
        if (chosen.clusters() <= 1) {
            lines.add("--protocol global");
        } else if (chosen.clusters() >= ranks) {
            lines.add("--protocol pessimistic");
        } else {
            clusterFile = clusterFileFor(optionsFile);
            lines.add("--protocol spbc");
            lines.add("--clusters " + quote(clusterFile.toString()));
        }
        if (chosen.clusters() > 1) {
            // The log memory each rank is predicted to need, faulted in before the first message (never
            // more than its share of node memory: beyond that the loggers take it).
            long reserve = (long) Math.floor(Math.min(chosen.maxRankLogBytes(), chosen.quotaPerRankBytes()));
            if (reserve >= 1) {
                lines.add("--log-reserve " + reserve);
            }
        }
        if (chosen.loggers() > 0) {
            // rewind run keeps whole bytes; rounding down keeps the run within the planned share.
            long quota = (long) Math.floor(chosen.quotaPerRankBytes());
            if (quota < 1) {
                throw new ToolFailure("the chosen quota per rank is under one byte: raise --node-memory or --quotas");
            }
            lines.add("--log-quota " + quota);
            lines.add("--loggers " + chosen.loggers());
            if (loggerMemory != null) {
                lines.add("--logger-memory " + (long) Math.floor(loggerMemory));
            }
        }
        return new Contents(List.copyOf(lines), clusterFile, clusterFile == null ? null : clustering);
    }

    /** Writes the cluster file first, so an options file never names one that is missing. */
    static void write(Contents contents, Path optionsFile) {
        if (contents.clusterFile() != null) {
            ClusterFile.write(contents.clustering(), contents.clusterFile());
        }
        try {
            Files.write(optionsFile, contents.lines(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + optionsFile, e);
        }
    }

    /**
     * One argument as picocli reads it back from an @-file: bare when it has nothing the reader
     * treats specially, otherwise in double quotes, inside which a backslash escapes the next
     * character (whitespace separates arguments, '#' starts a comment, quotes group).
     */
    static String quote(String argument) {
        boolean plain =
                !argument.isEmpty() && argument.chars().allMatch(c -> c > ' ' && c < 127 && "\"'\\#".indexOf(c) < 0);
        if (plain) {
            return argument;
        }
        StringBuilder q = new StringBuilder("\"");
        for (char c : argument.toCharArray()) {
            if (c == '"' || c == '\\') {
                q.append('\\');
            }
            q.append(c);
        }
        return q.append('"').toString();
    }
}
