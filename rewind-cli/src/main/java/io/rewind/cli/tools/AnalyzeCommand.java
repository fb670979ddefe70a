package io.rewind.cli.tools;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code rewind analyze}: the analyses of a communication profile. */
@Command(
        name = "analyze",
        mixinStandardHelpOptions = true,
        header = "Analyses a communication profile: load, clustering, MCML channel switch-off.",
        description = "Analyse a communication profile: load and Gini index, clustering, MCML channel switch-off.",
        subcommands = {
            AnalyzeLoadCommand.class,
            AnalyzeClusterCommand.class,
            AnalyzeMcmlCommand.class,
            AnalyzeGenerateCommand.class,
            CommandLine.HelpCommand.class
        })
public final class AnalyzeCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
