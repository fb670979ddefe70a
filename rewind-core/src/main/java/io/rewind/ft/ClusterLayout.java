package io.rewind.ft;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * How a hierarchical protocol partitions the ranks into clusters: {@code K} contiguous blocks, one
 * cluster per node, or an explicit cluster number per rank (what a cluster file of {@code rewind
 * analyze cluster} says). Written as a spec for command lines and job descriptions:
 *
 * <ul>
 *   <li>{@code default}: two blocks, or one cluster for a single rank;
 *   <li>{@code each}: one cluster per rank;
 *   <li>{@code 4}: four blocks of contiguous ranks (sizes differ by at most one);
 *   <li>{@code node}: the ranks placed on one node form a cluster (one cluster when every rank is a
 *       thread of one JVM);
 *   <li>{@code ranks:0,0,1,1}: the cluster of each rank, in rank order, numbered from 0 without gaps.
 * </ul>
 *
 * Immutable.
 */
public final class ClusterLayout {
    private static final String EXPLICIT_PREFIX = "ranks:";

    /** What the layout is made of. */
    public enum Kind {
        BLOCKS,
        NODE,
        EXPLICIT
    }

    private static final String DEFAULT_SPEC = "default";
    private static final String EACH_SPEC = "each";

    /**
     * Two blocks (one for a single rank): the default, so that a failure rolls back half of the ranks.
     * Its spec is {@code default}.
     */
    public static final ClusterLayout DEFAULT = new ClusterLayout(Kind.BLOCKS, 2, null, true);

    /** One cluster per rank, whatever the number of ranks (pure message logging). Its spec is {@code each}. */
    public static final ClusterLayout EACH_RANK = new ClusterLayout(Kind.BLOCKS, Integer.MAX_VALUE, null, true);

    private final Kind kind;
    private final int blocks;
    private final int[] of;
    /** Whether fewer ranks than blocks make one cluster per rank instead of an error (the default only). */
    private final boolean capped;

    private ClusterLayout(Kind kind, int blocks, int[] of, boolean capped) {
        this.kind = kind;
        this.blocks = blocks;
        this.of = of;
        this.capped = capped;
    }

