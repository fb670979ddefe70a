package io.rewind.cli;

import io.rewind.runtime.JobConfig;
import io.rewind.runtime.watch.JobWatch;
import io.rewind.runtime.watch.StatusLine;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options of {@code rewind run} that say how a running job is watched: its status line, its JFR
 * recording, and where its summary goes.
 */
final class WatchOptions {
    @Option(
            names = "--jfr",
            paramLabel = "FILE",
            description = "Record the job with JFR into FILE (JFR's default settings and Rewind's own events, "
                    + "category Rewind: checkpoints, failures, recovery phases, MPI activity): the launcher's "
                    + "recording followed by every rank process's (those on this machine; a rank process killed "
                    + "by a crash loses its own), each rank's also kept as written in FILE.ranks. 'jfr summary FILE' and "
                    + "Mission Control read it.")
    Path jfr;

    @Option(
            names = {"-q", "--quiet"},
            description = "No status line and no summary on standard error (a --summary-file is still "
                    + "written); failures and recoveries are still announced.")
    boolean quiet;

    @Option(
            names = "--no-status",
            description = "No live status line (elapsed time, ranks running, the point reached, checkpoints, "
                    + "failures and recoveries), which is otherwise redrawn on standard error when it is a "
                    + "terminal.")
    boolean noStatus;

    @Option(
            names = "--summary-file",
            paramLabel = "FILE",
            description = "Write the run summary to FILE (as well as to standard error when it is printed there).")
    Path summaryFile;

    private StatusLine status;

    /**
     * The job's watch, made before its configuration is built: on a terminal, and unless told not to,
     * the status line's streams become standard output and error, and the job's.
     */
    JobWatch watch(String name, int ranks, JobConfig.Builder config) {
        JobWatch[] watch = new JobWatch[1];
        if (!quiet && !noStatus && StatusLine.onTerminal()) {
            status = new StatusLine(
                    System.out, System.err, () -> watch[0].figures().statusText(), StatusLine.terminalWidth());
            System.setOut(status.out());
            System.setErr(status.err());
            config.output(status.out(), status.err());
        }
        watch[0] = new JobWatch(name, ranks, status, jfr);
        return watch[0];
    }

    /**
     * The run summary: on standard error when {@code wanted} (asked for, or a job with failures) and not
     * {@code --quiet}, and into {@code --summary-file}. False if the file cannot be written (said on
     * standard error).
     */
    boolean summary(String text, boolean wanted) {
        if (wanted && !quiet) {
            System.err.println(text);
        }
        if (summaryFile == null) {
            return true;
        }
        try {
            Files.writeString(summaryFile, text + System.lineSeparator(), StandardCharsets.UTF_8);
            return true;
        } catch (IOException e) {
            PrintStream err = System.err;
            err.println("rewind run: cannot write the summary " + summaryFile + ": " + e.getMessage());
            return false;
        }
    }
}
