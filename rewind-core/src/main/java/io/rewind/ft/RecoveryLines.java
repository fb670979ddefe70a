package io.rewind.ft;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * What the kept recovery lines of every rank hold: for each rank and line, the arrival frontier of
 * each incoming channel (channel key: communicator context and sending world rank). A sender may drop
 * a logged message once the receiver's oldest kept line already holds it. Thread safe.
 */
public final class RecoveryLines {
    private final int keepLines;
    private final Deque<Line>[] lines;

    /**
     * One line of one rank.
     *
     * @param events the rank's counts of non-deterministic events when it wrote the line (wildcard
     *               receives, then polls), or null if unknown: determinants of earlier events are never
     *               needed by a restart from this line
     */
    public record Line(long number, Map<Long, Long> frontiers, long[] events) {}

    @SuppressWarnings({"unchecked", "rawtypes"})
    public RecoveryLines(int ranks, int keepLines) {
        this.keepLines = keepLines;
        this.lines = new Deque[ranks];
        for (int r = 0; r < ranks; r++) {
            lines[r] = new ArrayDeque<>();
        }
    }

    public void published(int rank, long number, Map<Long, Long> frontiers) {
        published(rank, number, frontiers, null);
    }

    /** Rank {@code rank} wrote line {@code number}; {@code events} as in {@link Line}, or null. */
    public void published(int rank, long number, Map<Long, Long> frontiers, long[] events) {
        synchronized (lines[rank]) {
            Deque<Line> d = lines[rank];
            d.removeIf(l -> l.number() >= number); // a restarted rank writes a line again
            d.addLast(new Line(number, Map.copyOf(frontiers), events == null ? null : events.clone()));
            while (d.size() > keepLines) {
                d.removeFirst();
            }
        }
    }

    /** The lines the rank keeps, oldest first. */
    public java.util.List<Line> lines(int rank) {
        synchronized (lines[rank]) {
            return java.util.List.copyOf(lines[rank]);
        }
    }

    /** Forgets the rank's lines newer than {@code number} (every rank rolled back to it). */
    public void discardAfter(int rank, long number) {
        synchronized (lines[rank]) {
            lines[rank].removeIf(l -> l.number() > number);
        }
    }

    /**
     * The rank's event counts at the oldest line it keeps ({@link Line#events}): no restart of it can
     * need a determinant of an earlier event. Null while it keeps no line or the counts are unknown.
     */
    public long[] eventsAtOldestLine(int rank) {
        synchronized (lines[rank]) {
            Line oldest = lines[rank].peekFirst();
            return oldest == null || oldest.events() == null
                    ? null
                    : oldest.events().clone();
        }
    }

    /** The oldest line the rank keeps, or 0 if it has none. */
    public long oldestLine(int rank) {
        synchronized (lines[rank]) {
            Line oldest = lines[rank].peekFirst();
            return oldest == null ? 0 : oldest.number();
        }
    }

    /**
     * Messages on the channel up to this number are held by every line the receiver keeps; 0 while the
     * receiver has no line (a restart from the beginning needs everything).
     */
    public long safelyHeldUpTo(int receiver, long channelKey) {
        synchronized (lines[receiver]) {
            Line oldest = lines[receiver].peekFirst();
            if (oldest == null) {
                return 0;
            }
            return oldest.frontiers().getOrDefault(channelKey, 0L);
        }
    }

    /**
     * Like {@link #safelyHeldUpTo(int, long)}, for a receiver that rolls back together with {@code
     * group} (its cluster, which it is part of) to a line all of them hold: the bound is the
     * receiver's frontier at the oldest line any member keeps, since a rollback of the group may go
     * back that far. 0 while a member has no line, or when the receiver no longer keeps that line (then
     * nothing is dropped until the members catch up with each other).
     */
    public long safelyHeldUpTo(int receiver, long channelKey, int[] group) {
        long oldest = oldestLineOfGroup(group);
        if (oldest == 0) {
            return 0;
        }
        synchronized (lines[receiver]) {
            for (Line l : lines[receiver]) {
                if (l.number() == oldest) {
                    return l.frontiers().getOrDefault(channelKey, 0L);
                }
            }
        }
        return 0;
    }

    /** The smallest of the oldest lines the members of {@code group} keep (0: a member keeps none). */
    public long oldestLineOfGroup(int[] group) {
        long oldest = Long.MAX_VALUE;
        for (int member : group) {
            long o = oldestLine(member);
            if (o == 0) {
                return 0;
            }
            oldest = Math.min(oldest, o);
        }
        return oldest;
    }
}
