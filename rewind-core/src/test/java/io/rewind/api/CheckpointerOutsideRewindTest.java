package io.rewind.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * A program that checkpoints, run outside a rank launched by Rewind (here: this test's own class
 * loader, as plain {@code java} would load it): the checkpointer keeps nothing and changes nothing,
 * so the same source runs with and without Rewind.
 */
class CheckpointerOutsideRewindTest {
    @Test
    void outsideRewindNothingIsRestoredNothingIsWrittenAndThePointsAreCounted() {
        Checkpointer cp = Checkpointer.get();
        int[] step = {7};
        double[] grid = {1.5, 2.5};
        cp.register("step", step);
        cp.register("grid", grid);
        assertFalse(cp.isRestart());
        assertFalse(cp.restore());
        long before = cp.points();
        for (int i = 0; i < 5; i++) {
            assertFalse(cp.point());
        }
        assertEquals(before + 5, cp.points());
        assertArrayEquals(new int[] {7}, step);
        assertArrayEquals(new double[] {1.5, 2.5}, grid);
        assertThrows(NullPointerException.class, () -> cp.register("nothing", (int[]) null));
    }
}
