package io.rewind.tools.mcml;

import io.rewind.tools.profile.CommMatrix;
import java.util.SplittableRandom;

/**
 * Rollback set and rollback chain after a single failure, as measured in the MCML paper.
 *
 * <p>When rank Y restarts, every rank Z whose channel Z to Y was not logged cannot replay what
 * Y needs and must roll back too; a rolled-back rank drags in the ranks with unlogged channels
 * towards it in turn. The rollback set of Y is everything reached this way, Y included; the
 * rollback chain is the longest sequence of such forced rollbacks (the depth of the
 * breadth-first search from Y). In the paper's figure 5 the set has 3 ranks and the chain 2.
 * Both are averaged over every possible failed rank and expressed as a share of all ranks.
 *
 * <p>Cost: one search per rank. When rollback sets are huge (a tiny budget on a large run)
 * that is quadratic, so after a work budget the remaining failed ranks are sampled uniformly
 * and the result says how many were measured.
 *
 * @param avgSetSize     mean rollback set size in ranks
 * @param avgChainLength mean rollback chain length
 * @param maxSetSize     largest rollback set seen
 * @param sampledRanks   failed ranks measured (all ranks unless the work budget ran out)
 * @param ranks          total ranks
 */
public record RollbackAnalysis(double avgSetSize, double avgChainLength, int maxSetSize, int sampledRanks, int ranks) {

    /** Edge visits allowed before sampling; keeps 16,384 ranks within seconds. */
    static final long WORK_BUDGET = 200_000_000L;

    static final int MIN_SAMPLE = 1024;

    public static RollbackAnalysis of(CommMatrix m, boolean[] off) {
        int n = m.ranks();
        // forcedBy[y] = ranks with an unlogged channel into y (they roll back when y does).
        int[] start = new int[n + 1];
        for (int s = 0; s < n; s++) {
            for (int c = m.firstChannel(s); c < m.endChannel(s); c++) {
                if (off[c]) {
                    start[m.destinationOf(c) + 1]++;
                }
            }
        }
        for (int r = 0; r < n; r++) {
            start[r + 1] += start[r];
        }
        int[] forced = new int[start[n]];
        int[] fill = start.clone();
        for (int s = 0; s < n; s++) {
            for (int c = m.firstChannel(s); c < m.endChannel(s); c++) {
                if (off[c]) {
                    forced[fill[m.destinationOf(c)]++] = s;
                }
            }
        }
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        SplittableRandom random = new SplittableRandom(0x5eed);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[] seenBy = new int[n];
        java.util.Arrays.fill(seenBy, -1);
        int[] queue = new int[n];
        int[] depth = new int[n];
        long work = 0;
        long setSum = 0;
        long chainSum = 0;
        int maxSet = 0;
        int measured = 0;
        for (int failed : order) {
            if (work > WORK_BUDGET && measured >= MIN_SAMPLE) {
                break;
            }
            int head = 0;
            int tail = 0;
            queue[tail++] = failed;
            seenBy[failed] = failed;
            depth[failed] = 0;
            int deepest = 0;
            while (head < tail) {
                int y = queue[head++];
                for (int i = start[y]; i < start[y + 1]; i++) {
                    int z = forced[i];
                    work++;
                    if (seenBy[z] != failed) {
                        seenBy[z] = failed;
                        depth[z] = depth[y] + 1;
                        deepest = Math.max(deepest, depth[z]);
                        queue[tail++] = z;
                    }
                }
            }
            work += tail;
            setSum += tail;
            chainSum += deepest;
            maxSet = Math.max(maxSet, tail);
            measured++;
        }
        return new RollbackAnalysis((double) setSum / measured, (double) chainSum / measured, maxSet, measured, n);
    }

    /** Average rollback set as a percentage of all ranks (the paper's tables II, III and V). */
    public double avgSetPercent() {
        return 100.0 * avgSetSize / ranks;
    }

    /** Average rollback chain as a percentage of all ranks (the paper's table II). */
    public double avgChainPercent() {
        return 100.0 * avgChainLength / ranks;
    }

    public boolean sampled() {
        return sampledRanks < ranks;
    }
}
