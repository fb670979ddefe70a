package io.rewind.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import org.junit.jupiter.api.Test;

/** The checkpoint sections of arrays and buffers: saved whole, loaded back in place, sizes checked. */
class SectionsTest {
    @Test
    void arraysAreSavedInPlatformOrderAndLoadedBackInPlace() {
        int[] a = {1, -2, 0x01020304};
        StateSerializer s = Sections.of("a", IntBuffer.wrap(a));
        byte[] saved = s.save();
        ByteBuffer expected = ByteBuffer.allocate(12).order(ByteOrder.nativeOrder());
        expected.asIntBuffer().put(new int[] {1, -2, 0x01020304});
        assertArrayEquals(expected.array(), saved);
        a[0] = 99;
        a[2] = 0;
        s.load(saved);
        assertArrayEquals(new int[] {1, -2, 0x01020304}, a);
    }

    @Test
    void everyBufferTypeHeapOrDirectRoundTripsItsWholeCapacity() {
        ByteBuffer bytes = ByteBuffer.allocateDirect(64);
        for (int i = 0; i < 64; i++) {
            bytes.put(i, (byte) (i + 1));
        }
        java.nio.Buffer[] buffers = {
            ByteBuffer.wrap(new byte[] {1, 2, 3}),
            CharBuffer.wrap(new char[] {'x', 'y'}),
            ShortBuffer.wrap(new short[] {7, -7}),
            LongBuffer.wrap(new long[] {Long.MIN_VALUE, 5}),
            FloatBuffer.wrap(new float[] {1.5f, Float.NaN}),
            DoubleBuffer.wrap(new double[] {Math.PI}),
            bytes.asIntBuffer(),
            bytes.order(ByteOrder.BIG_ENDIAN).asDoubleBuffer(),
        };
        for (java.nio.Buffer b : buffers) {
            b.position(1); // the section is the whole capacity, wherever the position is
            StateSerializer s = Sections.of("b", b);
            byte[] saved = s.save();
            String before = contents(b);
            scramble(b);
            s.load(saved);
            assertEquals(before, contents(b), b.getClass().getName());
            assertEquals(1, b.position());
        }
    }

    @Test
    void aCheckpointOfAnotherSizeIsRefusedWithTheStatesName() {
        StateSerializer s = Sections.of("grid", DoubleBuffer.wrap(new double[4]));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.load(new byte[16]));
        assertEquals(
                "state 'grid' is 32 bytes but the checkpoint holds 16 bytes: register objects of the same size as"
                        + " in the original run",
                e.getMessage());
        boolean[] flags = {true, false, true};
        StateSerializer f = Sections.of("flags", flags);
        byte[] saved = f.save();
        assertArrayEquals(new byte[] {1, 0, 1}, saved);
        flags[0] = false;
        f.load(saved);
        assertArrayEquals(new boolean[] {true, false, true}, flags);
        assertThrows(IllegalStateException.class, () -> f.load(new byte[2]));
    }

    private static String contents(java.nio.Buffer b) {
        java.nio.Buffer d = b.duplicate().clear();
        StringBuilder s = new StringBuilder();
        while (d.hasRemaining()) {
            s.append(get(d)).append(',');
        }
        return s.toString();
    }

    private static Object get(java.nio.Buffer b) {
        if (b instanceof ByteBuffer x) {
            return x.get();
        } else if (b instanceof CharBuffer x) {
            return x.get();
        } else if (b instanceof ShortBuffer x) {
            return x.get();
        } else if (b instanceof IntBuffer x) {
            return x.get();
        } else if (b instanceof LongBuffer x) {
            return x.get();
        } else if (b instanceof FloatBuffer x) {
            return x.get();
        }
        return ((DoubleBuffer) b).get();
    }

    private static void scramble(java.nio.Buffer b) {
        ByteBuffer zeros = ByteBuffer.allocate(b.capacity() * 8);
        if (b instanceof ByteBuffer x) {
            x.duplicate().clear().put(zeros.limit(x.capacity()));
        } else if (b instanceof CharBuffer x) {
            x.duplicate().clear().put(zeros.asCharBuffer().limit(x.capacity()));
        } else if (b instanceof ShortBuffer x) {
            x.duplicate().clear().put(zeros.asShortBuffer().limit(x.capacity()));
        } else if (b instanceof IntBuffer x) {
            x.duplicate().clear().put(zeros.asIntBuffer().limit(x.capacity()));
        } else if (b instanceof LongBuffer x) {
            x.duplicate().clear().put(zeros.asLongBuffer().limit(x.capacity()));
        } else if (b instanceof FloatBuffer x) {
            x.duplicate().clear().put(zeros.asFloatBuffer().limit(x.capacity()));
        } else {
            ((DoubleBuffer) b).duplicate().clear().put(zeros.asDoubleBuffer().limit(b.capacity()));
        }
    }
}
