package io.rewind.ft;

import io.rewind.engine.FaultTolerance;

/**
 * How a rank reaches the event logger, the service outside every rank that keeps the outcomes of its
 * non-deterministic events: a record is acknowledged before it returns (so a protocol can make an
 * outcome stable before the rank acts on it), and a restarted rank fetches all it needs in one
 * request. Each call is one request and one answer; {@link EventLogger#clientFor} binds them to the
 * logger in this JVM, where the request is a call.
 */
public interface EventLogClient {
    /** Stores which message wildcard receive number {@code index} matched. */
    void recordWildcard(long index, FaultTolerance.ForcedMatch match);

    /** Stores what completion function or probe number {@code index} returned. */
    void recordPoll(long index, long[] outcome);

    /** Everything the logger holds for this rank, for a restarted incarnation to follow. */
    Determinants fetch();

    /** A rank's recorded outcomes, as fetched: read-only, owned by the rank that fetched them. */
    interface Determinants {
        /** The match of wildcard receive {@code index}, or null if it was never recorded. */
        FaultTolerance.ForcedMatch wildcard(long index);

        /** The outcome of poll {@code index}, or null if it was never recorded. */
        long[] poll(long index);
    }
}
