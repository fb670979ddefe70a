package io.rewind.tools.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.tools.profile.InputFormatException;
import org.junit.jupiter.api.Test;

class ClusterFileTest {

    @Test
    void roundTripsWithRanges() {
        Clustering c = new Clustering(new int[] {0, 0, 1, 1, 0, 2, 2, 2}, 3);
        String text = ClusterFile.toText(c);
        assertEquals("rewind-clusters 1\nranks 8\ncluster 0 0-1 4\ncluster 1 2-3\ncluster 2 5-7\n", text);
        assertEquals(c, ClusterFile.parse(text, "c"));
    }

    @Test
    void rejectsOverlapsAndGaps() {
        InputFormatException twice = assertThrows(
                InputFormatException.class,
                () -> ClusterFile.parse("rewind-clusters 1\nranks 4\ncluster 0 0-2\ncluster 1 2-3\n", "c"));
        assertEquals(4, twice.lineNumber());
        assertTrue(twice.getMessage().contains("rank 2 already in cluster 0 (line 3)"), twice.getMessage());
        InputFormatException missing = assertThrows(
                InputFormatException.class,
                () -> ClusterFile.parse("rewind-clusters 1\nranks 4\ncluster 0 0-2\n", "c"));
        assertTrue(missing.getMessage().contains("rank 3 is in no cluster"), missing.getMessage());
    }
}
