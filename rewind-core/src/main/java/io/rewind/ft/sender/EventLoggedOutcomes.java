package io.rewind.ft.sender;

import io.rewind.engine.FaultTolerance.ForcedMatch;
import io.rewind.engine.Frame;
import io.rewind.ft.EventLogClient;

/**
 * Outcomes kept by the job's event logger, pessimistically: each is acknowledged before the rank acts
 * on it, and a restarted incarnation fetches all of them at its first non-deterministic event.
 */
public final class EventLoggedOutcomes implements OutcomeLog {
    private final EventLogClient events;
    private final boolean restarted;
    /** For a restarted incarnation: the outcomes it must follow, fetched once. */
    private EventLogClient.Determinants forced;

    public EventLoggedOutcomes(EventLogClient events, boolean restarted) {
        this.events = events;
        this.restarted = restarted;
    }

    @Override
    public void wildcardMatched(long index, Frame frame) {
        events.recordWildcard(index, new ForcedMatch(frame.source(), frame.tag(), frame.sequence()));
    }

    @Override
    public void polled(long index, long[] outcome) {
        events.recordPoll(index, outcome);
    }

    @Override
    public ForcedMatch forcedWildcard(long index) {
        return restarted ? forced().wildcard(index) : null;
    }

    @Override
    public long[] forcedPoll(long index) {
        return restarted ? forced().poll(index) : null;
    }

    private EventLogClient.Determinants forced() {
        EventLogClient.Determinants d = forced;
        if (d == null) {
            d = events.fetch();
            forced = d;
        }
        return d;
    }
}
