package io.rewind.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code rewind mpirun}: Open MPI's {@code mpirun} for Java programs. Its command line is read by
 * {@link MpirunArguments}, not by picocli (Open MPI's one-dash long options would read as clustered
 * short ones), and runs as {@code rewind run} with the arguments it maps to. The options listed in its
 * help are added from {@link MpirunArguments#OPTIONS} for the help alone.
 */
@Command(
        name = "mpirun",
        modelTransformer = MpirunCommand.HelpOptions.class,
        customSynopsis = {
            "rewind mpirun [OPTIONS] java [JVM_OPTIONS] -cp CLASSPATH MAIN [ARGS]",
            "       rewind mpirun [OPTIONS] java [JVM_OPTIONS] -jar JAR [ARGS]"
        },
        separator = " ",
        sortOptions = false,
        optionListHeading = "%nOpen MPI's options it takes (any of rewind run's may come too):%n",
        description = {
            "Runs a Java program on N ranks from Open MPI's mpirun command line, each rank a process of its " + "own.",
            "",
            "The ranks run on the hosts of --hostfile or -H, started over ssh; else, inside a Slurm allocation "
                    + "(SLURM_JOB_ID set), on its nodes, started with srun; else on this machine (--launch threads "
                    + "runs them as threads of this JVM instead). JVM options after 'java' (-Xmx2g, -Dk=v, -XX:..., "
                    + "--add-opens ..., -ea) go to every rank's JVM. Any 'rewind run' option (--protocol, "
                    + "--checkpoint-every, --kill, --launch, --rsh ...) may come before 'java'; see 'rewind run "
                    + "--help'. What it cannot honour (a binding, more ranks than slots without --oversubscribe, "
                    + "an Open MPI option not listed here) is refused with one line.",
            "",
            "Examples:",
            "  rewind mpirun -np 4 java -Xmx1g -cp app.jar com.example.Main arg1",
            "  rewind mpirun -np 8 --hostfile hosts -x OMP_NUM_THREADS=1 java -jar app.jar",
            "  rewind mpirun -np 4 --protocol pessimistic --kill 2@130 \\",
            "      java -cp app.jar com.example.Main",
            "",
            "bin/mpirun in the repository runs this command: with that folder first on PATH, mpirun is "
                    + "rewind mpirun."
        })
final class MpirunCommand implements Runnable {
    @CommandLine.Spec
    CommandSpec spec;

    /** Reached only through picocli (e.g. {@code rewind help mpirun}): the help. */
    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /**
     * Runs {@code words} (what follows {@code mpirun}); {@code self} is this command's {@link
     * CommandLine}, for its help.
     */
    static int execute(CommandLine self, List<String> words) {
        CommandLine runLine = new CommandLine(new RunCommand());
        MpirunArguments.Parsed parsed;
        List<String> runArgs;
        try {
            parsed = MpirunArguments.parse(words, runOptions(runLine.getCommandSpec()));
            if (parsed.help()) {
                self.usage(System.out);
                return 0;
            }
            if (parsed.version()) {
                System.out.println(new VersionProvider().getVersion()[0]);
                return 0;
            }
            for (String note : parsed.notes()) {
                System.err.println("rewind mpirun: " + note);
            }
            runArgs = MpirunArguments.toRun(
                    parsed,
                    new MpirunArguments.Surroundings(
                            System.getenv(),
                            Runtime.getRuntime().availableProcessors(),
                            Path.of(System.getProperty("java.io.tmpdir"))));
        } catch (IllegalArgumentException e) {
            System.err.println("rewind mpirun: " + e.getMessage());
            return 2;
        }
        // The job runs as rewind run, speaking as rewind mpirun in its messages.
        ((RunCommand) runLine.getCommand()).commandName = "rewind mpirun";
        runLine.getCommandSpec().name("rewind mpirun");
        RewindCommand.configure(runLine);
        runLine.setStopAtPositional(true);
        return runLine.execute(runArgs.toArray(new String[0]));
    }

    /** Each name of a {@code rewind run} option (negated forms too), and whether it takes a value. */
    private static Map<String, Boolean> runOptions(CommandSpec run) {
        Map<String, Boolean> names = new LinkedHashMap<>();
        for (OptionSpec o : run.options()) {
            if (o.usageHelp() || o.versionHelp()) {
                continue;
            }
            for (String n : o.names()) {
                names.put(n, o.arity().min() > 0);
            }
        }
        for (String n : run.negatedOptionsMap().keySet()) {
            names.put(n, false);
        }
        return names;
    }

    /** Adds the Open MPI options to the command's model, for its help: they are never parsed by picocli. */
    static final class HelpOptions implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            for (MpirunArguments.OpenMpiOption o : MpirunArguments.OPTIONS) {
                OptionSpec.Builder b = OptionSpec.builder(o.names().toArray(new String[0]))
                        .description(o.description().replace("%", "%%"));
                if (o.label() != null) {
                    b.paramLabel(o.label()).type(String.class);
                } else {
                    b.arity("0").type(boolean.class);
                }
                spec.addOption(b.build());
            }
            spec.addOption(OptionSpec.builder("-h", "--help")
                    .usageHelp(true)
                    .description("Show this help message and exit.")
                    .build());
            return spec;
        }
    }
}
