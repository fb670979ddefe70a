package io.rewind.ft.mcml;

import io.rewind.ft.ProtocolReports;
import io.rewind.ft.sender.ChannelSwitch;

/**
 * The rank side of memory-constrained logging: which of the rank's outgoing channels are still logged,
 * learnt from the job when the incarnation starts (channels stay off for the rest of the run) and
 * changed only with the job's consent ({@link McmlProtocol#onReport}).
 */
final class McmlChannels implements ChannelSwitch {
    private final int rank;
    private final int incarnation;
    private final long quotaBytes;
    private final SwitchOffOrder order;
    private final ProtocolReports reports;
    /** Destinations no longer logged; read on every send, replaced whole under this object's monitor. */
    private volatile boolean[] off;

    McmlChannels(int rank, int incarnation, int ranks, long quotaBytes, SwitchOffOrder order, ProtocolReports reports) {
        this.rank = rank;
        this.incarnation = incarnation;
        this.quotaBytes = quotaBytes;
        this.order = order;
        this.reports = reports;
        this.off = new boolean[ranks];
    }

    /** Asks the job which channels of this rank are off already (an earlier incarnation switched them off). */
    @Override
    public void started() {
        long[] answer = reports.report(rank, incarnation, new long[] {McmlProtocol.STARTED});
        if (answer != null) {
            synchronized (this) {
                boolean[] o = off.clone();
                for (long d : answer) {
                    o[(int) d] = true;
                }
                off = o;
            }
        }
    }

    @Override
    public long quotaBytes() {
        return quotaBytes;
    }

    @Override
    public boolean logs(int destinationWorld) {
        return !off[destinationWorld];
    }

    @Override
    public int nextOff(long[] heldTo) {
        boolean[] o = off;
        long[] candidates = heldTo.clone();
        for (int d = 0; d < candidates.length; d++) {
            if (o[d]) {
                candidates[d] = 0;
            }
        }
        return order.nextOff(rank, candidates);
    }

    @Override
    public void overQuota(long excessBytes) {
        reports.report(rank, incarnation, new long[] {McmlProtocol.OVER_QUOTA, excessBytes});
    }

    @Override
    public boolean switchOff(int destinationWorld, int destinationIncarnation) {
        long[] answer = reports.report(
                rank, incarnation, new long[] {McmlProtocol.SWITCH_OFF, destinationWorld, destinationIncarnation});
        if (answer == null || answer.length != 1 || answer[0] != 1) {
            return false;
        }
        // The rank's threads may switch channels off at once: the job's answer comes outside the rank's lock.
        synchronized (this) {
            boolean[] o = off.clone();
            o[destinationWorld] = true;
            off = o;
        }
        return true;
    }
}
