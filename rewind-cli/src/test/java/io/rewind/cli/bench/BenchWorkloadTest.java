package io.rewind.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class BenchWorkloadTest {
    @Test
    void theLongSizesAreTheMediumRunWithMoreIterationsAndNothingElseChanged() {
        for (BenchWorkload.Size size : List.of(BenchWorkload.Size.LARGE, BenchWorkload.Size.HUGE)) {
            int factor = size == BenchWorkload.Size.LARGE ? BenchWorkload.LARGE_FACTOR : BenchWorkload.HUGE_FACTOR;
            for (BenchWorkload w : BenchWorkload.values()) {
                List<String> medium = w.args(BenchWorkload.Size.MEDIUM);
                List<String> longer = w.args(size);
                assertEquals(medium.size(), longer.size(), w.cliName());
                int changed = 0;
                for (int i = 0; i < medium.size(); i++) {
                    if (!medium.get(i).equals(longer.get(i))) {
                        changed++;
                        assertEquals(Integer.toString(w.iterations(size)), longer.get(i), w.cliName());
                    }
                }
                assertEquals(1, changed, w.cliName() + ": " + medium + " -> " + longer);
                assertEquals(factor * w.iterations(BenchWorkload.Size.MEDIUM), w.iterations(size), w.cliName());
            }
        }
    }

    @Test
    void sizesAreReadWhateverTheirCase() {
        assertEquals(BenchWorkload.Size.HUGE, BenchWorkload.parseSize(" Huge "));
        assertEquals(BenchWorkload.Size.SMALL, BenchWorkload.parseSize("small"));
    }

    @Test
    void anUnknownSizeNamesTheFourSizes() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> BenchWorkload.parseSize("enormous"));
        assertTrue(e.getMessage().contains("small, medium, large or huge"), e.getMessage());
    }
}
