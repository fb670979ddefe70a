package io.rewind.tools.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MatrixReadersTest {

    @Test
    void denseCsvWithCountsAndDiagonal() {
        CommProfile p = DenseCsvReader.parse("7,100,0\n50,0,0\n0,0,3\n", "0,2,0\n1,0,0\n0,0,1\n");
        assertEquals(3, p.ranks());
        assertEquals(100, p.p2p().bytes(0, 1));
        assertEquals(2, p.p2p().messages(0, 1));
        assertEquals(7, p.p2p().selfBytes(0));
        assertEquals(150, p.p2p().totalBytes());
        assertTrue(p.notes().get(0).contains("2 rank(s)"), p.notes().toString());
    }

    @Test
    void denseCsvErrors() {
        assertLine(() -> DenseCsvReader.parse("0,1\n1,0,4\n", null), 2, "ragged row");
        assertLine(() -> DenseCsvReader.parse("0,1\n-1,0\n", null), 2, "must not be negative");
        assertLine(() -> DenseCsvReader.parse("0,x\n1,0\n", null), 1, "column 2: byte count is not a number: 'x'");
        assertLine(() -> DenseCsvReader.parse("0,1,2\n1,0,2\n", null), 2, "2 rows but 3 columns");
        assertLine(() -> DenseCsvReader.parse("0,1\n1,0\n1,1\n", null), 3, "more rows");
        assertLine(() -> DenseCsvReader.parse("0,1\n1,0\n", "0,1\n1\n"), 2, "must match the bytes matrix");
    }

    @Test
    void edgeListWithHeaderRepeatsAndInferredSize() {
        CommProfile p = EdgeListReader.parse("src,dst,bytes,count\n0,3,10,1\n3,0,5,1\n0,3,10,2\n1,1,4,1\n", 0);
        assertEquals(4, p.ranks());
        assertEquals(20, p.p2p().bytes(0, 3));
        assertEquals(3, p.p2p().messages(0, 3));
        assertEquals(4, p.p2p().selfBytes(1));
        assertTrue(
                p.notes().stream().anyMatch(n -> n.contains("1 repeated pair line(s) were summed")),
                p.notes().toString());
    }

    @Test
    void edgeListErrors() {
        assertLine(() -> EdgeListReader.parse("0,1\n", 0), 1, "expected 'src,dst,bytes[,count]'");
        assertLine(() -> EdgeListReader.parse("0,1,5\n0,9,5\n", 4), 2, "rank 9 out of range [0, 4)");
        assertLine(() -> EdgeListReader.parse("0,1,5\n0,2,-5\n", 0), 2, "must not be negative");
    }

    @Test
    void autoDetectsFormats(@TempDir Path dir) throws Exception {
        Path profile = Files.writeString(dir.resolve("a.txt"), "rewind-profile 1\nranks 2\np2p 0 1 3 1\n");
        Path csv = Files.writeString(dir.resolve("m.csv"), "0,3\n4,0\n");
        Path edges = Files.writeString(dir.resolve("e.csv"), "src,dst,bytes\n0,1,3\n");
        assertEquals(InputFormat.PROFILE, InputFormat.detect(profile));
        assertEquals(InputFormat.CSV, InputFormat.detect(csv));
        assertEquals(InputFormat.EDGES, InputFormat.detect(edges));
        assertEquals(7, InputFormat.AUTO.load(csv, null, 0).p2p().totalBytes());
    }

    private static void assertLine(org.junit.jupiter.api.function.Executable read, long line, String fragment) {
        InputFormatException e = assertThrows(InputFormatException.class, read);
        assertEquals(line, e.lineNumber(), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
    }
}
