package io.rewind.cli.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code rewind bench}: groups the benchmark subcommands. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        header = "Measures the runtime on real jobs; see the subcommands.",
        description = "Measures the runtime on real jobs; see the subcommands.",
        subcommands = {
            PingPongBench.class,
            LoggingBench.class,
            OverheadBench.class,
            RecoveryBench.class,
            ClustersBench.class,
            ChaosBench.class,
            ProfileBench.class,
            McmlBench.class,
            LoggersBench.class,
            CommandLine.HelpCommand.class
        })
public final class BenchCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
