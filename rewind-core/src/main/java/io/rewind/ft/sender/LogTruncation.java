package io.rewind.ft.sender;

import io.rewind.engine.ChannelKey;
import io.rewind.ft.log.Channel;
import io.rewind.ft.log.MessageKey;
import io.rewind.ft.log.PayloadLog;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The sender-side layer that lets logged frames go: after this rank checkpoints, what every recovery
 * line a receiver may restart from already holds ({@link SenderLoggingRank.HeldBound}: no replay can
 * ask for it); and, for the channel quota, everything logged on a channel switched off. A collective's
 * shared result goes once no frame that carries it is left. Called under the rank's logging lock.
 */
final class LogTruncation {
    /** What truncation reads and changes of the rank whose log it trims. */
    interface Host {
        /** The channels of the rank's index. */
        Iterable<SentFrames> channels();

        /** Enters the payloads staged aside into the log, so that they are trimmed like the others. */
        void enterStaged();

        /** The sequence number of the newest shared result logged (they are numbered on a channel apart). */
        long sharedSequence();

        /** {@code bytes} of indexed payload left the rank's memory. */
        void leftMemory(long bytes);
    }

    private final int worldRank;
    private final PayloadLog log;
    private final SenderLoggingRank.HeldBound held;
    /** Per outgoing channel, the sequence numbers of cancelled sends: trimmed with the log. */
    private final Map<Long, Set<Long>> cancelled;

    private final Host host;

    LogTruncation(
            int worldRank,
            PayloadLog log,
            SenderLoggingRank.HeldBound held,
            Map<Long, Set<Long>> cancelled,
            Host host) {
        this.worldRank = worldRank;
        this.log = log;
        this.held = held;
        this.cancelled = cancelled;
        this.host = host;
    }

    /** Lock held: drops what every receiver's oldest kept recovery line already holds. */
    void toHeldBounds() {
        host.enterStaged();
        for (SentFrames c : host.channels()) {
            long key = c.key;
            int dest = ChannelKey.peer(key);
            int context = ChannelKey.context(key);
            long upTo = held.safelyHeldUpTo(dest, ChannelKey.of(context, worldRank));
            if (upTo <= 0) {
                continue;
            }
            Set<Long> cancelledHere = cancelled.get(key);
            if (cancelledHere != null) {
                cancelledHere.removeIf(sequence -> sequence <= upTo);
            }
            long before = c.bytes();
            if (c.dropUpTo(upTo) == 0) {
                continue;
            }
            host.leftMemory(before - c.bytes());
            log.truncate(new Channel(context, worldRank, dest), upTo);
            c.truncatedTo(upTo);
        }
        releaseSharedResults();
    }

    /** Lock held: drops every logged frame to {@code destinationWorld} (its channel was switched off). */
    void dropChannelsTo(int destinationWorld) {
        host.enterStaged();
        long dropped = 0;
        for (SentFrames c : host.channels()) {
            if (ChannelKey.peer(c.key) != destinationWorld || c.size() == 0) {
                continue;
            }
            long last = c.sequence(c.tail() - 1);
            long before = c.bytes();
            c.dropUpTo(last);
            c.truncatedTo(last);
            dropped += before - c.bytes();
            log.truncate(new Channel(ChannelKey.context(c.key), worldRank, destinationWorld), last);
        }
        host.leftMemory(dropped);
        releaseSharedResults();
    }

    /** Lock held: releases the shared results no remaining frame refers to. */
    private void releaseSharedResults() {
        Map<Integer, Long> minLiveShared = new HashMap<>();
        for (SentFrames c : host.channels()) {
            for (int i = c.head(); i < c.tail(); i++) {
                MessageKey k = c.payload(i).key();
                if (SenderLoggingRank.isSharedContext(k.contextId())) {
                    minLiveShared.merge(k.contextId(), k.sequence(), Math::min);
                }
            }
        }
        for (Channel c : log.channels()) {
            if (SenderLoggingRank.isSharedContext(c.contextId())) {
                long min = minLiveShared.getOrDefault(c.contextId(), Long.MAX_VALUE);
                log.truncate(c, min == Long.MAX_VALUE ? host.sharedSequence() : min - 1);
            }
        }
    }
}
