package io.rewind.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The bound of a park keeps the wake-ups that end by themselves near a thousand a second per JVM. */
class ParkedWaitsTest {
    @Test
    void upToAThousandParkedThreadsEachParkAtMostASecond() {
        assertEquals(1_000_000_000L, ParkedWaits.safetySlice(1));
        assertEquals(1_000_000_000L, ParkedWaits.safetySlice(1000));
    }

    @Test
    void moreParkedThreadsParkLongerInProportion() {
        assertEquals(8_192_000_000L, ParkedWaits.safetySlice(8192));
        assertEquals(4_096_000_000L, ParkedWaits.safetySlice(4096));
    }
}
