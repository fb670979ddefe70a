package io.rewind.ft.mcml;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which outgoing channel a rank over its log quota stops logging first: the heaviest (the most bytes
 * held in its log), or the nearest in a dendrogram (the channel to the rank that shares the smallest
 * cluster with it, heaviest first among equals). Ties go to the lower destination rank. This is the
 * order {@code rewind analyze mcml} assumes, so that a run switches off what the analysis predicts.
 *
 * <p>The spec is what {@code --switch-off} takes and the job carries: {@code heaviest}, {@code
 * dendrogram} (halves of contiguous rank ranges, as in the MCML paper's example), or {@code
 * dendrogram=P0/P1/...}, each rank's path from the root as a string of 0s and 1s (what a dendrogram
 * file holds, {@link #readDendrogramFile}).
 *
 * @param paths each rank's path from the root of the dendrogram; null for heaviest-first
 */
public record SwitchOffOrder(int[][] paths) {
    public static final SwitchOffOrder HEAVIEST = new SwitchOffOrder(null);

    /** The first line of a dendrogram file. */
    public static final String DENDROGRAM_MAGIC = "rewind-dendrogram 1";

    /**
     * The order a spec names.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static SwitchOffOrder parse(String spec) {
        String s = spec == null ? "" : spec.trim();
        if (s.equalsIgnoreCase("heaviest")) {
            return HEAVIEST;
        }
        if (s.equalsIgnoreCase("dendrogram")) {
            return new SwitchOffOrder(new int[0][]); // contiguous, sized when the job's ranks are known
        }
        if (s.startsWith("dendrogram=")) {
            String[] parts = s.substring("dendrogram=".length()).split("/", -1);
            int[][] paths = new int[parts.length][];
            for (int r = 0; r < parts.length; r++) {
                paths[r] = path(parts[r], "rank " + r);
            }
            return new SwitchOffOrder(paths);
        }
        throw new IllegalArgumentException(
                "unknown switch-off order '" + spec + "' (heaviest, dendrogram or dendrogram:FILE)");
    }

    /** The spec this order is parsed back from. */
    public String spec() {
        if (paths == null) {
            return "heaviest";
        }
        if (paths.length == 0) {
            return "dendrogram";
        }
        StringBuilder b = new StringBuilder("dendrogram=");
        for (int r = 0; r < paths.length; r++) {
            if (r > 0) {
                b.append('/');
            }
            for (int bit : paths[r]) {
                b.append(bit);
            }
        }
        return b.toString();
    }

    /** This order for a job of {@code ranks} ranks: a contiguous dendrogram gets its paths. */
    public SwitchOffOrder forRanks(int ranks) {
        if (paths == null) {
            return this;
        }
        if (paths.length == 0) {
            return new SwitchOffOrder(contiguousPaths(ranks));
        }
        if (paths.length != ranks) {
            throw new IllegalArgumentException("the dendrogram has " + paths.length + " ranks, the job " + ranks);
        }
        return this;
    }

    /**
     * The destination whose channel {@code self} switches off next: among those with bytes held
     * ({@code heldTo[d] > 0}), the nearest in the dendrogram (if any), then the heaviest, then the
     * lowest rank; -1 if none has bytes held.
     */
    public int nextOff(int self, long[] heldTo) {
        int best = -1;
        for (int d = 0; d < heldTo.length; d++) {
            if (d == self || heldTo[d] <= 0) {
                continue;
            }
            if (best < 0 || before(self, d, best, heldTo)) {
                best = d;
            }
        }
        return best;
    }

    private boolean before(int self, int a, int b, long[] heldTo) {
        if (paths != null) {
            int da = commonDepth(self, a);
            int db = commonDepth(self, b);
            if (da != db) {
                return da > db;
            }
        }
        if (heldTo[a] != heldTo[b]) {
            return heldTo[a] > heldTo[b];
        }
        return a < b;
    }

    /** Depth of the smallest cluster of the dendrogram holding both ranks (deeper: nearer). */
    int commonDepth(int a, int b) {
        int[] pa = paths[a];
        int[] pb = paths[b];
        int d = 0;
        while (d < pa.length && d < pb.length && pa[d] == pb[d]) {
            d++;
        }
        return d;
    }

    /** Halves of contiguous rank ranges ([4-5] in [4-7] in [0-7]): each rank's path from the root. */
    public static int[][] contiguousPaths(int ranks) {
        int[][] path = new int[ranks][];
        fill(path, 0, ranks, new int[0]);
        return path;
    }

    private static void fill(int[][] path, int lo, int hi, int[] prefix) {
        if (hi - lo == 1) {
            path[lo] = prefix;
            return;
        }
        int mid = (lo + hi) >>> 1;
        int[] left = Arrays.copyOf(prefix, prefix.length + 1);
        int[] right = left.clone();
        right[prefix.length] = 1;
        fill(path, lo, mid, left);
        fill(path, mid, hi, right);
    }

    /** A dendrogram file: {@link #DENDROGRAM_MAGIC}, {@code ranks N}, then {@code rank R PATH} per rank. */
    public static String dendrogramText(int[][] paths) {
        StringBuilder b = new StringBuilder(DENDROGRAM_MAGIC).append('\n');
        b.append("ranks ").append(paths.length).append('\n');
        for (int r = 0; r < paths.length; r++) {
            b.append("rank ").append(r).append(' ');
            for (int bit : paths[r]) {
                b.append(bit);
            }
            b.append(paths[r].length == 0 ? "-" : "").append('\n');
        }
        return b.toString();
    }

    /**
     * Reads a dendrogram file.
     *
     * @throws IllegalArgumentException naming the file and line that is wrong
     */
    public static SwitchOffOrder readDendrogramFile(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dendrogram file " + file + ": " + e.getMessage(), e);
        }
        List<String> content = new ArrayList<>();
        for (String l : lines) {
            String t = l.strip();
            if (!t.isEmpty() && !t.startsWith("#")) {
                content.add(t);
            }
        }
        if (content.isEmpty() || !content.get(0).equals(DENDROGRAM_MAGIC)) {
            throw new IllegalArgumentException(
                    file + ": not a dendrogram file (its first line is not '" + DENDROGRAM_MAGIC + "')");
        }
        if (content.size() < 2 || !content.get(1).startsWith("ranks ")) {
            throw new IllegalArgumentException(file + ": the second line must be 'ranks N'");
        }
        int ranks;
        try {
            ranks = Integer.parseInt(content.get(1).substring(6).strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(file + ": bad rank count in '" + content.get(1) + "'");
        }
        if (ranks < 1 || content.size() != ranks + 2) {
            throw new IllegalArgumentException(
                    file + ": " + ranks + " ranks announced, " + (content.size() - 2) + " rank lines given");
        }
        int[][] paths = new int[ranks][];
        for (String l : content.subList(2, content.size())) {
            String[] f = l.split("\\s+");
            if (f.length != 3 || !f[0].equals("rank")) {
                throw new IllegalArgumentException(file + ": expected 'rank R PATH', got '" + l + "'");
            }
            int r;
            try {
                r = Integer.parseInt(f[1]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(file + ": bad rank in '" + l + "'");
            }
            if (r < 0 || r >= ranks || paths[r] != null) {
                throw new IllegalArgumentException(file + ": rank " + r + " out of range or given twice");
            }
            paths[r] = path(f[2].equals("-") ? "" : f[2], file + " rank " + r);
        }
        for (int r = 0; r < ranks; r++) {
            for (int o = r + 1; o < ranks; o++) {
                if (Arrays.equals(paths[r], paths[o])) {
                    throw new IllegalArgumentException(file + ": ranks " + r + " and " + o + " have the same path");
                }
            }
        }
        return new SwitchOffOrder(paths);
    }

    private static int[] path(String bits, String what) {
        int[] p = new int[bits.length()];
        for (int i = 0; i < bits.length(); i++) {
            char c = bits.charAt(i);
            if (c != '0' && c != '1') {
                throw new IllegalArgumentException(what + ": a dendrogram path is made of 0 and 1, not '" + bits + "'");
            }
            p[i] = c - '0';
        }
        return p;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SwitchOffOrder s && Arrays.deepEquals(s.paths, paths);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(paths);
    }

    @Override
    public String toString() {
        return paths == null ? "heaviest" : "dendrogram";
    }
}
