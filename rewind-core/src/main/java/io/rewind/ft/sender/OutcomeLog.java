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
}
