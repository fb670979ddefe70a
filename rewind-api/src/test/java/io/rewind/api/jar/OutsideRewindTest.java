package io.rewind.api.jar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rewind.api.Checkpointer;
import io.rewind.api.Patterns;
import io.rewind.api.StateSerializer;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import org.junit.jupiter.api.Test;

/**
 * A program run with plain {@code java} and the rewind-api jar only (no runtime, so no binding): the
 * checkpointer keeps nothing and changes nothing, patterns count ids and check their calls.
 */
class OutsideRewindTest {
    @Test
    void theCheckpointerKeepsNothingAndChangesNothing() {
        Checkpointer cp = Checkpointer.get();
        int[] step = {3};
        double[] grid = {0.5, 1.5};
        boolean[] flags = {true, false};
        IntBuffer direct = ByteBuffer.allocateDirect(8).asIntBuffer().put(0, 9);
        cp.register("step", step);
        cp.register("grid", grid);
        cp.register("flags", flags);
        cp.register("direct", direct);
        cp.register("other", new StateSerializer() {
            @Override
            public byte[] save() {
                throw new AssertionError("nothing is saved outside Rewind");
            }

            @Override
            public void load(byte[] bytes) {
                throw new AssertionError("nothing is loaded outside Rewind");
            }
        });
        assertFalse(cp.isRestart());
        assertFalse(cp.restore());
        long before = cp.points();
        for (int i = 0; i < 4; i++) {
            assertFalse(cp.point());
        }
        assertEquals(before + 4, cp.points());
        assertArrayEquals(new int[] {3}, step);
        assertArrayEquals(new double[] {0.5, 1.5}, grid);
        assertEquals(9, direct.get(0));
        assertThrows(NullPointerException.class, () -> cp.register("none", (double[]) null));
        assertThrows(NullPointerException.class, () -> cp.register(null, step));
    }

    @Test
    void patternsCountIdsAndRefuseWhatRewindRefuses() {
        int a = Patterns.declare();
        int b = Patterns.declare();
        assertEquals(a + 1, b);
        assertEquals(0, Patterns.active());
        Patterns.beginIteration(a);
        assertEquals(a, Patterns.active());
        assertEquals(1, Patterns.iteration(a));
        IllegalStateException nested = assertThrows(IllegalStateException.class, () -> Patterns.beginIteration(b));
        assertEquals(
                "cannot begin an iteration of pattern " + b + " while pattern " + a
                        + " is active (patterns do not nest): end it first",
                nested.getMessage());
        Patterns.endIteration(a);
        assertEquals(0, Patterns.active());
        assertThrows(IllegalStateException.class, () -> Patterns.endIteration(a));
        assertThrows(IllegalArgumentException.class, () -> Patterns.beginIteration(b + 1));
    }
}
