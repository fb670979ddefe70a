package io.rewind.tools.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class GiniIndexTest {

    @Test
    void uniformLoadHasNoInequality() {
        assertEquals(0.0, GiniIndex.of(new long[] {5, 5, 5, 5, 5, 5, 5, 5}), 1e-12);
    }

    @Test
    void allOnOneRankGivesNMinusOneOverN() {
        for (int n : new int[] {2, 4, 10, 256}) {
            long[] loads = new long[n];
            loads[n / 2] = 1234;
            assertEquals((n - 1) / (double) n, GiniIndex.of(loads), 1e-12, "n=" + n);
        }
    }

    @Test
    void linearRampMatchesClosedForm() {
        // Loads 1..n: G = (n-1)/(3n) for the discrete Lorenz curve.
        int n = 100;
        long[] loads = new long[n];
        for (int i = 0; i < n; i++) {
            loads[i] = i + 1;
        }
        assertEquals((n - 1) / (3.0 * n), GiniIndex.of(loads), 1e-12);
    }

    @Test
    void noLoadAtAllIsEven() {
        assertEquals(0.0, GiniIndex.of(new long[] {0, 0, 0}));
    }

    @Property
    void agreesWithMeanAbsoluteDifferenceForm(
            @ForAll @Size(min = 1, max = 40) List<@LongRange(min = 0, max = 1_000_000) Long> values) {
        long[] loads = values.stream().mapToLong(Long::longValue).toArray();
        double sum = 0;
        double diff = 0;
        for (long a : loads) {
            sum += a;
            for (long b : loads) {
                diff += Math.abs(a - b);
            }
        }
        int n = loads.length;
        double expected = sum == 0 ? 0 : diff / (2.0 * n * sum);
        assertEquals(expected, GiniIndex.of(loads), 1e-9);
    }
}
