package io.rewind.tools.mcml;

import io.rewind.tools.profile.CommMatrix;
import java.util.ArrayList;
import java.util.List;

/**
 * The table `rewind analyze mcml` prints: for each threshold theta (percent of the largest
 * per-rank log under full logging, as in the MCML paper) and each strategy, how many channels
 * are switched off, what share of the bytes is no longer logged, and the average rollback set
 * and chain after one failure.
 *
 * @param fullLogMaxBytes largest per-rank log when everything is logged (theta's 100 %)
 * @param rows            one row per (strategy, theta)
 */
public record McmlAnalysis(long fullLogMaxBytes, List<Row> rows) {

    /**
     * @param strategy          strategy name
     * @param thetaPercent      threshold as a percentage of {@code fullLogMaxBytes}
     * @param thresholdBytes    per-rank log budget in bytes
     * @param channelsOff       channels no longer logged
     * @param unloggedFraction  share of all bytes no longer logged
     * @param maxLogBytes       largest per-rank log after switching off
     * @param rollback          rollback set and chain
     * @param switchedOff       the channels switched off, as {source, destination}, by source then order
     */
    public record Row(
            String strategy,
            double thetaPercent,
            long thresholdBytes,
            int channelsOff,
            double unloggedFraction,
            long maxLogBytes,
            RollbackAnalysis rollback,
            List<int[]> switchedOff) {}

    public static McmlAnalysis run(CommMatrix m, double[] thetasPercent, List<SwitchOffStrategy> strategies) {
        long fullMax = 0;
        for (long sent : m.bytesSent()) {
            fullMax = Math.max(fullMax, sent);
        }
        long total = m.totalBytes();
        List<Row> rows = new ArrayList<>();
        for (SwitchOffStrategy strategy : strategies) {
            for (double theta : thetasPercent) {
                if (theta < 0 || Double.isNaN(theta)) {
                    throw new IllegalArgumentException("theta must be a non-negative percentage: " + theta);
                }
                long threshold = (long) Math.floor(fullMax * theta / 100.0);
                rows.add(row(m, strategy, theta, threshold, total));
            }
        }
        return new McmlAnalysis(fullMax, rows);
    }

    /** The same analysis for budgets given in bytes (theta is then what each is of the largest log). */
    public static McmlAnalysis runForBudgets(CommMatrix m, long[] budgets, List<SwitchOffStrategy> strategies) {
        long fullMax = 0;
        for (long sent : m.bytesSent()) {
            fullMax = Math.max(fullMax, sent);
        }
        List<Row> rows = new ArrayList<>();
        for (SwitchOffStrategy strategy : strategies) {
            for (long budget : budgets) {
                if (budget < 0) {
                    throw new IllegalArgumentException("a budget must be a non-negative number of bytes: " + budget);
                }
                double theta = fullMax == 0 ? 100 : 100.0 * budget / fullMax;
                rows.add(row(m, strategy, theta, budget, m.totalBytes()));
            }
        }
        return new McmlAnalysis(fullMax, rows);
    }

    private static Row row(CommMatrix m, SwitchOffStrategy strategy, double theta, long threshold, long total) {
        ChannelSwitchOff switchOff = ChannelSwitchOff.apply(m, threshold, strategy);
        long stillLogged = 0;
        long maxLog = 0;
        for (long l : switchOff.loggedPerRank()) {
            stillLogged += l;
            maxLog = Math.max(maxLog, l);
        }
        List<int[]> off = new ArrayList<>();
        for (int s = 0; s < m.ranks(); s++) {
            for (int c = m.firstChannel(s); c < m.endChannel(s); c++) {
                if (switchOff.off()[c]) {
                    off.add(new int[] {s, m.destinationOf(c)});
                }
            }
        }
        return new Row(
                strategy.name(),
                theta,
                threshold,
                switchOff.channelsSwitchedOff(),
                total == 0 ? 0 : 1.0 - (double) stillLogged / total,
                maxLog,
                RollbackAnalysis.of(m, switchOff.off()),
                off);
    }
}
