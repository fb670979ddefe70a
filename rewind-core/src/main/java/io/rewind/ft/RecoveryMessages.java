package io.rewind.ft;

import io.rewind.engine.ControlMessage;
import java.util.Map;

/**
 * The control messages of local recovery, shared by the protocols that replay from logs. A restarted
 * rank asks every other rank for what it needs ({@link RollbackRequest}); each answers with what it
 * holds from the restarted rank ({@link LastMessages}) and streams the replay from its log in batches,
 * each closed by a {@link ReplayBatch} that the restarted rank acknowledges ({@link ReplayAck}) once
 * its own progress gets to it: the restarted rank sets the pace, so it is never flooded, and it is
 * never starved, since any wait of its own makes progress. Maps are keyed by matching context.
 */
public final class RecoveryMessages {
    private RecoveryMessages() {}

    /**
     * A restarted rank to another: "I am incarnation {@code incarnation} of rank {@code sourceWorld};
     * of what you sent me, I hold up to {@code held} per context; send me the rest".
     */
    public record RollbackRequest(int sourceWorld, int incarnation, Map<Integer, Long> held) implements ControlMessage {
        public RollbackRequest {
            held = Map.copyOf(held);
        }
    }

    /** The answer: of what the restarted rank sent, the answering rank holds up to {@code arrived} per context. */
    public record LastMessages(int sourceWorld, int incarnation, Map<Integer, Long> arrived) implements ControlMessage {
        public LastMessages {
            arrived = Map.copyOf(arrived);
        }
    }

    /** Closes a batch of {@code frames} replayed frames. */
    public record ReplayBatch(int sourceWorld, int incarnation, int batch, int frames) implements ControlMessage {}

    /** The restarted rank took batch {@code batch} in: the next may come. */
    public record ReplayAck(int sourceWorld, int incarnation, int batch) implements ControlMessage {}
}
