package io.rewind.tools.mcml;

import io.rewind.tools.profile.CommMatrix;
import java.util.Arrays;

/**
 * Replays MCML's channel switch-off (Algorithm 1 of "Memory-constrained message logging") on a
 * profile. Each rank logs what it sends; whenever its log would exceed the budget it stops
 * logging one more outgoing channel, chosen by the strategy, and drops that channel's logged
 * messages.
 *
 * <p>The profile only has totals per channel, so the replay assumes every channel sends at a
 * steady rate over the checkpoint interval the profile covers. Under that assumption the
 * protocol ends with exactly the shortest prefix of the strategy's order whose removal brings
 * the rank's log under the budget, which is what is computed here.
 *
 * @param off               per channel index of the matrix: whether logging was switched off
 * @param loggedPerRank     bytes each rank still logs at the end
 * @param thresholdBytes    the per-rank budget
 * @param channelsSwitchedOff number of channels no longer logged
 */
public record ChannelSwitchOff(boolean[] off, long[] loggedPerRank, long thresholdBytes, int channelsSwitchedOff) {

    public static ChannelSwitchOff apply(CommMatrix m, long thresholdBytes, SwitchOffStrategy strategy) {
        boolean[] off = new boolean[m.channelCount()];
        long[] logged = new long[m.ranks()];
        int count = 0;
        for (int s = 0; s < m.ranks(); s++) {
            int first = m.firstChannel(s);
            int end = m.endChannel(s);
            long total = 0;
            for (int c = first; c < end; c++) {
                total += m.bytesOf(c);
            }
            if (total > thresholdBytes) {
                Integer[] order = new Integer[end - first];
                for (int i = 0; i < order.length; i++) {
                    order[i] = first + i;
                }
                final int source = s;
                switch (strategy) {
                    case SwitchOffStrategy.HeaviestLinkFirst h -> Arrays.sort(order, (a, b) -> heavierFirst(m, a, b));
                    case SwitchOffStrategy.DendrogramNearestFirst d -> Arrays.sort(order, (a, b) -> {
                        int da = d.dendrogram().commonDepth(source, m.destinationOf(a));
                        int db = d.dendrogram().commonDepth(source, m.destinationOf(b));
                        return da != db ? Integer.compare(db, da) : heavierFirst(m, a, b);
                    });
                }
                for (int i = 0; i < order.length && total > thresholdBytes; i++) {
                    off[order[i]] = true;
                    total -= m.bytesOf(order[i]);
                    count++;
                }
            }
            logged[s] = total;
        }
        return new ChannelSwitchOff(off, logged, thresholdBytes, count);
    }

    private static int heavierFirst(CommMatrix m, int a, int b) {
        int byBytes = Long.compare(m.bytesOf(b), m.bytesOf(a));
        // Equal weights: lower destination first, so results do not depend on sort stability.
        return byBytes != 0 ? byBytes : Integer.compare(m.destinationOf(a), m.destinationOf(b));
    }
}
