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
import java.util.Arrays;
import java.util.List;

/**
 * Reads Rewind's {@code rewind-profile 1} text format (specified in {@code docs/formats.md}).
 *
 * <pre>
 * rewind-profile 1
 * ranks 4
 * rank-time 0 12.5
 * p2p 0 1 1048576 16
 * coll 1 0 4096 2
 * </pre>
 *
 * Errors name the file and the line. Self-sends are accepted, set aside and reported in
 * {@link CommProfile#notes()}, because some MPI programs do send to themselves.
 */
public final class ProfileReader {

    /** First non-comment line of every profile. */
    public static final String MAGIC = "rewind-profile";

    public static final int VERSION = 1;

    private ProfileReader() {}

    public static CommProfile read(Path file) {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(reader, file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    public static CommProfile parse(String text, String name) {
        return read(new BufferedReader(new StringReader(text)), name);
    }

    public static CommProfile read(Reader in, String name) {
        BufferedReader buffered = in instanceof BufferedReader b ? b : new BufferedReader(in);
        LineSource source = new LineSource(buffered, name);
        boolean sawHeader = false;
        int ranks = -1;
        CommMatrix.Builder p2p = null;
        CommMatrix.Builder coll = null;
        DuplicateChannelCheck p2pLines = new DuplicateChannelCheck();
        DuplicateChannelCheck collLines = new DuplicateChannelCheck();
        double[] times = null;
        long[] timeLine = null;
        String line;
        while ((line = source.next()) != null) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] f = trimmed.split("\\s+");
            if (!sawHeader) {
                if (f.length != 2 || !f[0].equals(MAGIC)) {
                    throw source.error("not a Rewind profile: the first line must be '" + MAGIC + " " + VERSION
                            + "', found '" + abbreviate(trimmed) + "'");
                }
                if (!f[1].equals(Integer.toString(VERSION))) {
                    throw source.error(
                            "unsupported profile version '" + f[1] + "' (this reader knows " + VERSION + ")");
                }
                sawHeader = true;
                continue;
            }
            switch (f[0]) {
                case "ranks" -> {
                    if (ranks >= 0) {
                        throw source.error("'ranks' given twice");
                    }
                    expectFields(source, f, 2, "ranks <N>");
                    long n = parseCount(source, f[1], "rank count");
                    if (n < 1 || n > Integer.MAX_VALUE / 2) {
                        throw source.error("rank count must be between 1 and " + Integer.MAX_VALUE / 2 + ": " + f[1]);
                    }
                    ranks = (int) n;
                    p2p = new CommMatrix.Builder(ranks);
                    coll = new CommMatrix.Builder(ranks);
                    times = new double[ranks];
                    Arrays.fill(times, Double.NaN);
                    timeLine = new long[ranks];
                }
                case "rank-time" -> {
                    requireRanks(source, ranks, f[0]);
                    expectFields(source, f, 3, "rank-time <rank> <seconds>");
                    int rank = parseRank(source, f[1], ranks);
                    double seconds;
                    try {
                        seconds = Double.parseDouble(f[2]);
                    } catch (NumberFormatException e) {
                        throw source.error("not a number of seconds: '" + f[2] + "'");
                    }
                    if (!(seconds >= 0) || Double.isInfinite(seconds)) {
                        throw source.error("rank time must be a finite non-negative number: '" + f[2] + "'");
                    }
                    if (timeLine[rank] != 0) {
                        throw source.error("rank-time for rank " + rank + " already given on line " + timeLine[rank]);
                    }
                    times[rank] = seconds;
                    timeLine[rank] = source.lineNumber();
                }
                case "p2p", "coll" -> {
                    requireRanks(source, ranks, f[0]);
                    expectFields(source, f, 5, f[0] + " <src> <dst> <bytes> <messages>");
                    int src = parseRank(source, f[1], ranks);
                    int dst = parseRank(source, f[2], ranks);
                    long bytes = parseCount(source, f[3], "byte count");
                    long messages = parseCount(source, f[4], "message count");
                    boolean isP2p = f[0].equals("p2p");
                    (isP2p ? p2pLines : collLines).record((long) src * ranks + dst, source.lineNumber());
                    (isP2p ? p2p : coll).add(src, dst, bytes, messages);
                }
                default -> throw source.error(
                        "unknown record '" + abbreviate(f[0]) + "' (expected ranks, rank-time, p2p or coll)");
            }
        }
        if (!sawHeader) {
            throw new InputFormatException(
                    name, 0, "empty file: a Rewind profile starts with '" + MAGIC + " " + VERSION + "'");
        }
        if (ranks < 0) {
            throw new InputFormatException(name, 0, "missing 'ranks <N>' line");
        }
        final int n = ranks;
        p2pLines.verify(source, key -> "p2p " + key / n + " " + key % n);
        collLines.verify(source, key -> "coll " + key / n + " " + key % n);
        CommMatrix p2pMatrix = p2p.build();
        CommMatrix collMatrix = coll.build();
        List<String> notes = new ArrayList<>();
        selfSendNote(p2pMatrix, "point-to-point", notes);
        selfSendNote(collMatrix, "collective", notes);
        return new CommProfile(ranks, p2pMatrix, collMatrix, times, notes);
    }

    static void selfSendNote(CommMatrix matrix, String kind, List<String> notes) {
        int selfRanks = matrix.ranksWithSelfSends();
        if (selfRanks > 0) {
            long bytes = 0;
            for (int r = 0; r < matrix.ranks(); r++) {
                bytes += matrix.selfBytes(r);
            }
            notes.add(selfRanks + " rank(s) sent " + bytes + " " + kind
                    + " bytes to themselves; self-sends are excluded from the analyses");
        }
    }

    private static void requireRanks(LineSource source, int ranks, String keyword) {
        if (ranks < 0) {
            throw source.error("'" + keyword + "' before 'ranks <N>'");
        }
    }

    private static void expectFields(LineSource source, String[] f, int count, String shape) {
        if (f.length != count) {
            throw source.error("expected '" + shape + "' (" + count + " fields), found " + f.length + " fields");
        }
    }

    static int parseRank(LineSource source, String text, int ranks) {
        long value = parseCount(source, text, "rank");
        if (value >= ranks) {
            throw source.error("rank " + text + " out of range [0, " + ranks + ")");
        }
        return (int) value;
    }

    static long parseCount(LineSource source, String text, String what) {
        try {
            long value = Long.parseLong(text);
            if (value < 0) {
                throw source.error(what + " must not be negative: " + text);
            }
            return value;
        } catch (NumberFormatException e) {
            throw source.error(what + " is not a whole number: '" + abbreviate(text) + "'");
        }
    }

    static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 37) + "...";
    }
}
