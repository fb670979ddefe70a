package io.rewind.apps.plain;

/** Computation between the operations, so that a run spends time outside the runtime too. */
final class Work {
    private Work() {}

    static double spin(double x, long steps) {
        for (long k = 0; k < steps; k++) {
            x = x * 1.0000001 + 1e-9;
        }
        return x;
    }
}
