package io.rewind.tools.cluster;

import io.rewind.tools.profile.CommMatrix;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Local search that lowers the largest per-rank log of a clustering, the quantity that decides
 * which rank runs out of log memory first (the SPBC paper points out that a partitioner
 * minimising total logged volume can leave some ranks logging far more than the average).
 *
 * <p>Repeatedly takes the rank with the largest log and tries: moving its group next to a rank
 * it sends to, pulling a group it sends to into its own cluster, and the same as swaps with a
 * group of equal size when the target cluster is full. The candidate that lowers the maximum
 * the most is applied (ties broken by the total logged volume); the search stops when none helps.
 * A segment tree keeps the maximum current as logs change.
 */
final class MaxLogBalancer {

    private static final int SWAP_CANDIDATES = 6;

    private final CommMatrix m;
    private final int[] groupOf;
    private final int[][] groupMembers;
    private final int[] groupWeight;
    private final int[] partOfGroup;
    private final long[] partWeight;
    private final long capacity;
    private final int[] inStart;
    private final int[] inSource;
    private final long[] inBytes;
    private final long[] tree;
    private final int leaves;
    private final SplittableRandom random;
    private final List<List<Integer>> groupsOfPart;
    private long totalLogged;

    MaxLogBalancer(CommMatrix m, Clustering groups, int[] partOfGroup, int parts, long capacity, long seed) {
        this.m = m;
        this.groupOf = groups.clusterOf();
        this.groupMembers = groups.members().toArray(new int[0][]);
        this.groupWeight = groups.sizes();
        this.partOfGroup = partOfGroup;
        this.capacity = capacity;
        this.random = new SplittableRandom(seed);
        this.partWeight = new long[parts];
        this.groupsOfPart = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            groupsOfPart.add(new ArrayList<>());
        }
        for (int g = 0; g < partOfGroup.length; g++) {
            partWeight[partOfGroup[g]] += groupWeight[g];
            groupsOfPart.get(partOfGroup[g]).add(g);
        }
        int n = m.ranks();
        inStart = new int[n + 1];
        for (int c = 0; c < m.channelCount(); c++) {
            inStart[m.destinationOf(c) + 1]++;
        }
        for (int r = 0; r < n; r++) {
            inStart[r + 1] += inStart[r];
        }
        inSource = new int[m.channelCount()];
        inBytes = new long[m.channelCount()];
        int[] fill = inStart.clone();
        for (int s = 0; s < n; s++) {
            for (int c = m.firstChannel(s); c < m.endChannel(s); c++) {
                int d = m.destinationOf(c);
                inSource[fill[d]] = s;
                inBytes[fill[d]] = m.bytesOf(c);
                fill[d]++;
            }
        }
        int size = 1;
        while (size < n) {
            size *= 2;
        }
        leaves = size;
        tree = new long[2 * size];
        java.util.Arrays.fill(tree, Long.MIN_VALUE);
        for (int r = 0; r < n; r++) {
            long log = rankLog(r);
            totalLogged += log;
            set(r, log);
        }
    }

    /** Runs the search; {@code partOfGroup} is updated in place. */
    void balance(int maxSteps) {
        for (int step = 0; step < maxSteps; step++) {
            int worst = argMax();
            long currentMax = tree[1];
            if (currentMax <= 0) {
                return;
            }
            Move best = null;
            long bestMax = currentMax;
            long bestTotal = totalLogged;
            for (Move move : candidates(worst)) {
                apply(move);
                long max = tree[1];
                long total = totalLogged;
                undo(move);
                if (max < bestMax || (max == bestMax && best != null && total < bestTotal)) {
                    best = move;
                    bestMax = max;
                    bestTotal = total;
                }
            }
            if (best == null) {
                return;
            }
            apply(best);
        }
    }

    /** Group {@code group} goes from {@code fromPart} to {@code toPart}; a swapped group goes the other way. */
    private record Move(int group, int fromPart, int toPart, int swapGroup) {}

    private List<Move> candidates(int worst) {
        List<Move> moves = new ArrayList<>();
        int home = partOfGroup[groupOf[worst]];
        java.util.Set<Integer> targets = new java.util.LinkedHashSet<>();
        java.util.Set<Integer> pulls = new java.util.LinkedHashSet<>();
        for (int c = m.firstChannel(worst); c < m.endChannel(worst); c++) {
            int d = m.destinationOf(c);
            int p = partOfGroup[groupOf[d]];
            if (p != home) {
                targets.add(p);
                pulls.add(groupOf[d]);
            }
        }
        for (int p : targets) {
            addMoveOrSwaps(moves, groupOf[worst], p);
        }
        for (int g : pulls) {
            addMoveOrSwaps(moves, g, home);
        }
        return moves;
    }

    private void addMoveOrSwaps(List<Move> moves, int group, int toPart) {
        int from = partOfGroup[group];
        // A plain move must not empty its cluster: the caller asked for a number of clusters.
        if (partWeight[toPart] + groupWeight[group] <= capacity
                && groupsOfPart.get(from).size() > 1) {
            moves.add(new Move(group, partOfGroup[group], toPart, -1));
            return;
        }
        List<Integer> there = groupsOfPart.get(toPart);
        for (int i = 0; i < SWAP_CANDIDATES && !there.isEmpty(); i++) {
            int other = there.get(random.nextInt(there.size()));
            long fromAfter = partWeight[from] - groupWeight[group] + groupWeight[other];
            long toAfter = partWeight[toPart] - groupWeight[other] + groupWeight[group];
            if (fromAfter <= capacity && toAfter <= capacity) {
                moves.add(new Move(group, from, toPart, other));
            }
        }
    }

    private void apply(Move move) {
        reassign(move.group, move.toPart);
        if (move.swapGroup >= 0) {
            reassign(move.swapGroup, move.fromPart);
        }
    }

    private void undo(Move move) {
        reassign(move.group, move.fromPart);
        if (move.swapGroup >= 0) {
            reassign(move.swapGroup, move.toPart);
        }
    }

    private void reassign(int group, int toPart) {
        int from = partOfGroup[group];
        if (from == toPart) {
            return;
        }
        partOfGroup[group] = toPart;
        partWeight[from] -= groupWeight[group];
        partWeight[toPart] += groupWeight[group];
        groupsOfPart.get(from).remove(Integer.valueOf(group));
        groupsOfPart.get(toPart).add(group);
        for (int x : groupMembers[group]) {
            refresh(x);
            for (int i = inStart[x]; i < inStart[x + 1]; i++) {
                refresh(inSource[i]);
            }
        }
    }

    private void refresh(int rank) {
        long old = tree[leaves + rank];
        long now = rankLog(rank);
        if (now != old) {
            totalLogged += now - old;
            set(rank, now);
        }
    }

    private long rankLog(int rank) {
        int home = partOfGroup[groupOf[rank]];
        long sum = 0;
        for (int c = m.firstChannel(rank); c < m.endChannel(rank); c++) {
            if (partOfGroup[groupOf[m.destinationOf(c)]] != home) {
                sum += m.bytesOf(c);
            }
        }
        return sum;
    }

    private void set(int rank, long value) {
        int i = leaves + rank;
        tree[i] = value;
        for (i >>= 1; i >= 1; i >>= 1) {
            tree[i] = Math.max(tree[2 * i], tree[2 * i + 1]);
        }
    }

    private int argMax() {
        int i = 1;
        while (i < leaves) {
            i = tree[2 * i] >= tree[2 * i + 1] ? 2 * i : 2 * i + 1;
        }
        return i - leaves;
    }
}
