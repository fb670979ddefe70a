package io.rewind.ft.sender;

import io.rewind.engine.FaultTolerance.ForcedMatch;
import io.rewind.engine.Frame;
import io.rewind.engine.RankEngine;

/**
 * What a sender-logging rank does with the outcomes of its non-deterministic events (which message a
 * wildcard receive matched, what a completion function or probe returned): keep them where a restarted
 * incarnation finds them ({@link EventLoggedOutcomes}), or keep none and say where that is unsafe (the
 * {@code spbc} protocol). One per rank incarnation, called on the rank's threads.
 */
public interface OutcomeLog {
    /** The rank's engine, before its program runs. */
    default void started(RankEngine engine) {}

    /** The rank wrote a checkpoint. */
    default void afterCheckpoint() {}

    /** The rank wrote recovery line {@code line}, or (for a restarted incarnation) starts from it. */
    default void atLine(long line) {}

    /** A wildcard-source receive matched {@code frame}; called before the receive completes. */
    void wildcardMatched(long index, Frame frame);

    /** A completion function or probe returned {@code outcome}; called before the rank sees it. */
    void polled(long index, long[] outcome);

    /** A completion function returned {@code outcome} (which requests completed); by default a poll. */
    default void completed(long index, long[] outcome) {
        polled(index, outcome);
    }

    /** For a restarted incarnation: the match wildcard receive {@code index} must make, or null. */
    ForcedMatch forcedWildcard(long index);

    /** For a restarted incarnation: the outcome poll {@code index} must have, or null. */
    long[] forcedPoll(long index);

    // Outcomes that travel with the rank's messages (causal logging); by default none do.

    /** Whether frames carry outcomes this log reads when they arrive ({@link #onPiggyback}). */
    default boolean readsPiggybacks() {
        return false;
    }

    /** The words a frame about to be handed off to {@code destinationWorld} carries, or null. */
    default long[] piggybackFor(int destinationWorld) {
        return null;
    }

    /** A frame that carries words arrived (under the mailbox's lock: do not block). */
    default void onPiggyback(Frame frame) {}

    /** Whether a restarted incarnation needs the outcomes in its peers' answers before it runs. */
    default boolean answersCarryOutcomes() {
        return false;
    }

    /**
     * The outcomes of {@code restartedRank}'s events held here, for the answer to its rollback request
     * (and, where outcomes travel with messages, those of other ranks' events it lacks).
     */
    default long[] outcomesOf(int restartedRank) {
        return NO_WORDS;
    }

    /** {@code peer} restarted from its checkpoint: what it was sent since is gone. */
    default void peerRestarted(int peer) {}

    /** For a restarted incarnation: {@code peer} answered with {@code outcomes} ({@link #outcomesOf}). */
    default void answered(int peer, long[] outcomes) {}

    /** What the log keeps in the rank's checkpoint, or null. */
    default byte[] checkpointState() {
        return null;
    }

    /** For an incarnation that starts from a checkpoint: what {@link #checkpointState} gave then. */
    default void restoreState(byte[] state) {}

    /** Determinants made, frames that carried some, words they carried (see {@link io.rewind.ft.RankProtocol#determinantFigures}). */
    default long[] figures() {
        return new long[3];
    }

    long[] NO_WORDS = new long[0];
}
