package io.rewind.tools.model;

/**
 * Inputs of the model, defaulting to table VI of the MCML paper. Units are in the names.
 *
 * @param workHours            W, failure-free time to solution without fault tolerance
 * @param socketMtbfYears      M_S, mean time between failures of one socket
 * @param sockets              S, number of sockets; the system MTBF is M_S / S
 * @param checkpointMinutes    delta, time to take one checkpoint
 * @param restartMinutes       R, time to restart after a failure (before re-execution)
 * @param loggingSlowdown      mu, failure-free slowdown of message logging
 * @param recoverySpeedup      phi, how much faster lost work is redone under message logging
 * @param omega                fraction of the optimal checkpoint period SCML can reach before
 *                             its log fills memory and forces a checkpoint
 * @param recoveringFraction   o, fraction of processes that roll back after a failure under MCML
 * @param highPowerWatts       H, power of a socket computing
 * @param lowPowerWatts        L, power of a socket waiting (checkpoint I/O, idle during recovery)
 */
public record ModelParameters(
        double workHours,
        double socketMtbfYears,
        long sockets,
        double checkpointMinutes,
        double restartMinutes,
        double loggingSlowdown,
        double recoverySpeedup,
        double omega,
        double recoveringFraction,
        double highPowerWatts,
        double lowPowerWatts) {

    /** Minutes in the year used for MTBFs (365 days). */
    public static final double MINUTES_PER_YEAR = 365.0 * 24 * 60;

    public ModelParameters {
        positive("workHours", workHours);
        positive("socketMtbfYears", socketMtbfYears);
        positive("sockets", sockets);
        positive("checkpointMinutes", checkpointMinutes);
        if (!(restartMinutes >= 0)) {
            throw new IllegalArgumentException("restartMinutes must be >= 0: " + restartMinutes);
        }
        if (!(loggingSlowdown >= 1)) {
            throw new IllegalArgumentException("loggingSlowdown (mu) must be >= 1: " + loggingSlowdown);
        }
        positive("recoverySpeedup", recoverySpeedup);
        if (!(omega > 0 && omega <= 1)) {
            throw new IllegalArgumentException("omega must be in (0, 1]: " + omega);
        }
        if (!(recoveringFraction >= 0 && recoveringFraction <= 1)) {
            throw new IllegalArgumentException("recoveringFraction (o) must be in [0, 1]: " + recoveringFraction);
        }
        if (!(highPowerWatts >= lowPowerWatts && lowPowerWatts >= 0)) {
            throw new IllegalArgumentException("need highPowerWatts >= lowPowerWatts >= 0");
        }
    }

    /** Table VI of the MCML paper, at its largest scale (512,000 sockets) and omega = 0.5. */
    public static ModelParameters tableVi() {
        return new ModelParameters(24, 40, 512_000, 5, 0.5, 1.05, 1.2, 0.5, 0.1, 100, 50);
    }

    public ModelParameters withSockets(long s) {
        return new ModelParameters(
                workHours,
                socketMtbfYears,
                s,
                checkpointMinutes,
                restartMinutes,
                loggingSlowdown,
                recoverySpeedup,
                omega,
                recoveringFraction,
                highPowerWatts,
                lowPowerWatts);
    }

    public ModelParameters withOmega(double w) {
        return new ModelParameters(
                workHours,
                socketMtbfYears,
                sockets,
                checkpointMinutes,
                restartMinutes,
                loggingSlowdown,
                recoverySpeedup,
                w,
                recoveringFraction,
                highPowerWatts,
                lowPowerWatts);
    }

    /** System mean time between failures in minutes: M = M_S / S. */
    public double systemMtbfMinutes() {
        return socketMtbfYears * MINUTES_PER_YEAR / sockets;
    }

    private static void positive(String name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be a positive number: " + value);
        }
    }
}
