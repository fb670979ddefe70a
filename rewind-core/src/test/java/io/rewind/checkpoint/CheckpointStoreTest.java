package io.rewind.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointStoreTest {
    @TempDir
    Path dir;

    private static CheckpointImage image(int rank, long line, byte fill) {
        Map<String, byte[]> s = new LinkedHashMap<>();
        s.put("grid", new byte[] {fill, 2, 3});
        s.put("empty", new byte[0]);
        return new CheckpointImage(rank, line, s);
    }

    @Test
    void roundTripsEverySection() {
        CheckpointStore store = new CheckpointStore(dir, 2);
        store.write(image(3, 1, (byte) 9));
        CheckpointImage back = store.load(3, 1);
        assertEquals(List.of("grid", "empty"), List.copyOf(back.sections().keySet()));
        assertArrayEquals(new byte[] {9, 2, 3}, back.section("grid"));
        assertArrayEquals(new byte[0], back.section("empty"));
    }

    @Test
    void keepsOnlyTheLatestLines() {
        CheckpointStore store = new CheckpointStore(dir, 2);
        for (long line = 1; line <= 5; line++) {
            store.write(image(0, line, (byte) line));
        }
        assertEquals(List.of(4L, 5L), store.lines(0));
    }

    @Test
    void namesArePaddedAsTheFormatPadsThem() {
        for (long v : new long[] {0, 7, 42, 9999, 12345, 99999, 100000, 123456789012L, 1234567890123L}) {
            for (int width : new int[] {4, 5, 12}) {
                assertEquals(String.format("%0" + width + "d", v), CheckpointStore.zeroPadded(v, width));
            }
        }
        CheckpointStore store = new CheckpointStore(dir, 2);
        assertEquals(dir.resolve("rank-00003").resolve("line-000000000017.ckpt"), store.file(3, 17));
    }

    @Test
    void anEncodedWriteSaysTheOldestLineLeft() {
        CheckpointStore store = new CheckpointStore(dir, 2);
        long[] oldest = new long[5];
        for (long line = 1; line <= 5; line++) {
            oldest[(int) line - 1] = store.writeEncoded(0, line, CheckpointFormat.encode(image(0, line, (byte) line)));
            assertEquals(store.lines(0).getFirst(), oldest[(int) line - 1]);
        }
        assertArrayEquals(new long[] {1, 1, 2, 3, 4}, oldest);
    }

    @Test
    void aRollbackDiscardsTheLinesAfterItSoRewritingKeepsTheRightOnes() {
        CheckpointStore store = new CheckpointStore(dir, 2);
        for (long line = 1; line <= 3; line++) {
            store.write(image(0, line, (byte) line));
        }
        store.discardAfter(0, 2); // every rank rolled back to line 2
        assertEquals(List.of(2L), store.lines(0));
        store.write(image(0, 3, (byte) 30)); // the redone execution writes line 3 again
        assertEquals(List.of(2L, 3L), store.lines(0));
        assertArrayEquals(new byte[] {30, 2, 3}, store.load(0, 3).section("grid"));
    }

    @Test
    void fallsBackToThePreviousLineWhenTheNewestIsCorrupt() throws IOException {
        CheckpointStore store = new CheckpointStore(dir, 3);
        store.write(image(1, 1, (byte) 1));
        store.write(image(1, 2, (byte) 2));
        Path newest = store.file(1, 2);
        byte[] bytes = Files.readAllBytes(newest);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(newest, bytes);
        List<String> skipped = new ArrayList<>();
        Optional<CheckpointImage> got = store.loadLatestValid(1, Long.MAX_VALUE, skipped::add);
        assertEquals(1, got.orElseThrow().line());
        assertEquals(1, skipped.size());
        assertTrue(skipped.get(0).contains("CRC mismatch"), skipped.get(0));
    }

    @Test
    void truncatedAndMissingFilesAreReportedClearly() throws IOException {
        CheckpointStore store = new CheckpointStore(dir, 3);
        store.write(image(2, 1, (byte) 1));
        Files.write(store.file(2, 1), new byte[] {1, 2, 3});
        CheckpointException e = assertThrows(CheckpointException.class, () -> store.load(2, 1));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        CheckpointException missing = assertThrows(CheckpointException.class, () -> store.load(2, 7));
        assertTrue(missing.getMessage().contains("missing"), missing.getMessage());
        assertTrue(store.loadLatestValid(2, Long.MAX_VALUE, s -> {}).isEmpty());
    }

    @Test
    void everySingleBitFlipIsDetected() {
        byte[] good = CheckpointFormat.encode(image(0, 1, (byte) 5));
        for (int i = 0; i < good.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] bad = good.clone();
                bad[i] ^= (byte) (1 << bit);
                assertThrows(CheckpointException.class, () -> CheckpointFormat.decode(bad, "test"));
            }
        }
    }

    @Test
    void aWriteIntoAnUnwritableLocationFailsWithTheFileName() throws IOException {
        Path blocker = dir.resolve("blocker");
        Files.writeString(blocker, "a file where a folder should be");
        CheckpointStore store = new CheckpointStore(blocker, 1);
        CheckpointException e = assertThrows(CheckpointException.class, () -> store.write(image(0, 1, (byte) 0)));
        assertTrue(e.getMessage().contains("cannot write checkpoint"), e.getMessage());
    }

    /** The channel-state parts of one line, every one of which must be readable. */
    private static List<byte[]> readableParts(CheckpointStore store, int rank, long line) {
        return CheckpointStore.splitParts(store.loadWithChannelState(rank, line, why -> {
            throw new AssertionError(why);
        }));
    }

    private static CheckpointImage part(int rank, long line, byte fill) {
        return new CheckpointImage(rank, line, Map.of(CheckpointStore.CHANNEL_STATE_SECTION, new byte[] {fill}));
    }

    @Test
    void aLineComesBackWithItsChannelStatePartsInOrder() {
        CheckpointStore store = new CheckpointStore(dir, 2);
        store.write(image(0, 1, (byte) 1));
        store.writeInTransit(part(0, 1, (byte) 20), 200_001);
        store.writeInTransit(part(0, 1, (byte) 10), 1);
        store.writeInTransit(part(0, 1, (byte) 11), 2);

        CheckpointImage back = store.loadWithChannelState(0, 1, why -> {
            throw new AssertionError(why);
        });
        List<byte[]> parts = CheckpointStore.splitParts(back);
        assertEquals(3, parts.size());
        assertArrayEquals(new byte[] {10}, parts.get(0));
        assertArrayEquals(new byte[] {11}, parts.get(1));
        assertArrayEquals(new byte[] {20}, parts.get(2));
        assertArrayEquals(new byte[] {1, 2, 3}, back.section("grid"));
        assertEquals(List.of(), CheckpointStore.splitParts(store.load(0, 1)), "load alone gives the file");
    }

    @Test
    void channelStateGoesWithItsLineAndAFileWrittenAgainStartsWithoutIt() {
        CheckpointStore store = new CheckpointStore(dir, 2);
        store.write(image(0, 1, (byte) 1));
        store.writeInTransit(part(0, 1, (byte) 1), 1);
        store.write(image(0, 2, (byte) 2));
        store.writeInTransit(part(0, 2, (byte) 2), 1);
        store.write(image(0, 3, (byte) 3)); // line 1 is no longer kept
        assertEquals(List.of(), store.parts(0, 1));
        assertEquals(List.of(1), store.parts(0, 2));

        store.write(image(0, 2, (byte) 22)); // an incarnation that redoes line 2 writes it again
        assertEquals(List.of(), store.parts(0, 2));

        store.writeInTransit(part(0, 3, (byte) 3), 1);
        store.discardAfter(0, 2);
        assertEquals(List.of(), store.parts(0, 3));
    }

    @Test
    void aCorruptPartIsReportedAndLeftOut() throws IOException {
        CheckpointStore store = new CheckpointStore(dir, 2);
        store.write(image(0, 1, (byte) 1));
        store.writeInTransit(part(0, 1, (byte) 1), 1);
        store.writeInTransit(part(0, 1, (byte) 2), 2);
        Path segment = store.channelStateSegments(0).getLast();
        byte[] bytes = Files.readAllBytes(segment);
        bytes[bytes.length - 1] ^= 0x5a; // the second part's checksum
        Files.write(segment, bytes);

        List<String> skipped = new ArrayList<>();
        List<byte[]> parts = CheckpointStore.splitParts(store.loadWithChannelState(0, 1, skipped::add));
        assertEquals(1, parts.size());
        assertEquals(1, skipped.size(), skipped.toString());
    }

    @Test
    void aLineWrittenAgainTakesOnlyThePartsKeptAfterIt() {
        CheckpointStore store = new CheckpointStore(dir, 3);
        store.write(image(0, 1, (byte) 1));
        store.write(image(0, 2, (byte) 2));
        store.writeInTransit(part(0, 1, (byte) 1), 1);
        store.writeInTransit(part(0, 2, (byte) 2), 2);
        store.write(image(0, 2, (byte) 22)); // incarnation 1 redoes line 2
        store.writeInTransit(part(0, 2, (byte) 3), 100_001);

        assertEquals(List.of(1), store.parts(0, 1), "line 1 was not written again");
        List<byte[]> parts = readableParts(store, 0, 2);
        assertEquals(1, parts.size());
        assertArrayEquals(new byte[] {3}, parts.getFirst());
    }

    @Test
    void aSegmentGoesOnceEveryLineItHoldsIsPrunedAndTheKeptLinesKeepTheirParts() {
        CheckpointStore store = new CheckpointStore(dir, 2, new ChannelStateLog(1 << 20, 3, 64));
        for (long line = 1; line <= 30; line++) {
            store.write(image(0, line, (byte) line));
            store.writeInTransit(part(0, line, (byte) line), 1);
            store.writeInTransit(part(0, line, (byte) -line), 2);
        }
        assertEquals(List.of(29L, 30L), store.lines(0));
        // Three records a segment: line 29's two parts are in the segments of lines 28-29 and 29-30,
        // line 30's in the latter and the current one; every older segment has gone.
        assertTrue(
                store.channelStateSegments(0).size() <= 3,
                store.channelStateSegments(0).toString());
        for (long line = 29; line <= 30; line++) {
            List<byte[]> parts = readableParts(store, 0, line);
            assertEquals(2, parts.size());
            assertArrayEquals(new byte[] {(byte) line}, parts.get(0));
            assertArrayEquals(new byte[] {(byte) -line}, parts.get(1));
        }
    }

    @Test
    void aTornRecordEndsItsSegmentAndALaterStoreAppendsToANewOne() throws IOException {
        CheckpointStore died = new CheckpointStore(dir, 2);
        died.write(image(0, 1, (byte) 1));
        died.writeInTransit(part(0, 1, (byte) 1), 1);
        died.writeInTransit(part(0, 1, (byte) 2), 2);
        died.closeFiles();
        Path segment = died.channelStateSegments(0).getLast();
        byte[] bytes = Files.readAllBytes(segment);
        Files.write(segment, java.util.Arrays.copyOf(bytes, bytes.length - 3)); // the crash tore the second

        CheckpointStore next = new CheckpointStore(dir, 2); // a resumed run, say
        next.writeInTransit(part(0, 1, (byte) 3), 100_001);
        assertEquals(2, next.channelStateSegments(0).size(), "the torn segment is not appended to");
        List<String> skipped = new ArrayList<>();
        List<byte[]> parts = CheckpointStore.splitParts(next.loadWithChannelState(0, 1, skipped::add));
        assertEquals(2, parts.size());
        assertArrayEquals(new byte[] {1}, parts.get(0));
        assertArrayEquals(new byte[] {3}, parts.get(1));
        assertEquals(1, skipped.size(), skipped.toString());
        assertTrue(skipped.getFirst().contains("torn"), skipped.getFirst());
    }

    @Test
    void aRankThatKeptNoChannelStateGetsNoSegmentFromARewriteOrADiscard() {
        CheckpointStore store = new CheckpointStore(dir, 3);
        store.write(image(0, 1, (byte) 1));
        store.write(image(0, 2, (byte) 2));
        store.write(image(0, 2, (byte) 22));
        store.discardAfter(0, 1);
        assertEquals(List.of(), store.channelStateSegments(0));
        assertEquals(List.of(1L), store.lines(0));
    }

    @Test
    void moreRanksThanOpenSegmentsStillKeepEveryPart() {
        CheckpointStore store = new CheckpointStore(dir, 2, new ChannelStateLog(1 << 20, 256, 2));
        for (int rank = 0; rank < 5; rank++) {
            store.write(image(rank, 1, (byte) rank));
        }
        for (int round = 0; round < 3; round++) {
            for (int rank = 0; rank < 5; rank++) {
                store.writeInTransit(part(rank, 1, (byte) (10 * rank + round)), round + 1);
            }
        }
        for (int rank = 0; rank < 5; rank++) {
            assertEquals(1, store.channelStateSegments(rank).size());
            List<byte[]> parts = readableParts(store, rank, 1);
            assertEquals(3, parts.size());
            for (int round = 0; round < 3; round++) {
                assertArrayEquals(new byte[] {(byte) (10 * rank + round)}, parts.get(round));
            }
        }
    }

    @Test
    void linesFromTheNewestCompleteOneAreHeldBackWithinABound() {
        CheckpointStore store = new CheckpointStore(dir, 2);
        store.keepFrom(3);
        for (long line = 1; line <= 6; line++) {
            store.write(image(0, line, (byte) line));
        }
        assertEquals(List.of(3L, 4L, 5L, 6L), store.lines(0), "lines before 3 go, 3 on are held back");

        for (long line = 7; line <= 20; line++) {
            store.write(image(0, line, (byte) line));
        }
        assertEquals(2 + CheckpointStore.MAX_HELD_BACK, store.lines(0).size(), "held back within the bound");

        store.keepFrom(19);
        store.write(image(0, 21, (byte) 21));
        assertEquals(List.of(19L, 20L, 21L), store.lines(0));
    }
}
