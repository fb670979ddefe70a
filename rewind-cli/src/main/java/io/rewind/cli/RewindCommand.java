package io.rewind.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code rewind} root command. */
@Command(
        name = "rewind",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Rewind: a pure-Java MPI runtime (Open MPI Java API) with message-logging fault "
                    + "tolerance. Ranks run as isolated threads of one JVM or as processes; a crashed rank "
                    + "restarts alone from its checkpoint while the others keep their progress.",
            ""
        },
        subcommands = {
            RunCommand.class,
            MpirunCommand.class,
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
        CommandLine cl = configure(new CommandLine(new RewindCommand()));
        // After the main class, every word is the program's (rewind run -n 4 Main --size 10), and a
        // 'java' word's JVM options are not rewind run's.
        cl.getSubcommands().get("run").setStopAtPositional(true);
        if (args.length > 0 && args[0].equals("mpirun")) {
            // Open MPI's one-dash long options (-np 4) are read by hand, not by picocli.
            return MpirunCommand.execute(
                    cl.getSubcommands().get("mpirun"), java.util.List.of(args).subList(1, args.length));
        }
        return cl.execute(args);
    }

    /** {@code cl} with the handlers and help width of every rewind command line. */
    static CommandLine configure(CommandLine cl) {
        cl.setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(RewindCommand::badInputOrBug)
                .setParameterExceptionHandler(RewindCommand::badOptions);
        int columns = columns(System.getenv("COLUMNS"));
        if (columns > 0) {
            cl.setUsageHelpWidth(columns);
        } else {
            cl.setUsageHelpAutoWidth(true); // the terminal's width, where one can be found
        }
        return cl;
    }

    /**
     * The width help is wrapped to, from {@code COLUMNS} as a shell exports it (0: not set, or not a
     * width: the terminal's own, or 80). Below 55 columns, picocli's own least.
     */
    static int columns(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            return Math.max(55, Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Options the command does not take, or a value it cannot read: the reason in one line, what the
     * user may have meant, and where the options are, instead of the whole usage. Exit status 2.
     */
    private static int badOptions(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        String name = cmd.getCommandSpec().qualifiedName();
        java.io.PrintWriter err = cmd.getErr();
        String reason = e.getMessage() == null
                ? e.toString()
                : e.getMessage().lines().findFirst().orElse("");
        err.println(name + ": " + reason);
        if (e instanceof CommandLine.UnmatchedArgumentException u
                && !u.getSuggestions().isEmpty()) {
            java.util.List<String> s = u.getSuggestions();
            err.println("Did you mean " + String.join(" or ", s.subList(0, Math.min(3, s.size()))) + "?");
        }
        err.println("See '" + name + " --help' for its options.");
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
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
