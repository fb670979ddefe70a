package io.rewind.tools.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProfileReaderTest {

    private static final String SAMPLE =
            """
            # a comment before the header
            rewind-profile 1
            ranks 3
            rank-time 0 1.5
            rank-time 2 2.0
            p2p 0 1 1000 10
            p2p 1 0 500 5
            p2p 2 2 64 1
            coll 1 2 8 1
            """;

    @Test
    void readsEveryRecordAndSetsSelfSendsAside() {
        CommProfile p = ProfileReader.parse(SAMPLE, "sample");
        assertEquals(3, p.ranks());
        assertEquals(1000, p.p2p().bytes(0, 1));
        assertEquals(5, p.p2p().messages(1, 0));
        assertEquals(0, p.p2p().bytes(2, 2), "diagonal is not part of the matrix");
        assertEquals(64, p.p2p().selfBytes(2));
        assertEquals(2, p.p2p().channelCount());
        assertEquals(8, p.collective().bytes(1, 2));
        assertEquals(2.0, p.durationSeconds());
        assertTrue(Double.isNaN(p.rankTimeSeconds()[1]));
        assertTrue(
                p.notes().get(0).contains("1 rank(s) sent 64 point-to-point bytes to themselves"),
                p.notes().toString());
        assertEquals(1508, p.traffic(Traffic.ALL).totalBytes());
    }

    @Test
    void writerOutputReadsBackIdentically() {
        CommProfile p = ProfileReader.parse(SAMPLE, "sample");
        String text = ProfileWriter.toText(p);
        CommProfile again = ProfileReader.parse(text, "again");
        assertEquals(text, ProfileWriter.toText(again));
        assertEquals(64, again.p2p().selfBytes(2));
    }

    @Test
    void badInputsNameTheLine() {
        assertError("ranks 2\n", 1, "first line must be 'rewind-profile 1'");
        assertError("rewind-profile 2\n", 1, "unsupported profile version");
        assertError("rewind-profile 1\np2p 0 1 5 1\n", 2, "'p2p' before 'ranks <N>'");
        assertError("rewind-profile 1\nranks 2\np2p 0 2 5 1\n", 3, "rank 2 out of range [0, 2)");
        assertError("rewind-profile 1\nranks 2\np2p 0 1 -5 1\n", 3, "byte count must not be negative");
        assertError("rewind-profile 1\nranks 2\np2p 0 1 lots 1\n", 3, "byte count is not a whole number: 'lots'");
        assertError("rewind-profile 1\nranks 2\np2p 0 1 5\n", 3, "expected 'p2p <src> <dst> <bytes> <messages>'");
        assertError("rewind-profile 1\nranks 2\nrank-time 0 soon\n", 3, "not a number of seconds");
        assertError("rewind-profile 1\nranks 2\nbogus 1\n", 3, "unknown record 'bogus'");
        assertError("rewind-profile 1\nranks 2\np2p 0 1 5 1\n\np2p 0 1 6 1\n", 5, "already given on line 3");
        assertError("rewind-profile 1\n", 0, "missing 'ranks <N>' line");
    }

    private static void assertError(String text, long line, String fragment) {
        InputFormatException e = assertThrows(InputFormatException.class, () -> ProfileReader.parse(text, "f"));
        assertEquals(line, e.lineNumber(), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
        if (line > 0) {
            assertTrue(e.getMessage().startsWith("f:" + line + ": "), e.getMessage());
        }
    }
}
