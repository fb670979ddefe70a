package io.rewind.ft;

import io.rewind.engine.FaultTolerance;
import java.util.Map;
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
    /** Runs of unsuccessful polls (nothing found, nothing completed): first index to last, per rank. */
    private final java.util.TreeMap<Long, Long>[] emptyRuns;

    private final AtomicLong events = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    @SuppressWarnings({"unchecked", "rawtypes"})
    public EventLogger(int ranks) {
        wildcards = new ConcurrentHashMap[ranks];
        polls = new ConcurrentHashMap[ranks];
        emptyRuns = new java.util.TreeMap[ranks];
        for (int r = 0; r < ranks; r++) {
            wildcards[r] = new ConcurrentHashMap<>();
            polls[r] = new ConcurrentHashMap<>();
            emptyRuns[r] = new java.util.TreeMap<>();
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

    /**
     * Records a poll's outcome. A busy loop of tests that find nothing is stored as one run of
     * unsuccessful polls, not one entry per call: the count still advances, the log does not grow.
     */
    public void recordPoll(int rank, long index, long[] outcome) {
        if (outcome.length == 0) {
            recordEmpty(rank, index);
            return;
        }
        if (polls[rank].putIfAbsent(index, outcome.clone()) == null) {
            events.incrementAndGet();
            bytes.addAndGet(8 + 8L * outcome.length);
        }
    }

    private void recordEmpty(int rank, long index) {
        java.util.TreeMap<Long, Long> runs = emptyRuns[rank];
        synchronized (runs) {
            Map.Entry<Long, Long> before = runs.floorEntry(index);
            if (before != null && before.getValue() >= index) {
                return; // already recorded (a replayed rank records its forced outcomes again)
            }
            if (before != null && before.getValue() == index - 1) {
                runs.put(before.getKey(), index);
                Long next = runs.get(index + 1);
                if (next != null) {
                    runs.remove(index + 1);
                    runs.put(before.getKey(), next);
                }
                return;
            }
            Long next = runs.get(index + 1);
            if (next != null) {
                runs.remove(index + 1);
                runs.put(index, next);
                return;
            }
            runs.put(index, index);
            events.incrementAndGet();
            bytes.addAndGet(16);
        }
    }

    public long[] poll(int rank, long index) {
        long[] o = polls[rank].get(index);
        if (o != null) {
            return o.clone();
        }
        java.util.TreeMap<Long, Long> runs = emptyRuns[rank];
        synchronized (runs) {
            Map.Entry<Long, Long> run = runs.floorEntry(index);
            return run != null && run.getValue() >= index ? new long[0] : null;
        }
    }

    /** The client of rank {@code rank} in this JVM: its requests are calls. */
    public EventLogClient clientFor(int rank) {
        return new EventLogClient() {
            @Override
            public void recordWildcard(long index, FaultTolerance.ForcedMatch match) {
                EventLogger.this.recordWildcard(rank, index, match.source(), match.tag(), match.sequence());
            }

            @Override
            public void recordPoll(long index, long[] outcome) {
                EventLogger.this.recordPoll(rank, index, outcome);
            }

            @Override
            public Determinants fetch() {
                return snapshot(rank);
            }
        };
    }

    /** A copy of everything recorded for {@code rank}. */
    EventLogClient.Determinants snapshot(int rank) {
        return determinants(records(rank));
    }

    /**
     * Everything recorded for one rank as plain data, to send to a rank process: wildcard matches as
     * {source, tag, sequence}, poll outcomes, and runs of unsuccessful polls as {first, last}.
     */
    public record Records(Map<Long, long[]> wildcards, Map<Long, long[]> polls, java.util.List<long[]> emptyRuns)
            implements java.io.Serializable {}

    /** A copy of what is recorded for {@code rank}. */
    public Records records(int rank) {
        Map<Long, long[]> w = new java.util.HashMap<>();
        for (Map.Entry<Long, FaultTolerance.ForcedMatch> e : wildcards[rank].entrySet()) {
            FaultTolerance.ForcedMatch m = e.getValue();
            w.put(e.getKey(), new long[] {m.source(), m.tag(), m.sequence()});
        }
        Map<Long, long[]> p = new java.util.HashMap<>();
        for (Map.Entry<Long, long[]> e : polls[rank].entrySet()) {
            p.put(e.getKey(), e.getValue().clone());
        }
        java.util.List<long[]> runs = new java.util.ArrayList<>();
        synchronized (emptyRuns[rank]) {
            for (Map.Entry<Long, Long> e : emptyRuns[rank].entrySet()) {
                runs.add(new long[] {e.getKey(), e.getValue()});
            }
        }
        return new Records(w, p, runs);
    }

    /** The lookups a restarted rank makes, over records it fetched. */
    public static EventLogClient.Determinants determinants(Records records) {
        Map<Long, FaultTolerance.ForcedMatch> w = new java.util.HashMap<>();
        for (Map.Entry<Long, long[]> e : records.wildcards().entrySet()) {
            long[] m = e.getValue();
            w.put(e.getKey(), new FaultTolerance.ForcedMatch((int) m[0], (int) m[1], m[2]));
        }
        Map<Long, long[]> p = Map.copyOf(records.polls());
        java.util.TreeMap<Long, Long> runs = new java.util.TreeMap<>();
        for (long[] run : records.emptyRuns()) {
            runs.put(run[0], run[1]);
        }
        return new EventLogClient.Determinants() {
            @Override
            public FaultTolerance.ForcedMatch wildcard(long index) {
                return w.get(index);
            }

            @Override
            public long[] poll(long index) {
                long[] o = p.get(index);
                if (o != null) {
                    return o.clone();
                }
                Map.Entry<Long, Long> run = runs.floorEntry(index);
                return run != null && run.getValue() >= index ? new long[0] : null;
            }
        };
    }

    /** Entries recorded so far (all ranks); a run of unsuccessful polls is one entry. */
    public long events() {
        return events.get();
    }

    /** Bytes those outcomes take, counted as index plus outcome fields. */
    public long bytes() {
        return bytes.get();
    }
}
