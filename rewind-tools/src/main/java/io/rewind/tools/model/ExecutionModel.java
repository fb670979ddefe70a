package io.rewind.tools.model;

/**
 * The execution-time and energy model used by the MCML paper's section VI (built there on the
 * time model of Meneses, Ni and Kale's message-logging work and the energy model of Meneses,
 * Sarood and Kale's study of the energy of fault-tolerance protocols). The paper states the
 * decomposition T = T_solve + T_checkpoint + T_recover + T_restart and its parameters but not
 * every formula; the closed forms below are our reconstruction, documented in docs/tools.md:
 *
 * <pre>
 *   M            = M_S / S                              system MTBF
 *   T_solve      = mu W
 *   T_checkpoint = (T_solve / tau) delta                one checkpoint per period of work
 *   T_recover    = (T / M) (tau + delta) / (2 phi)      half a period lost per failure, redone phi times faster
 *   T_restart    = (T / M) R
 *   T            = mu W (1 + delta / tau) / (1 - (tau + delta) / (2 phi M) - R / M)
 *   tau*         = sqrt(2 phi delta (M - R)) - delta    from dT / dtau = 0
 *   E / S        = H T_solve + L T_checkpoint + P_rec T_recover + L T_restart
 *   P_rec        = f H + (1 - f) L,  f = fraction of sockets re-executing (1/S for SCML, o for MCML)
 * </pre>
 *
 * Checkpointing and restarting are I/O-bound, so sockets draw the low power; during recovery
 * only the re-executing sockets compute while the others wait at low power.
 */
public final class ExecutionModel {

    private ExecutionModel() {}

    /** The checkpoint period minimising T. */
    public static double optimalPeriodMinutes(ModelParameters p) {
        double m = p.systemMtbfMinutes();
        double delta = p.checkpointMinutes();
        double inside = 2 * p.recoverySpeedup() * delta * (m - p.restartMinutes());
        double tau = Math.sqrt(Math.max(0, inside)) - delta;
        // Failures so frequent that no positive period is optimal: checkpoint as often as possible.
        return Math.max(tau, delta * 1e-3);
    }

    /** Expected execution with period {@code tau} and the given fraction of re-executing sockets. */
    public static TimeBreakdown evaluate(ModelParameters p, double tauMinutes, double reexecutingFraction) {
        double m = p.systemMtbfMinutes();
        double delta = p.checkpointMinutes();
        double solve = p.loggingSlowdown() * p.workHours() * 60;
        double checkpoint = solve / tauMinutes * delta;
        double lossPerFailure = (tauMinutes + delta) / (2 * p.recoverySpeedup());
        double denominator = 1 - lossPerFailure / m - p.restartMinutes() / m;
        if (denominator <= 0) {
            double inf = Double.POSITIVE_INFINITY;
            return new TimeBreakdown(tauMinutes, inf, solve, checkpoint, inf, inf, inf);
        }
        double total = (solve + checkpoint) / denominator;
        double failures = total / m;
        double recover = failures * lossPerFailure;
        double restart = failures * p.restartMinutes();
        double f = Math.max(reexecutingFraction, 1.0 / p.sockets());
        double recoverPower = f * p.highPowerWatts() + (1 - f) * p.lowPowerWatts();
        double perSocketWattMinutes = p.highPowerWatts() * solve
                + p.lowPowerWatts() * checkpoint
                + recoverPower * recover
                + p.lowPowerWatts() * restart;
        double joules = perSocketWattMinutes * 60 * p.sockets();
        return new TimeBreakdown(tauMinutes, total, solve, checkpoint, recover, restart, joules);
    }

    /**
     * MCML against SCML at the parameters' scale: SCML checkpoints every omega tau* (its log fills
     * memory first) and only the failed socket re-executes; MCML keeps the optimal period and
     * rolls back a fraction o of the sockets.
     */
    public static Comparison compare(ModelParameters p) {
        double tau = optimalPeriodMinutes(p);
        TimeBreakdown scml = evaluate(p, p.omega() * tau, 1.0 / p.sockets());
        TimeBreakdown mcml = evaluate(p, tau, p.recoveringFraction());
        return new Comparison(p, tau, scml, mcml);
    }

    /**
     * @param optimalPeriodMinutes tau*
     * @param scml                 SCML at omega tau*
     * @param mcml                 MCML at tau*
     */
    public record Comparison(
            ModelParameters parameters, double optimalPeriodMinutes, TimeBreakdown scml, TimeBreakdown mcml) {

        /** MCML time over SCML time. */
        public double relativeTime() {
            return mcml.totalMinutes() / scml.totalMinutes();
        }

        public double relativeEnergy() {
            return mcml.energyJoules() / scml.energyJoules();
        }

        /** Percentage by which MCML shortens the run (the paper's "reduces the execution time by"). */
        public double timeReductionPercent() {
            return 100 * (1 - relativeTime());
        }

        public double energyReductionPercent() {
            return 100 * (1 - relativeEnergy());
        }
    }
}
