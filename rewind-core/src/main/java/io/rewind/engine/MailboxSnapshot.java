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
 */
public record MailboxSnapshot(Map<Long, Long> frontiers, List<Frame> unexpected, List<Frame> held) {
    public MailboxSnapshot {
        frontiers = Map.copyOf(frontiers);
        unexpected = List.copyOf(unexpected);
        held = List.copyOf(held);
    }
}
