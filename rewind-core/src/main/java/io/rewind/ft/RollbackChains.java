package io.rewind.ft;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rollback chain over channels whose messages nobody can send again: when a rank rolls back, every
 * rank whose channel to it is unlogged has to roll back too (it alone can send those messages again),
 * transitively. Memory-constrained logging switches channels off, and logger nodes lose what a dead
 * logger alone held; both ask this one algorithm, so that neither has to know the other.
 */
public final class RollbackChains {
    private RollbackChains() {}

    /** A rollback set: every rank in it, those dragged in by unlogged channels, the chain's depth. */
    public record Chain(Set<Integer> ranks, Set<Integer> dragged, int depth) {}

    /**
     * The ranks that roll back with {@code failed} when {@code unlogged[s][d]} says rank {@code s} keeps
     * no log of what it sent to rank {@code d}: every rank whose channel to a rolling-back rank is
     * unlogged, transitively; and the depth of that chain (0 when only the failed ranks roll back).
     */
    public static Chain rollbackSet(Set<Integer> failed, boolean[][] unlogged) {
        int n = unlogged.length;
        int[] depth = new int[n];
        Arrays.fill(depth, -1);
        Deque<Integer> queue = new ArrayDeque<>();
        for (int f : failed) {
            depth[f] = 0;
            queue.add(f);
        }
        Set<Integer> dragged = new TreeSet<>();
        int deepest = 0;
        while (!queue.isEmpty()) {
            int y = queue.poll();
            for (int z = 0; z < n; z++) {
                if (depth[z] < 0 && unlogged[z][y]) {
                    depth[z] = depth[y] + 1;
                    deepest = Math.max(deepest, depth[z]);
                    dragged.add(z);
                    queue.add(z);
                }
            }
        }
        Set<Integer> all = new TreeSet<>(failed);
        all.addAll(dragged);
        return new Chain(all, dragged, deepest);
    }
}
