package io.rewind.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What a channel keeps of the digests of the messages it admitted: those of its sender's last few lines. */
class ReceivedDigestsTest {
    @Test
    void keepsTheDigestsOfTheNewestLinesInSequenceOrder() {
        ReceivedDigests d = new ReceivedDigests(5);
        for (int i = 0; i < 100; i++) {
            d.admitted(1000 + i, i / 10); // ten messages a line
        }
        // Newest line 9: lines 5 to 9 stay (LINES = 4 lines before the newest), messages 50 to 99.
        assertEquals(5 + 50, d.first());
        int[] kept = d.digests();
        assertEquals(50, kept.length);
        assertEquals(1050, kept[0]);
        assertEquals(1099, kept[49]);
    }

    @Test
    void withoutLinesEveryDigestIsKept() {
        ReceivedDigests d = new ReceivedDigests(1);
        for (int i = 0; i < 1000; i++) {
            d.admitted(i + 1, 0);
        }
        assertEquals(1, d.first());
        assertEquals(1000, d.digests().length);
        assertArrayEquals(new int[] {1, 2, 3}, java.util.Arrays.copyOf(d.digests(), 3));
    }
}
