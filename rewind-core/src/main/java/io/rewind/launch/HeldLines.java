package io.rewind.launch;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The launcher's view of a job's stable storage: for each rank, the recovery lines it wrote that some
 * live node still holds, which nodes those are, and what the rank had printed by then. Built from the
 * ranks' reports (a line counts once its node's checkpoint service and the partner hold it), trimmed
 * as the services trim their folders, and cut down when a node is lost. With a folder every node
 * shares, a line is held as long as it is reported, whatever happens to the nodes.
 *
 * <p>Coordinator thread only.
 */
final class HeldLines {
    /** One line of one rank: the nodes holding it, and the rank's output position in it. */
    record Held(Set<String> nodes, long[] output) {}

    private final List<TreeMap<Long, Held>> byRank = new ArrayList<>();
    private final int keepLines;
    private final boolean shared;
    /** As {@link io.rewind.checkpoint.CheckpointStore#keepFrom}: the services hold these lines back. */
    private long keepFrom = Long.MAX_VALUE;

    HeldLines(int ranks, int keepLines, boolean shared) {
        for (int r = 0; r < ranks; r++) {
            byRank.add(new TreeMap<>());
        }
        this.keepLines = keepLines;
        this.shared = shared;
    }

    /**
     * The rank wrote {@code line}, held by {@code nodes} (none: every one of them was lost since, and
     * the line with them); older lines beyond the kept number go, as on disk.
     */
    void written(int rank, long line, Collection<String> nodes, long[] output) {
        if (nodes.isEmpty() && !shared) {
            return;
        }
        TreeMap<Long, Held> lines = byRank.get(rank);
        lines.put(line, new Held(new HashSet<>(nodes), output.clone()));
        trim(lines);
    }

    /** As the services prune: beyond the newest kept, lines from {@code keepFrom} on are held back. */
    private void trim(TreeMap<Long, Held> lines) {
        while (lines.size() > keepLines
                && (lines.firstKey() < keepFrom
                        || lines.size() > keepLines + io.rewind.checkpoint.CheckpointStore.MAX_HELD_BACK)) {
            lines.pollFirstEntry();
        }
    }

    /** The services now hold lines from {@code line} on back from pruning (see {@link #trim}). */
    void keepFrom(long line) {
        keepFrom = line;
    }

    /** The rank's lines past {@code line} are gone (a rollback to it). */
    void discardAfter(int rank, long line) {
        byRank.get(rank).tailMap(line, false).clear();
    }

    /** The line could not be read back: no recovery may use it. */
    void unusable(int rank, long line) {
        byRank.get(rank).remove(line);
    }

    /** A node is lost with its disk: the lines it alone held are gone. */
    void nodeLost(String node) {
        if (shared) {
            return;
        }
        for (TreeMap<Long, Held> lines : byRank) {
            lines.values().forEach(h -> h.nodes().remove(node));
            lines.values().removeIf(h -> h.nodes().isEmpty());
        }
    }

    /** Whether {@code node} can restart the rank from {@code line} (line 0: from the beginning, anywhere). */
    boolean canRestore(int rank, long line, String node) {
        if (line == 0) {
            return true;
        }
        Held h = byRank.get(rank).get(line);
        return h != null && (shared || h.nodes().contains(node));
    }

    /** What the rank had printed (standard output, standard error) when it wrote the line; none for line 0. */
    long[] output(int rank, long line) {
        Held h = byRank.get(rank).get(line);
        return h == null ? new long[2] : h.output().clone();
    }

    /** The newest line, at most {@code atMost}, that every one of {@code ranks} still has held (0: none). */
    long newestCommonLine(Collection<Integer> ranks, long atMost) {
        TreeSet<Long> common = null;
        for (int r : ranks) {
            Set<Long> lines = byRank.get(r).headMap(atMost, true).keySet();
            if (common == null) {
                common = new TreeSet<>(lines);
            } else {
                common.retainAll(lines);
            }
        }
        return common == null || common.isEmpty() ? 0 : common.last();
    }

    /** For tests and diagnostics: the lines held of each rank. */
    Map<Long, Held> lines(int rank) {
        return Map.copyOf(byRank.get(rank));
    }
}
