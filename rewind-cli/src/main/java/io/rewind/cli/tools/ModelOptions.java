package io.rewind.cli.tools;

import io.rewind.tools.model.ModelParameters;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The inputs of the analytical model (the MCML paper's section VI), shared by {@code rewind model}
 * and {@code rewind report}; the defaults are the paper's table VI.
 */
final class ModelOptions {

    /** The command these options are part of, whose parse result says which were given. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** These options alone. */
    @Spec
    CommandSpec own;

    @Option(
            names = "--work-hours",
            defaultValue = "24",
            description = "W, failure-free time to solution (h) (default: ${DEFAULT-VALUE}).")
    double workHours;

    @Option(
            names = "--socket-mtbf-years",
            defaultValue = "40",
            description = "M_S, MTBF of one socket (years) (default: ${DEFAULT-VALUE}).")
    double socketMtbfYears;

    @Option(names = "--sockets", defaultValue = "512000", description = "S, sockets (default: ${DEFAULT-VALUE}).")
    long sockets;

    @Option(
            names = "--checkpoint-minutes",
            defaultValue = "5",
            description = "delta, checkpoint time (min) (default: ${DEFAULT-VALUE}).")
    double checkpointMinutes;

    @Option(
            names = "--restart-minutes",
            defaultValue = "0.5",
            description = "R, restart time (min) (default: ${DEFAULT-VALUE}).")
    double restartMinutes;

    @Option(
            names = "--slowdown",
            defaultValue = "1.05",
            description = "mu, message-logging slowdown (default: ${DEFAULT-VALUE}).")
    double slowdown;

    @Option(
            names = "--recovery-speedup",
            defaultValue = "1.2",
            description = "phi, recovery speedup (default: ${DEFAULT-VALUE}).")
    double recoverySpeedup;

    @Option(
            names = "--omega",
            defaultValue = "0.5",
            description = "omega, fraction of the optimal period SCML reaches (default: ${DEFAULT-VALUE}).")
    double omega;

    @Option(
            names = "--recovering-fraction",
            defaultValue = "0.1",
            description = "o, fraction of processes MCML rolls back (default: ${DEFAULT-VALUE}).")
    double recoveringFraction;

    @Option(
            names = "--high-watts",
            defaultValue = "100",
            description = "H, high power level (W) (default: ${DEFAULT-VALUE}).")
    double highWatts;

    @Option(
            names = "--low-watts",
            defaultValue = "50",
            description = "L, low power level (W) (default: ${DEFAULT-VALUE}).")
    double lowWatts;

    /** The model's inputs: the options given, table VI for the rest. */
    ModelParameters parameters() {
        return new ModelParameters(
                workHours,
                socketMtbfYears,
                sockets,
                checkpointMinutes,
                restartMinutes,
                slowdown,
                recoverySpeedup,
                omega,
                recoveringFraction,
                highWatts,
                lowWatts);
    }

    /** Whether any of the model's options was given on the command line. */
    boolean given() {
        var parsed = command.commandLine().getParseResult();
        for (OptionSpec o : own.options()) {
            if (parsed.hasMatchedOption(o.longestName())) {
                return true;
            }
        }
        return false;
    }
}
