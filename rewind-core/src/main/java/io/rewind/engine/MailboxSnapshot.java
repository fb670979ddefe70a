package io.rewind.engine;

import java.util.List;
import java.util.Map;

/**
 * The matching queues of a rank at a checkpoint.
 *
 * @param frontiers  channel key (communicator context and sending world rank) to the highest sequence
 *                   number that had arrived
 * @param unexpected frames that had arrived and were not received yet, in arrival order (private copies)
 * @param held       frames that had arrived early, beyond a gap (private copies)
 * @param withdrawn  the frames their senders had withdrawn (cancelled sends), as channel key and
 *                   sequence number pairs
 */
public record MailboxSnapshot(Map<Long, Long> frontiers, List<Frame> unexpected, List<Frame> held, long[] withdrawn) {
    public MailboxSnapshot {
        frontiers = Map.copyOf(frontiers);
        unexpected = List.copyOf(unexpected);
        held = List.copyOf(held);
        withdrawn = withdrawn.clone();
        if (withdrawn.length % 2 != 0) {
            throw new IllegalArgumentException("withdrawn frames come as channel key and sequence pairs");
        }
    }

    /** A snapshot in which no send was ever withdrawn. */
    public MailboxSnapshot(Map<Long, Long> frontiers, List<Frame> unexpected, List<Frame> held) {
        this(frontiers, unexpected, held, new long[0]);
    }

    @Override
    public long[] withdrawn() {
        return withdrawn.clone();
    }
}
