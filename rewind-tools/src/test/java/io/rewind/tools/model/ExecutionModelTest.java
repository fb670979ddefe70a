package io.rewind.tools.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ExecutionModelTest {

    /** Paper: at 512,000 sockets MCML cuts time by 2.7 % (omega 0.7) to 24.5 % (omega 0.3). */
    @Test
    void reproducesThePapersTimeProjection() {
        ModelParameters p = ModelParameters.tableVi();
        assertEquals(24.5, ExecutionModel.compare(p.withOmega(0.3)).timeReductionPercent(), 1.0);
        assertEquals(2.7, ExecutionModel.compare(p.withOmega(0.7)).timeReductionPercent(), 1.0);
    }

    /** Paper: and energy by 0.4 % (omega 0.7) to 15.9 % (omega 0.3). */
    @Test
    void reproducesThePapersEnergyProjection() {
        ModelParameters p = ModelParameters.tableVi();
        assertEquals(15.9, ExecutionModel.compare(p.withOmega(0.3)).energyReductionPercent(), 1.0);
        assertEquals(0.4, ExecutionModel.compare(p.withOmega(0.7)).energyReductionPercent(), 1.0);
    }

    @Test
    void optimalPeriodReallyMinimisesTime() {
        ModelParameters p = ModelParameters.tableVi();
        double tau = ExecutionModel.optimalPeriodMinutes(p);
        double best = ExecutionModel.evaluate(p, tau, 0).totalMinutes();
        for (double factor : new double[] {0.5, 0.8, 0.95, 1.05, 1.2, 2}) {
            assertTrue(ExecutionModel.evaluate(p, tau * factor, 0).totalMinutes() > best, "factor " + factor);
        }
    }

    @Test
    void partsAddUpAndFailureFreeLimitIsTheSolveTime() {
        ModelParameters p = ModelParameters.tableVi();
        TimeBreakdown t = ExecutionModel.evaluate(p, 20, 0.1);
        assertEquals(
                t.totalMinutes(),
                t.solveMinutes() + t.checkpointMinutes() + t.recoverMinutes() + t.restartMinutes(),
                1e-6);
        ModelParameters reliable = new ModelParameters(24, 1e9, 1, 5, 0.5, 1.05, 1.2, 0.5, 0.1, 100, 50);
        TimeBreakdown r = ExecutionModel.evaluate(reliable, 1e9, 0);
        assertEquals(24 * 60 * 1.05, r.totalMinutes(), 1e-2);
    }

    @Test
    void benefitGrowsWithScale() {
        ModelProjection proj = ModelProjection.sweep(
                ModelParameters.tableVi(), ModelProjection.PAPER_SOCKETS, ModelProjection.PAPER_OMEGAS);
        for (var row : proj.points()) {
            for (int i = 1; i < row.size(); i++) {
                assertTrue(row.get(i).relativeTime() <= row.get(i - 1).relativeTime() + 1e-12);
            }
        }
    }

    @Test
    void rejectsNonsense() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new ModelParameters(24, 40, 512_000, 5, 0.5, 0.9, 1.2, 0.5, 0.1, 100, 50));
        assertThrows(
                IllegalArgumentException.class,
                () -> new ModelParameters(24, 40, 512_000, 5, 0.5, 1.05, 1.2, 1.5, 0.1, 100, 50));
    }
}
