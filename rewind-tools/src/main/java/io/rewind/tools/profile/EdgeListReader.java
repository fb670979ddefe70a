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
 * Reads an edge list {@code src,dst,bytes[,count]}, one directed pair per line, as exported by
 * tracing tools. An optional header line whose first cell is not a number is skipped; '#'
 * lines are comments. Repeated pairs are summed (traces often list a pair once per phase) and
 * the number of merged lines is reported. The rank count is the largest rank plus one unless
 * the caller states it, in which case ranks outside it are errors.
 */
public final class EdgeListReader {

    private EdgeListReader() {}

    /** @param ranks the rank count, or 0 to infer it from the largest rank seen */
    public static CommProfile read(Path file, int ranks) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(in, file.toString(), ranks);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    public static CommProfile parse(String text, int ranks) {
        return read(new StringReader(text), "edges.csv", ranks);
    }

    public static CommProfile read(Reader in, String name, int ranks) {
        LineSource source = new LineSource(new BufferedReader(in), name);
        List<long[]> rows = new ArrayList<>();
        int maxRank = -1;
        boolean first = true;
        boolean hasCounts = false;
        String line;
        while ((line = source.next()) != null) {
            if (NumberCells.isComment(line)) {
                continue;
            }
            String[] cells = line.split(",", -1);
            if (first) {
                first = false;
                if (!cells[0].strip().isEmpty()
                        && !Character.isDigit(cells[0].strip().charAt(0))
                        && cells[0].strip().charAt(0) != '-') {
                    continue; // header such as "src,dst,bytes,count"
                }
            }
            if (cells.length != 3 && cells.length != 4) {
                throw source.error("expected 'src,dst,bytes[,count]', found " + cells.length + " cells");
            }
            long src = NumberCells.parse(source, cells[0], 1, "source rank");
            long dst = NumberCells.parse(source, cells[1], 2, "destination rank");
            long bytes = NumberCells.parse(source, cells[2], 3, "byte count");
            long count = 0;
            if (cells.length == 4) {
                count = NumberCells.parse(source, cells[3], 4, "message count");
                hasCounts = true;
            }
            long limit = ranks > 0 ? ranks : Integer.MAX_VALUE / 2;
            if (src >= limit || dst >= limit) {
                throw source.error("rank " + Math.max(src, dst) + " out of range [0, " + limit + ")");
            }
            maxRank = (int) Math.max(maxRank, Math.max(src, dst));
            rows.add(new long[] {src, dst, bytes, count});
        }
        int n = ranks > 0 ? ranks : maxRank + 1;
        if (n <= 0) {
            throw new InputFormatException(name, 0, "edge list has no edges and no rank count was given");
        }
        CommMatrix.Builder builder = new CommMatrix.Builder(n);
        for (long[] r : rows) {
            builder.add((int) r[0], (int) r[1], r[2], r[3]);
        }
        CommMatrix matrix = builder.build();
        List<String> notes = new ArrayList<>();
        ProfileReader.selfSendNote(matrix, "point-to-point", notes);
        int offDiagonal = 0;
        for (long[] r : rows) {
            if (r[0] != r[1] && (r[2] != 0 || r[3] != 0)) {
                offDiagonal++;
            }
        }
        if (offDiagonal > matrix.channelCount()) {
            notes.add((offDiagonal - matrix.channelCount()) + " repeated pair line(s) were summed");
        }
        if (!hasCounts) {
            notes.add("no count column: message counts are 0");
        }
        CommProfile bare = CommProfile.ofP2p(matrix);
        return new CommProfile(n, matrix, bare.collective(), bare.rankTimeSeconds(), notes);
    }
}
