package io.rewind.tools.analysis;

import io.rewind.tools.profile.CommMatrix;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Per-rank load with its summary: mean, maximum, the heaviest ranks and the Gini index.
 *
 * @param kind     what was counted
 * @param perRank  load of each rank in bytes, indexed by rank
 * @param gini     Gini index of {@code perRank} (see {@link GiniIndex})
 * @param total    sum over ranks
 * @param max      heaviest rank's load
 * @param mean     average load
 * @param heaviest up to ten heaviest ranks, heaviest first
 */
public record LoadDistribution(
        LoadKind kind, long[] perRank, double gini, long total, long max, double mean, int[] heaviest) {

    public static LoadDistribution of(CommMatrix matrix, LoadKind kind) {
        long[] load =
                switch (kind) {
                    case SENT -> matrix.bytesSent();
                    case RECEIVED -> matrix.bytesReceived();
                    case TOTAL -> {
                        long[] s = matrix.bytesSent();
                        long[] r = matrix.bytesReceived();
                        for (int i = 0; i < s.length; i++) {
                            s[i] += r[i];
                        }
                        yield s;
                    }
                };
        long total = Arrays.stream(load).sum();
        long max = Arrays.stream(load).max().orElse(0);
        int[] heaviest = IntStream.range(0, load.length)
                .boxed()
                .sorted(Comparator.<Integer>comparingLong(r -> load[r])
                        .reversed()
                        .thenComparing(r -> r))
                .limit(10)
                .mapToInt(Integer::intValue)
                .toArray();
        return new LoadDistribution(
                kind,
                load,
                GiniIndex.of(load),
                total,
                max,
                load.length == 0 ? 0 : (double) total / load.length,
                heaviest);
    }

    /** Loads sorted from lightest to heaviest (the curve the report draws). */
    public long[] sortedLoads() {
        long[] sorted = perRank.clone();
        Arrays.sort(sorted);
        return sorted;
    }

    /** Max over mean: 1 for a perfectly even load. */
    public double peakToMean() {
        return mean == 0 ? 1.0 : max / mean;
    }
}
