package io.rewind.tools.model;

/**
 * Expected execution of one protocol configuration. Times in minutes, energy in joules
 * summed over all sockets.
 *
 * @param periodMinutes     checkpoint period tau used
 * @param totalMinutes      T = solve + checkpoint + recover + restart
 * @param solveMinutes      useful work, W times the logging slowdown
 * @param checkpointMinutes time spent taking checkpoints
 * @param recoverMinutes    time spent redoing work lost to failures
 * @param restartMinutes    time spent restarting after failures
 * @param energyJoules      energy of the whole machine
 */
public record TimeBreakdown(
        double periodMinutes,
        double totalMinutes,
        double solveMinutes,
        double checkpointMinutes,
        double recoverMinutes,
        double restartMinutes,
        double energyJoules) {

    /** True when failures come faster than the run can progress (the model has no solution). */
    public boolean diverges() {
        return Double.isInfinite(totalMinutes);
    }

    public double energyMegawattHours() {
        return energyJoules / 3.6e9;
    }
}
