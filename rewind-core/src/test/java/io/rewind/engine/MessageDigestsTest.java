package io.rewind.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The digest of a message: the same bytes give the same digest wherever they are, and a change shows. */
class MessageDigestsTest {
    private static int digest(MemorySegment data, long offset, long length, long sequence) {
        return MessageDigests.of(3, 1, 1, 2, 7, sequence, data, offset, length);
    }

    @Property(tries = 200)
    void theSameBytesInAByteArrayALongArrayAndNativeMemoryGiveOneDigest(
            @ForAll @Size(max = 40) long[] values, @ForAll @IntRange(min = 0, max = 7) int skip) {
        MemorySegment longs = MemorySegment.ofArray(values);
        byte[] bytes = new byte[values.length * Long.BYTES];
        MemorySegment.copy(longs, 0, MemorySegment.ofArray(bytes), 0, bytes.length);
        long from = Math.min(skip, bytes.length);
        long n = bytes.length - from;
        int onHeap = digest(MemorySegment.ofArray(bytes), from, n, 9);
        assertEquals(onHeap, digest(longs, from, n, 9));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment offHeap = arena.allocate(Math.max(1, bytes.length));
            MemorySegment.copy(longs, 0, offHeap, 0, bytes.length);
            assertEquals(onHeap, digest(offHeap, from, n, 9));
        }
    }

    @Property(tries = 200)
    void oneChangedByteOrAnotherSequenceNumberChangesTheDigest(
            @ForAll @Size(min = 1, max = 5000) byte[] payload, @ForAll @IntRange(min = 0, max = 4999) int at) {
        int i = at % payload.length;
        int original = digest(MemorySegment.ofArray(payload), 0, payload.length, 9);
        assertNotEquals(0, original);
        assertNotEquals(original, digest(MemorySegment.ofArray(payload), 0, payload.length, 10));
        byte[] changed = payload.clone();
        changed[i] ^= 1;
        assertNotEquals(original, digest(MemorySegment.ofArray(changed), 0, payload.length, 9));
    }

    @Test
    void aPayloadLongerThanTheScratchBufferIsReadWhole() {
        double[] values = new double[10_000]; // 80 KB through the 16 KiB scratch buffer
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.5;
        }
        ByteBuffer bytes = ByteBuffer.allocate(values.length * Double.BYTES).order(ByteOrder.nativeOrder());
        bytes.asDoubleBuffer().put(values);
        MemorySegment doubles = MemorySegment.ofArray(values);
        int whole = digest(doubles, 0, doubles.byteSize(), 1);
        assertEquals(whole, digest(MemorySegment.ofArray(bytes.array()), 0, doubles.byteSize(), 1));
        double[] changed = values.clone();
        changed[values.length - 1] += 1;
        assertNotEquals(whole, digest(MemorySegment.ofArray(changed), 0, doubles.byteSize(), 1));
        assertEquals(values[3], doubles.getAtIndex(ValueLayout.JAVA_DOUBLE, 3));
    }
}