    /** {@code k} blocks of contiguous ranks. */
    public static ClusterLayout blocks(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("the number of clusters must be at least 1, was " + k);
        }
        return new ClusterLayout(Kind.BLOCKS, k, null, false);
    }

    /**
     * The layout the recovery oracle's jobs use: {@code -Drewind.spbc.clusters=SPEC} (a slow tier runs
     * the suites with {@code 1}, {@code each} ...), else {@link #DEFAULT}.
     */
    public static ClusterLayout forTests() {
        return parse(System.getProperty("rewind.spbc.clusters", DEFAULT_SPEC));
    }

    /** One cluster per node. */
    public static ClusterLayout perNode() {
        return new ClusterLayout(Kind.NODE, 0, null, false);
    }

    /** Rank {@code r} in cluster {@code clusterOf[r]}; clusters numbered 0..K-1 without gaps. */
    public static ClusterLayout explicit(int[] clusterOf) {
        Objects.requireNonNull(clusterOf, "clusterOf");
        if (clusterOf.length == 0) {
            throw new IllegalArgumentException("a cluster layout names the cluster of at least one rank");
        }
        int max = -1;
        for (int r = 0; r < clusterOf.length; r++) {
            if (clusterOf[r] < 0) {
                throw new IllegalArgumentException("rank " + r + " has a negative cluster number " + clusterOf[r]);
            }
            max = Math.max(max, clusterOf[r]);
        }
        boolean[] used = new boolean[max + 1];
        for (int c : clusterOf) {
            used[c] = true;
        }
        for (int c = 0; c <= max; c++) {
            if (!used[c]) {
                throw new IllegalArgumentException(
                        "clusters must be numbered 0.." + max + " without gaps; no rank is in cluster " + c);
            }
        }
        return new ClusterLayout(Kind.EXPLICIT, 0, clusterOf.clone(), false);
    }

    /**
     * The layout a spec names ({@code K}, {@code node} or {@code ranks:c0,c1,...}).
     *
     * @throws IllegalArgumentException saying what is accepted, for anything else
     */
    public static ClusterLayout parse(String spec) {
        String s = spec == null ? "" : spec.strip();
        if (s.equalsIgnoreCase(DEFAULT_SPEC)) {
            return DEFAULT;
        }
        if (s.equalsIgnoreCase(EACH_SPEC)) {
            return EACH_RANK;
        }
        if (s.equalsIgnoreCase("node")) {
            return perNode();
        }
        if (s.startsWith(EXPLICIT_PREFIX)) {
            String[] parts = s.substring(EXPLICIT_PREFIX.length()).split(",", -1);
            int[] of = new int[parts.length];
            for (int i = 0; i < parts.length; i++) {
                of[i] = number(parts[i].strip(), spec);
            }
            return explicit(of);
        }
        return blocks(number(s, spec));
    }

    /**
     * The layout a cluster file of {@code rewind analyze cluster} holds (format in {@code
     * docs/formats.md}): a header line, {@code ranks N}, then {@code cluster ID RANKS...} lines with
     * single ranks or inclusive ranges. Every mistake is named with its line.
     *
     * @throws IllegalArgumentException saying what is wrong, as {@code FILE:LINE: problem}
     */
    public static ClusterLayout readFile(java.nio.file.Path file) {
        List<String> lines;
        try {
            lines = java.nio.file.Files.readAllLines(file, java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
        int[] of = null;
        boolean header = false;
        for (int i = 0; i < lines.size(); i++) {
            String where = file + ":" + (i + 1) + ": ";
            String s = lines.get(i).strip();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            String[] f = s.split("\\s+");
            if (!header) {
                if (!s.equals(FILE_MAGIC)) {
                    throw new IllegalArgumentException(
                            where + "not a cluster file: the first line must be '" + FILE_MAGIC + "'");
                }
                header = true;
            } else if (f[0].equals("ranks") && f.length == 2 && of == null) {
                int n = fileNumber(f[1], where);
                if (n < 1) {
                    throw new IllegalArgumentException(where + "rank count must be positive");
                }
                of = new int[n];
                Arrays.fill(of, -1);
            } else if (f[0].equals("cluster") && f.length >= 3 && of != null) {
                int id = fileNumber(f[1], where);
                for (int k = 2; k < f.length; k++) {
                    String[] range = f[k].split("-", -1);
                    int lo = fileNumber(range[0], where);
                    int hi = range.length == 2 ? fileNumber(range[1], where) : lo;
                    if (range.length > 2 || hi < lo || hi >= of.length) {
                        throw new IllegalArgumentException(
                                where + "rank range '" + f[k] + "' outside [0, " + of.length + ")");
                    }
                    for (int r = lo; r <= hi; r++) {
                        if (of[r] >= 0) {
                            throw new IllegalArgumentException(where + "rank " + r + " already in cluster " + of[r]);
                        }
                        of[r] = id;
                    }
                }
            } else {
                throw new IllegalArgumentException(where + "expected 'ranks N' once, then 'cluster ID RANKS...'");
            }
        }
        if (of == null) {
            throw new IllegalArgumentException(file + ": missing header or 'ranks N' line");
        }
        for (int r = 0; r < of.length; r++) {
            if (of[r] < 0) {
                throw new IllegalArgumentException(file + ": rank " + r + " is in no cluster");
            }
        }
        try {
            return explicit(of);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** The first line of a cluster file. */
    private static final String FILE_MAGIC = "rewind-clusters 1";

    private static int fileNumber(String s, String where) {
        try {
            int v = Integer.parseInt(s);
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(where + "not a whole number: '" + s + "'");
    }

    private static int number(String s, String spec) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad cluster layout '" + spec
                    + "': expected a number of clusters, 'each', 'node', a cluster file, or 'ranks:' and one"
                    + " cluster number per rank");
        }
    }

    public Kind kind() {
        return kind;
    }

    /** The spec {@link #parse} reads back. */
    public String spec() {
        return switch (kind) {
            case BLOCKS -> capped ? (blocks == Integer.MAX_VALUE ? EACH_SPEC : DEFAULT_SPEC) : Integer.toString(blocks);
            case NODE -> "node";
            case EXPLICIT -> {
                StringBuilder b = new StringBuilder(EXPLICIT_PREFIX);
                for (int r = 0; r < of.length; r++) {
                    b.append(r == 0 ? "" : ",").append(of[r]);
                }
                yield b.toString();
            }
        };
    }

    /**
     * The cluster of every rank of a job of {@code ranks} ranks.
     *
     * @param nodeOfRank the node each rank is placed on (any numbering), or null when every rank is a
     *                   thread of one JVM
     * @throws IllegalArgumentException if the layout does not fit the job (more blocks than ranks, an
     *                                  explicit layout for another number of ranks)
     */
    public int[] assign(int ranks, int[] nodeOfRank) {
        int[] out = new int[ranks];
        switch (kind) {
            case BLOCKS -> {
                int blocks = capped ? Math.min(this.blocks, ranks) : this.blocks;
                if (blocks > ranks) {
                    throw new IllegalArgumentException(
                            "cannot make " + blocks + " clusters of " + ranks + " rank" + (ranks == 1 ? "" : "s"));
                }
                for (int r = 0; r < ranks; r++) {
                    out[r] = (int) ((long) r * blocks / ranks);
                }
            }
            case NODE -> {
                if (nodeOfRank != null) {
                    // Clusters numbered in order of their lowest rank.
                    int[] clusterOfNode =
                            new int[Arrays.stream(nodeOfRank).max().orElse(0) + 1];
                    Arrays.fill(clusterOfNode, -1);
                    int next = 0;
                    for (int r = 0; r < ranks; r++) {
                        int n = nodeOfRank[r];
                        if (clusterOfNode[n] < 0) {
                            clusterOfNode[n] = next++;
                        }
                        out[r] = clusterOfNode[n];
                    }
                }
            }
            case EXPLICIT -> {
                if (of.length != ranks) {
                    throw new IllegalArgumentException(
                            "the cluster layout is for " + of.length + " ranks, the job has " + ranks);
                }
                System.arraycopy(of, 0, out, 0, ranks);
            }
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClusterLayout c
                && c.kind == kind
                && c.blocks == blocks
                && c.capped == capped
                && Arrays.equals(c.of, of);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, blocks, Arrays.hashCode(of));
    }

    @Override
    public String toString() {
        return spec();
    }
}
