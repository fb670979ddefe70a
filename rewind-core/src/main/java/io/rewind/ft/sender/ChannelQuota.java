package io.rewind.ft.sender;

import java.util.HashSet;
import java.util.Set;

/**
 * The sender-side layer that keeps a rank's log under a quota by switching logging off on outgoing
 * channels (memory-constrained logging). Which channel goes off next, and whether the job consents,
 * is the {@link ChannelSwitch}'s (mcml's policy, {@code McmlChannels}); this layer runs the loop the
 * send path needs before each logged frame: while the log would pass the quota, pick the channel the
 * policy names, ask the job, and drop what the log holds on it.
 *
 * <p>Asking the job is a round trip to the launcher when ranks are processes: it happens with the
 * rank's lock let go. The candidate is chosen under the lock, and its entries are dropped under it
 * again, unless its destination started being recovered from this log meanwhile.
 */
final class ChannelQuota {
    /** What the quota reads and changes of the rank whose log it keeps. */
    interface Host {
        /** The rank's logging lock. */
        Object lock();

        /** Payload bytes the rank's log holds in memory, or is about to (staged, in flight). Lock held. */
        long memoryHeld();

        /** Payload bytes the index holds per destination world rank (point-to-point only, or all). Lock held. */
        long[] heldToEachDestination(boolean pointToPointOnly);

        /** Whether {@code peer} is being recovered from this log (a replay under way or asked for). Lock held. */
        boolean recovering(int peer);

        /** The incarnation of {@code peer} as this rank knows it. Lock held. */
        int knownIncarnation(int peer);

        /** Drops every logged frame to {@code peer}. Lock held. */
        void dropChannelsTo(int peer);
    }

    private final ChannelSwitch channels;
    private final Host host;
    private final Object lock;

    ChannelQuota(ChannelSwitch channels, Host host) {
        this.channels = channels;
        this.host = host;
        this.lock = host.lock();
    }

    /** Whether this quota limits the log at all (mcml), or every channel is logged whatever it holds. */
    boolean limits() {
        return channels.quotaBytes() != Long.MAX_VALUE;
    }

    /** Whether frames to {@code destinationWorld} are still logged (read on every send, without the lock). */
    boolean logs(int destinationWorld) {
        return channels.logs(destinationWorld);
    }

    /**
     * Lock not held. Whether a frame of {@code bytes} to {@code destinationWorld} is logged: as long as
     * the log would pass its quota, the channel the {@link ChannelSwitch} picks is switched off (the job
     * is told first) and its entries dropped, until there is room or this frame's own channel is off (a
     * frame longer than the quota switches its own channel off). A channel cannot go off while its
     * destination is being recovered from this log: its replay is under way, or the job refuses (the
     * destination restarts, or restarted and this rank has not served its request yet). If every
     * candidate is held so, the frame is logged over the quota (the job is told), and the next frame
     * tries again: waiting here instead could hold up the very recovery it waits for, since the
     * restarted rank may need this rank's next messages.
     */
    boolean roomFor(int destinationWorld, long bytes) {
        long quota = channels.quotaBytes();
        if (quota == Long.MAX_VALUE) {
            return true;
        }
        Set<Integer> refused = null;
        while (true) {
            int victim;
            int known = 0;
            long excess = 0;
            synchronized (lock) {
                if (!channels.logs(destinationWorld) || host.memoryHeld() + bytes <= quota) {
                    return channels.logs(destinationWorld);
                }
                int p2pVictim = nextOff(host.heldToEachDestination(true), refused);
                // Only collectives' frames are left to drop: they go too; with nothing held, the frame's own
                // channel, since the frame alone passes the quota.
                int anyVictim = p2pVictim >= 0 ? p2pVictim : nextOff(host.heldToEachDestination(false), refused);
                victim = anyVictim >= 0 || (refused != null && refused.contains(destinationWorld))
                        ? anyVictim
                        : destinationWorld;
                if (victim < 0) {
                    excess = host.memoryHeld() + bytes - quota;
                } else if (host.recovering(victim)) {
                    refused = refuse(refused, victim);
                    continue;
                } else {
                    known = host.knownIncarnation(victim);
                }
            }
            if (victim < 0) {
                channels.overQuota(excess); // told outside the lock: a report may be a round trip
                return channels.logs(destinationWorld);
            }
            // The job's consent, outside the lock (a round trip to the launcher when ranks are processes).
            boolean off = channels.switchOff(victim, known);
            synchronized (lock) {
                if (!off || host.recovering(victim)) {
                    // Refused, or its destination asked for a replay meanwhile: what the log holds on the
                    // channel stays (the channel, once off, logs nothing more).
                    refused = refuse(refused, victim);
                    continue;
                }
                host.dropChannelsTo(victim);
            }
        }
    }

    private static Set<Integer> refuse(Set<Integer> refused, int victim) {
        Set<Integer> out = refused == null ? new HashSet<>() : refused;
        out.add(victim);
        return out;
    }

    private int nextOff(long[] held, Set<Integer> refused) {
        if (refused != null) {
            for (int r : refused) {
                held[r] = -1; // not a candidate now
            }
        }
        return channels.nextOff(held);
    }
}
