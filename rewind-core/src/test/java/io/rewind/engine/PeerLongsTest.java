package io.rewind.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The paged table of one long per peer reads and writes as a dense array does, allocating little. */
class PeerLongsTest {
    @Provide
    Arbitrary<Integer> sizes() {
        return Arbitraries.integers().between(0, 300);
    }

    @Property(tries = 300)
    void behavesAsADenseArray(@ForAll("sizes") int size, @ForAll long defaultValue, @ForAll("seeds") long seed) {
        PeerLongs table = new PeerLongs(size, defaultValue);
        long[] dense = new long[size];
        Arrays.fill(dense, defaultValue);
        java.util.Random random = new java.util.Random(seed);
        for (int k = 0; size > 0 && k < 200; k++) {
            int i = random.nextInt(size);
            long v = random.nextInt(3) == 0 ? defaultValue : random.nextInt(1000) - 500;
            switch (random.nextInt(3)) {
                case 0 -> {
                    table.set(i, v);
                    dense[i] = v;
                }
                case 1 -> assertEquals(dense[i] += v, table.add(i, v));
                default -> {
                    table.raise(i, v);
                    dense[i] = Math.max(dense[i], v);
                }
            }
            assertEquals(dense[i], table.get(i));
        }
        assertArrayEquals(dense, table.toArray());
        assertEquals(Arrays.stream(dense).sum(), table.sum());
        PeerLongs copy = new PeerLongs(size, defaultValue);
        copy.setAll(dense);
        assertArrayEquals(dense, copy.toArray());
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    @Test
    void aTableOfThousandsTouchedAtTwoPeersHoldsTwoPages() {
        PeerLongs table = new PeerLongs(4096);
        table.add(17, 1);
        table.add(4095, 1);
        table.set(2000, 0); // a default written: nothing allocated
        assertEquals(2, table.allocatedPages());
        assertEquals(2, table.sum());
    }

    @Test
    void indicesOutsideTheTableAreRefused() {
        PeerLongs table = new PeerLongs(10);
        assertThrows(IndexOutOfBoundsException.class, () -> table.get(10));
        assertThrows(IndexOutOfBoundsException.class, () -> table.add(-1, 1));
        assertThrows(IllegalArgumentException.class, () -> table.setAll(new long[9]));
    }
}
