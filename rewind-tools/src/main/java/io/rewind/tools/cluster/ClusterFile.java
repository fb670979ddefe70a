package io.rewind.tools.cluster;

import io.rewind.tools.profile.InputFormatException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The cluster file the hierarchical logging protocol reads (format in {@code docs/formats.md}):
 *
 * <pre>
 * rewind-clusters 1
 * ranks 16
 * cluster 0 0-3 8-11
 * cluster 1 4-7 12-15
 * </pre>
 *
 * One line per cluster: its number then its ranks as single ranks or inclusive ranges. Every
 * rank appears exactly once. Clusters are numbered 0..count-1.
 */
public final class ClusterFile {

    public static final String MAGIC = "rewind-clusters";
    public static final int VERSION = 1;

    private ClusterFile() {}

    public static String toText(Clustering c) {
        StringBuilder out = new StringBuilder();
        out.append(MAGIC).append(' ').append(VERSION).append('\n');
        out.append("ranks ").append(c.ranks()).append('\n');
        List<int[]> members = c.members();
        for (int id = 0; id < members.size(); id++) {
            out.append("cluster ").append(id);
            int[] ranks = members.get(id);
            int i = 0;
            while (i < ranks.length) {
                int j = i;
                while (j + 1 < ranks.length && ranks[j + 1] == ranks[j] + 1) {
                    j++;
                }
                out.append(' ').append(ranks[i]);
                if (j > i) {
                    out.append('-').append(ranks[j]);
                }
                i = j + 1;
            }
            out.append('\n');
        }
        return out.toString();
    }

    public static void write(Clustering c, Path file) {
        try {
            Files.writeString(file, toText(c), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public static Clustering read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    public static Clustering parse(String text, String name) {
        BufferedReader in = new BufferedReader(new StringReader(text));
        int lineNumber = 0;
        boolean header = false;
        int ranks = -1;
        int[] of = null;
        int[] givenOn = null;
        boolean[] idSeen = null;
        int maxId = -1;
        try {
            String line;
            while ((line = in.readLine()) != null) {
                lineNumber++;
                String s = line.strip();
                if (s.isEmpty() || s.startsWith("#")) {
                    continue;
                }
                String[] f = s.split("\\s+");
                if (!header) {
                    if (f.length != 2 || !f[0].equals(MAGIC) || !f[1].equals(Integer.toString(VERSION))) {
                        throw new InputFormatException(
                                name,
                                lineNumber,
                                "not a cluster file: the first line must be '" + MAGIC + " " + VERSION + "'");
                    }
                    header = true;
                } else if (f[0].equals("ranks")) {
                    if (ranks >= 0 || f.length != 2) {
                        throw new InputFormatException(name, lineNumber, "expected one 'ranks <N>' line");
                    }
                    ranks = number(f[1], name, lineNumber, "rank count");
                    if (ranks < 1) {
                        throw new InputFormatException(name, lineNumber, "rank count must be positive");
                    }
                    of = new int[ranks];
                    Arrays.fill(of, -1);
                    givenOn = new int[ranks];
                    idSeen = new boolean[ranks];
                } else if (f[0].equals("cluster")) {
                    if (ranks < 0) {
                        throw new InputFormatException(name, lineNumber, "'cluster' before 'ranks <N>'");
                    }
                    if (f.length < 3) {
                        throw new InputFormatException(name, lineNumber, "expected 'cluster <id> <ranks...>'");
                    }
                    int id = number(f[1], name, lineNumber, "cluster id");
                    if (id >= ranks) {
                        throw new InputFormatException(
                                name, lineNumber, "cluster id " + id + " not below the rank count");
                    }
                    if (idSeen[id]) {
                        throw new InputFormatException(name, lineNumber, "cluster " + id + " given twice");
                    }
                    idSeen[id] = true;
                    maxId = Math.max(maxId, id);
                    for (int i = 2; i < f.length; i++) {
                        String[] range = f[i].split("-", -1);
                        if (range.length > 2) {
                            throw new InputFormatException(name, lineNumber, "bad rank range '" + f[i] + "'");
                        }
                        int lo = number(range[0], name, lineNumber, "rank");
                        int hi = range.length == 2 ? number(range[1], name, lineNumber, "rank") : lo;
                        if (hi < lo || hi >= ranks) {
                            throw new InputFormatException(
                                    name, lineNumber, "rank range '" + f[i] + "' outside [0, " + ranks + ")");
                        }
                        for (int r = lo; r <= hi; r++) {
                            if (of[r] >= 0) {
                                throw new InputFormatException(
                                        name,
                                        lineNumber,
                                        "rank " + r + " already in cluster " + of[r] + " (line " + givenOn[r] + ")");
                            }
                            of[r] = id;
                            givenOn[r] = lineNumber;
                        }
                    }
                } else {
                    throw new InputFormatException(name, lineNumber, "unknown record '" + f[0] + "'");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!header || ranks < 0) {
            throw new InputFormatException(name, 0, "missing header or 'ranks <N>' line");
        }
        for (int r = 0; r < ranks; r++) {
            if (of[r] < 0) {
                throw new InputFormatException(name, 0, "rank " + r + " is in no cluster");
            }
        }
        for (int id = 0; id <= maxId; id++) {
            if (!idSeen[id]) {
                throw new InputFormatException(
                        name, 0, "cluster ids must be 0.." + maxId + " without gaps; " + id + " is missing");
            }
        }
        return new Clustering(of, maxId + 1);
    }

    private static int number(String text, String name, int line, String what) {
        try {
            int v = Integer.parseInt(text);
            if (v < 0) {
                throw new InputFormatException(name, line, what + " must not be negative: " + text);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new InputFormatException(name, line, what + " is not a whole number: '" + text + "'");
        }
    }
}
