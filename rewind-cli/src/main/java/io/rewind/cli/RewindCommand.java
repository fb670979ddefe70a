package io.rewind.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code rewind} root command. */
@Command(
        name = "rewind",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Rewind: a pure-Java MPI runtime (Open MPI Java API) with message-logging fault tolerance.",
            "Ranks run as isolated threads of one JVM; a crashed rank restarts alone from its checkpoint",
            "while the others keep their progress.",
            ""
        },
        subcommands = {
            RunCommand.class,
            DemoCommand.class,
            ProtocolsCommand.class,
            io.rewind.cli.bench.BenchCommand.class,
            CalibrateCommand.class,
            io.rewind.cli.tools.AnalyzeCommand.class,
            io.rewind.cli.tools.ModelCommand.class,
            io.rewind.cli.tools.PlanCommand.class,
            io.rewind.cli.tools.ReportCommand.class,
            CommandLine.HelpCommand.class
        })
public final class RewindCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs a command line and returns its exit status (for tests and the launcher). */
    public static int execute(String... args) {
        return new CommandLine(new RewindCommand())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(RewindCommand::badInputOrBug)
                .execute(args);
    }

    /**
     * A setting refused once a command is under way (a folder that cannot be created, say) is the
     * user's input, not a bug: one line and exit status 2, as for options refused up front. Anything
     * else is reported with its stack trace.
     */
    private static int badInputOrBug(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) throws Exception {
        if (!(e instanceof IllegalArgumentException)) {
            throw e;
        }
        Throwable cause = e.getCause();
        cmd.getErr()
                .println(cmd.getCommandSpec().qualifiedName() + ": " + e.getMessage()
                        + (cause != null ? " (" + cause + ")" : ""));
        return 2;
    }
}
