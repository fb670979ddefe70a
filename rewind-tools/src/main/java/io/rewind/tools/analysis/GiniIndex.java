package io.rewind.tools.analysis;

import java.util.Arrays;

/**
 * The Gini index of a per-rank load distribution, with the definition of the MCML paper
 * ("Memory-constrained message logging", section III-A): sort ranks by increasing load, let
 * F(x) be the share of the total load carried by the lightest fraction x of ranks (the Lorenz
 * curve, linear between ranks) and I(x) = x the curve of a perfectly even load. With A the area
 * between I and F and B the area under F, G = A / (A + B). Since A + B = 1/2, G = 1 - 2B.
 *
 * <p>With n ranks this gives 0 for equal loads and (n-1)/n when one rank carries everything
 * (F stays at 0 until the last rank), the discrete form of the usual coefficient. An all-zero
 * distribution has no inequality and gives 0.
 */
public final class GiniIndex {

    private GiniIndex() {}

    public static double of(long[] loads) {
        double[] d = new double[loads.length];
        for (int i = 0; i < loads.length; i++) {
            d[i] = loads[i];
        }
        return of(d);
    }

    public static double of(double[] loads) {
        double[] lorenz = lorenzCurve(loads);
        int n = loads.length;
        if (n == 0 || lorenz[n] == 0) {
            return 0.0;
        }
        // Trapezoid area under the piecewise-linear Lorenz curve, each step of width 1/n.
        double underCurve = 0;
        for (int k = 1; k <= n; k++) {
            underCurve += (lorenz[k - 1] + lorenz[k]) / 2.0;
        }
        underCurve /= n;
        return Math.max(0.0, 1.0 - 2.0 * underCurve);
    }

    /**
     * The Lorenz curve at x = k/n for k = 0..n: cumulative share of the load carried by the k
     * lightest ranks. Element 0 is 0; element n is 1 (or 0 when there is no load at all).
     */
    public static double[] lorenzCurve(double[] loads) {
        double[] sorted = loads.clone();
        Arrays.sort(sorted);
        double total = 0;
        for (double v : sorted) {
            if (v < 0 || Double.isNaN(v)) {
                throw new IllegalArgumentException("loads must be non-negative numbers");
            }
            total += v;
        }
        double[] curve = new double[sorted.length + 1];
        if (total == 0) {
            return curve;
        }
        double running = 0;
        for (int i = 0; i < sorted.length; i++) {
            running += sorted[i];
            curve[i + 1] = running / total;
        }
        curve[sorted.length] = 1.0;
        return curve;
    }
}
