package io.rewind.ft;

import io.rewind.engine.ControlMessage;
import java.util.Map;

/**
 * The control messages of local recovery, shared by the protocols that replay from logs. A restarted
 * rank asks every other rank for what it needs ({@link RollbackRequest}); each answers with what it
 * holds from the restarted rank ({@link LastMessages}) and streams the replay from its log in batches,
 * each closed by a {@link ReplayBatch} that the restarted rank acknowledges ({@link ReplayAck}) once
 * it has taken most of that peer's replayed frames in, or waits for a message from that peer: the
 * restarted rank sets the pace, so the replay waits in the peers' logs rather than in its memory, and
 * it is never starved, since a wait of its own releases the next batch. Maps are keyed by matching
 * context.
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

    /**
     * The answer: of what the restarted rank sent, the answering rank holds up to {@code arrived} per
     * context; {@code outcomes} are the determinants of the restarted rank's events it holds (causal
     * logging; empty for the other protocols); {@code digests} are the digests it kept of the messages
     * it holds from the restarted rank (replay verification; empty without it), as words: per context,
     * the context, the sequence number of the first digest, their count, then the digests.
     */
    public record LastMessages(
            int sourceWorld, int incarnation, Map<Integer, Long> arrived, long[] outcomes, long[] digests)
            implements ControlMessage {
        public LastMessages {
            arrived = Map.copyOf(arrived);
            outcomes = outcomes.clone();
            digests = digests.clone();
        }

        public LastMessages(int sourceWorld, int incarnation, Map<Integer, Long> arrived, long[] outcomes) {
            this(sourceWorld, incarnation, arrived, outcomes, new long[0]);
        }

        public LastMessages(int sourceWorld, int incarnation, Map<Integer, Long> arrived) {
            this(sourceWorld, incarnation, arrived, new long[0], new long[0]);
        }

        @Override
        public long[] outcomes() {
            return outcomes.clone();
        }

        @Override
        public long[] digests() {
            return digests.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof LastMessages m
                    && m.sourceWorld == sourceWorld
                    && m.incarnation == incarnation
                    && m.arrived.equals(arrived)
                    && java.util.Arrays.equals(m.outcomes, outcomes)
                    && java.util.Arrays.equals(m.digests, digests);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(
                    sourceWorld,
                    incarnation,
                    arrived,
                    java.util.Arrays.hashCode(outcomes),
                    java.util.Arrays.hashCode(digests));
        }

        @Override
        public String toString() {
            return "LastMessages[sourceWorld=" + sourceWorld + ", incarnation=" + incarnation + ", arrived=" + arrived
                    + ", outcomes=" + outcomes.length + " words, digests=" + digests.length + " words]";
        }
    }

    /** Closes a batch of {@code frames} replayed frames. */
    public record ReplayBatch(int sourceWorld, int incarnation, int batch, int frames) implements ControlMessage {}

    /** The restarted rank took batch {@code batch} in: the next may come. */
    public record ReplayAck(int sourceWorld, int incarnation, int batch) implements ControlMessage {}
}
