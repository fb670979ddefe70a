package io.rewind.tools.profile;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a dense N x N CSV matrix written by another tool: row = sender, column = receiver,
 * cell = bytes. An optional second matrix of the same shape gives message counts. N is the
 * number of cells on the first row; every row must have N cells and there must be N rows.
 * Blank lines and lines starting with '#' are ignored. The file is streamed into the sparse
 * {@link CommMatrix}, so zeros cost nothing.
 */
public final class DenseCsvReader {

    private DenseCsvReader() {}

    /** Reads a bytes matrix and, when {@code countsFile} is not null, a matching message-count matrix. */
    public static CommProfile read(Path bytesFile, Path countsFile) {
        try (BufferedReader bytes = Files.newBufferedReader(bytesFile, StandardCharsets.UTF_8)) {
            if (countsFile == null) {
                return read(bytes, bytesFile.toString(), null, null);
            }
            try (BufferedReader counts = Files.newBufferedReader(countsFile, StandardCharsets.UTF_8)) {
                return read(bytes, bytesFile.toString(), counts, countsFile.toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + bytesFile, e);
        }
    }

    public static CommProfile parse(String bytesCsv, String countsCsv) {
        return read(
                new StringReader(bytesCsv),
                "bytes.csv",
                countsCsv == null ? null : new StringReader(countsCsv),
                "counts.csv");
    }

    public static CommProfile read(Reader bytesIn, String bytesName, Reader countsIn, String countsName) {
        LineSource bytes = new LineSource(new BufferedReader(bytesIn), bytesName);
        LineSource counts = countsIn == null ? null : new LineSource(new BufferedReader(countsIn), countsName);
        CommMatrix.Builder builder = null;
        int n = -1;
        int row = 0;
        String line;
        while ((line = nextRow(bytes)) != null) {
            String[] cells = line.split(",", -1);
            if (n < 0) {
                n = cells.length;
                builder = new CommMatrix.Builder(n);
            }
            if (row >= n) {
                throw bytes.error("more rows than the " + n + " columns of the first row: a dense matrix is N x N");
            }
            if (cells.length != n) {
                throw bytes.error("row has " + cells.length + " cells, expected " + n + " (ragged row)");
            }
            String[] countCells = null;
            if (counts != null) {
                String countLine = nextRow(counts);
                if (countLine == null) {
                    throw counts.error("message-count matrix has only " + row + " rows, expected " + n);
                }
                countCells = countLine.split(",", -1);
                if (countCells.length != n) {
                    throw counts.error("row has " + countCells.length + " cells, expected " + n
                            + " (must match the bytes matrix)");
                }
            }
            for (int col = 0; col < n; col++) {
                long b = NumberCells.parse(bytes, cells[col], col + 1, "byte count");
                long m = countCells == null ? 0 : NumberCells.parse(counts, countCells[col], col + 1, "message count");
                builder.add(row, col, b, m);
            }
            row++;
        }
        if (n < 0) {
            throw new InputFormatException(bytesName, 0, "empty matrix");
        }
        if (row != n) {
            throw new InputFormatException(
                    bytesName,
                    bytes.lineNumber(),
                    "matrix has " + row + " rows but " + n + " columns: a dense matrix is N x N");
        }
        if (counts != null && nextRow(counts) != null) {
            throw counts.error("message-count matrix has more than " + n + " rows");
        }
        CommMatrix matrix = builder.build();
        List<String> notes = new ArrayList<>();
        ProfileReader.selfSendNote(matrix, "point-to-point", notes);
        if (counts == null) {
            notes.add("no message-count matrix given: message counts are 0");
        }
        CommProfile bare = CommProfile.ofP2p(matrix);
        return new CommProfile(n, matrix, bare.collective(), bare.rankTimeSeconds(), notes);
    }

    private static String nextRow(LineSource source) {
        String line;
        while ((line = source.next()) != null) {
            if (!NumberCells.isComment(line)) {
                return line;
            }
        }
        return null;
    }
}
