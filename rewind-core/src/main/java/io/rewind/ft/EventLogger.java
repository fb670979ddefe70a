package io.rewind.ft;

import io.rewind.engine.FaultTolerance;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The event logger: a service of the job that outlives every rank, holding the outcome of each
 * non-deterministic event of each rank (which message a wildcard receive matched, what a test or
 * probe returned). Under the pessimistic protocol an outcome is stored here before the rank can act
 * on it, so a restarted rank can be forced down the same path. Thread safe.
 */
public final class EventLogger {
    private final ConcurrentHashMap<Long, FaultTolerance.ForcedMatch>[] wildcards;
    private final ConcurrentHashMap<Long, long[]>[] polls;
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    @SuppressWarnings({"unchecked", "rawtypes"})
    public EventLogger(int ranks) {
        wildcards = new ConcurrentHashMap[ranks];
        polls = new ConcurrentHashMap[ranks];
        for (int r = 0; r < ranks; r++) {
            wildcards[r] = new ConcurrentHashMap<>();
            polls[r] = new ConcurrentHashMap<>();
        }
    }

    public void recordWildcard(int rank, long index, int source, int tag, long sequence) {
        if (wildcards[rank].putIfAbsent(index, new FaultTolerance.ForcedMatch(source, tag, sequence)) == null) {
            events.incrementAndGet();
            bytes.addAndGet(8 + 4 + 4 + 8);
        }
    }

    public FaultTolerance.ForcedMatch wildcard(int rank, long index) {
        return wildcards[rank].get(index);
    }

    public void recordPoll(int rank, long index, long[] outcome) {
        if (polls[rank].putIfAbsent(index, outcome.clone()) == null) {
            events.incrementAndGet();
            bytes.addAndGet(8 + 8L * outcome.length);
        }
    }

    public long[] poll(int rank, long index) {
        long[] o = polls[rank].get(index);
        return o == null ? null : o.clone();
    }

    /** Outcomes recorded so far (all ranks). */
    public long events() {
        return events.get();
    }

    /** Bytes those outcomes take, counted as index plus outcome fields. */
    public long bytes() {
        return bytes.get();
    }
}
