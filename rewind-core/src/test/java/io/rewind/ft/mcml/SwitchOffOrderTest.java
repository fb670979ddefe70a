package io.rewind.ft.mcml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SwitchOffOrderTest {
    @Test
    void theHeaviestChannelGoesFirstAndTiesGoToTheLowerRank() {
        SwitchOffOrder o = SwitchOffOrder.HEAVIEST;
        assertEquals(3, o.nextOff(0, new long[] {0, 10, 20, 30}));
        assertEquals(1, o.nextOff(0, new long[] {0, 30, 20, 30}));
        assertEquals(-1, o.nextOff(2, new long[] {0, 0, 50, 0}), "a rank never switches off its own channel");
        assertEquals(-1, o.nextOff(0, new long[] {0, -1, 0, 0}), "nothing held, nothing to switch off");
    }

    @Test
    void theNearestRankInTheDendrogramGoesFirstThenTheHeaviest() {
        // The paper's example: rank 5 of 0..7 prefers [4-5], then [4-7], then [0-7].
        SwitchOffOrder o = SwitchOffOrder.parse("dendrogram").forRanks(8);
        long[] held = {100, 100, 100, 100, 1, 0, 50, 60};
        assertEquals(4, o.nextOff(5, held));
        held[4] = 0;
        assertEquals(7, o.nextOff(5, held), "then [4-7], heaviest first");
        held[7] = 0;
        held[6] = 0;
        assertEquals(0, o.nextOff(5, held), "then [0-7], lower rank among equals");
    }

    @Test
    void specsRoundTripAndBadOnesAreRefusedWithTheReason() {
        for (String spec : new String[] {"heaviest", "dendrogram", "dendrogram=0/10/11"}) {
            assertEquals(spec, SwitchOffOrder.parse(spec).spec());
        }
        assertEquals(SwitchOffOrder.HEAVIEST, SwitchOffOrder.parse("  HEAVIEST "));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> SwitchOffOrder.parse("lightest"));
        assertTrue(e.getMessage().contains("lightest"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SwitchOffOrder.parse("dendrogram=0/12"));
        e = assertThrows(IllegalArgumentException.class, () -> SwitchOffOrder.parse("dendrogram=0/1")
                .forRanks(3));
        assertTrue(e.getMessage().contains("2 ranks"), e.getMessage());
    }

    @Test
    void aDendrogramFileIsReadBackAsWrittenAndItsMistakesAreNamed(@TempDir Path dir) throws IOException {
        int[][] paths = SwitchOffOrder.contiguousPaths(5);
        Path file = dir.resolve("d.txt");
        Files.writeString(file, SwitchOffOrder.dendrogramText(paths));
        SwitchOffOrder read = SwitchOffOrder.readDendrogramFile(file);
        for (int r = 0; r < 5; r++) {
            assertArrayEquals(paths[r], read.paths()[r]);
        }
        Files.writeString(file, "rewind-dendrogram 1\nranks 2\nrank 0 0\nrank 0 1\n");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> SwitchOffOrder.readDendrogramFile(file));
        assertTrue(e.getMessage().contains("given twice"), e.getMessage());
        Files.writeString(file, "rewind-dendrogram 1\nranks 2\nrank 0 0\nrank 1 0\n");
        e = assertThrows(IllegalArgumentException.class, () -> SwitchOffOrder.readDendrogramFile(file));
        assertTrue(e.getMessage().contains("same path"), e.getMessage());
        Files.writeString(file, "rewind-clusters 1\n");
        e = assertThrows(IllegalArgumentException.class, () -> SwitchOffOrder.readDendrogramFile(file));
        assertTrue(e.getMessage().contains("not a dendrogram file"), e.getMessage());
    }
}
