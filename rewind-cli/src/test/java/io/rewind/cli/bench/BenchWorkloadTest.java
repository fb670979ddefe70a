package io.rewind.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class BenchWorkloadTest {
    @Test
    void aLargeRunIsAMediumOneWithMoreIterationsAndNothingElseChanged() {
        for (BenchWorkload w : BenchWorkload.values()) {
            List<String> medium = w.args(BenchWorkload.Size.MEDIUM);
            List<String> large = w.args(BenchWorkload.Size.LARGE);
            assertEquals(medium.size(), large.size(), w.cliName());
            int changed = 0;
            for (int i = 0; i < medium.size(); i++) {
                if (!medium.get(i).equals(large.get(i))) {
                    changed++;
                    assertEquals(Integer.toString(w.iterations(BenchWorkload.Size.LARGE)), large.get(i), w.cliName());
                }
            }
            assertEquals(1, changed, w.cliName() + ": " + medium + " -> " + large);
            assertEquals(
                    BenchWorkload.LARGE_FACTOR * w.iterations(BenchWorkload.Size.MEDIUM),
                    w.iterations(BenchWorkload.Size.LARGE));
        }
    }

    @Test
    void anUnknownSizeNamesTheThreeSizes() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> BenchWorkload.parseSize("huge"));
        assertTrue(e.getMessage().contains("small, medium or large"), e.getMessage());
    }
}
