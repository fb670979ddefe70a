package io.rewind.tools.report;

import java.util.ArrayList;
import java.util.List;

/** Maps data values to pixels, linear or base-10 logarithmic, with "nice" tick values. */
final class Scale {

    private final double lo;
    private final double hi;
    private final double p0;
    private final double p1;
    private final boolean log;

    private Scale(double lo, double hi, double p0, double p1, boolean log) {
        this.lo = lo;
        this.hi = hi;
        this.p0 = p0;
        this.p1 = p1;
        this.log = log;
    }

    /** Linear scale over [lo, hi] widened to nice tick bounds. */
    static Scale linear(double lo, double hi, double p0, double p1) {
        if (!(hi > lo)) {
            hi = lo + 1;
        }
        double step = niceStep((hi - lo) / 5);
        return new Scale(Math.floor(lo / step) * step, Math.ceil(hi / step) * step, p0, p1, false);
    }

    /** Linear scale over exactly [lo, hi]. */
    static Scale exact(double lo, double hi, double p0, double p1) {
        return new Scale(lo, hi > lo ? hi : lo + 1, p0, p1, false);
    }

    static Scale log10(double lo, double hi, double p0, double p1) {
        return new Scale(lo, hi, p0, p1, true);
    }

    double map(double v) {
        double t = log ? (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) : (v - lo) / (hi - lo);
        return p0 + t * (p1 - p0);
    }

    double lo() {
        return lo;
    }

    double hi() {
        return hi;
    }

    List<Double> ticks() {
        List<Double> ticks = new ArrayList<>();
        if (log) {
            for (double d = Math.pow(10, Math.floor(Math.log10(lo))); d <= hi * 1.0001; d *= 10) {
                for (double m : new double[] {1, 2, 5}) {
                    double v = d * m;
                    if (v >= lo * 0.9999 && v <= hi * 1.0001) {
                        ticks.add(v);
                    }
                }
            }
            return ticks;
        }
        double step = niceStep((hi - lo) / 5);
        for (double v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
            ticks.add(Math.abs(v) < step * 1e-9 ? 0.0 : v);
        }
        return ticks;
    }

    static double niceStep(double rough) {
        if (!(rough > 0)) {
            return 1;
        }
        double mag = Math.pow(10, Math.floor(Math.log10(rough)));
        double f = rough / mag;
        double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
        return nice * mag;
    }
}
