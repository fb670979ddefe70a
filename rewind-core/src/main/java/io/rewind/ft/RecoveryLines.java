package io.rewind.ft;

import io.rewind.engine.ChannelKey;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * What the kept recovery lines of every rank hold: for each rank and line, the arrival frontier of
 * each incoming channel (channel key: communicator context and sending world rank), the last sequence
 * number sent on each outgoing channel, and how far the messages in transit across the line were kept
 * with it. A sender may drop a logged message once the receiver's oldest kept line already holds it.
 * A line is complete for a group of ranks restarting together once every message any of them needs
 * and no survivor's log can send again is held: in a member's state, or kept in transit ({@link
 * #complete}). Thread safe.
 */
public final class RecoveryLines {
    private final int keepLines;
    private final Deque<Line>[] lines;
    /**
     * Per rank, the last sequence number it had sent on each channel at the line its current incarnation
     * restarted from (empty: it never restarted, or restarted from the beginning): its payload log holds
     * only what it sent after that. Guarded by {@code lines[rank]}.
     */
    private final Map<Long, Long>[] logFloors;
    /**
     * Per rank, lines older than the {@code keepLines} newest that are kept all the same because they
     * are not older than {@link #allComplete}: a recovery may have to go back to one of them, when the
     * newer lines lack a message that was on its way when its receiver crashed. They count for {@link
     * #complete} only, not for what logs may drop. Guarded by {@code lines[rank]}.
     */
    private final Deque<Line>[] heldBack;
    /** The newest line complete for every rank restarting together (0: none); only grows. */
    private volatile long allComplete;

    /** Lines a rank holds back beyond {@code keepLines} for {@link #allComplete} at most. */
    public static final int MAX_HELD_BACK = 8;

    /** Every rank: the group {@link #allComplete} is for. */
    private final java.util.Set<Integer> allRanks;

    /**
     * Per rank, the newest and the oldest number of the lines it keeps (0 and {@code Long.MAX_VALUE}:
     * none), written under {@code lines[rank]} as they change and read by {@link #advanceAllComplete}
     * without taking every rank's lock.
     */
    private final java.util.concurrent.atomic.AtomicLongArray newestOf;

    private final java.util.concurrent.atomic.AtomicLongArray oldestOf;

    /**
     * One line of one rank.
     *
     * @param events the rank's counts of non-deterministic events when it wrote the line (wildcard
     *               receives, then polls), or null if unknown: determinants of earlier events are never
     *               needed by a restart from this line
     */
    /**
     * @param sent      the last sequence number sent per outgoing channel (context and destination world
     *                  rank) when the rank wrote the line, or null if unknown (the line is then never
     *                  taken as complete)
     * @param inTransit per incoming channel, the highest sequence number kept with the line as in transit
     *                  across it (messages arrive in order, so everything from the frontier up to it is
     *                  kept); grows as the rank reports, guarded by the rank's lines
     */
    public record Line(
            long number, Map<Long, Long> frontiers, long[] events, Map<Long, Long> sent, Map<Long, Long> inTransit) {}

    @SuppressWarnings({"unchecked", "rawtypes"})
    public RecoveryLines(int ranks, int keepLines) {
        this.keepLines = keepLines;
        this.allRanks = java.util.stream.IntStream.range(0, ranks)
                .boxed()
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
        this.newestOf = new java.util.concurrent.atomic.AtomicLongArray(ranks);
        this.oldestOf = new java.util.concurrent.atomic.AtomicLongArray(ranks);
        for (int r = 0; r < ranks; r++) {
            oldestOf.set(r, Long.MAX_VALUE);
        }
        this.lines = new Deque[ranks];
        this.logFloors = new Map[ranks];
        this.heldBack = new Deque[ranks];
        for (int r = 0; r < ranks; r++) {
            lines[r] = new ArrayDeque<>();
            logFloors[r] = Map.of();
            heldBack[r] = new ArrayDeque<>();
        }
    }

    public void published(int rank, long number, Map<Long, Long> frontiers) {
        published(rank, number, frontiers, null, null);
    }

    /** Rank {@code rank} wrote line {@code number}; {@code events} as in {@link Line}, or null. */
    public void published(int rank, long number, Map<Long, Long> frontiers, long[] events) {
        published(rank, number, frontiers, events, null);
    }

    /** Rank {@code rank} wrote line {@code number}; {@code events} and {@code sent} as in {@link Line}, or null. */
    public void published(int rank, long number, Map<Long, Long> frontiers, long[] events, Map<Long, Long> sent) {
        synchronized (lines[rank]) {
            Deque<Line> d = lines[rank];
            d.removeIf(l -> l.number() >= number); // a restarted rank writes a line again
            d.addLast(new Line(
                    number,
                    Map.copyOf(frontiers),
                    events == null ? null : events.clone(),
                    sent == null ? null : Map.copyOf(sent),
                    new HashMap<>()));
            heldBack[rank].removeIf(l -> l.number() >= number);
            while (d.size() > keepLines) {
                Line old = d.removeFirst();
                if (old.number() >= allComplete) {
                    heldBack[rank].addLast(old);
                }
            }
            trimHeldBack(rank); // and notes the rank's range
        }
        advanceAllComplete(number);
    }

    /** Under {@code lines[rank]}: held-back lines older than {@link #allComplete}, or too many, go. */
    private void trimHeldBack(int rank) {
        Deque<Line> h = heldBack[rank];
        while (!h.isEmpty() && (h.peekFirst().number() < allComplete || h.size() > MAX_HELD_BACK)) {
            h.removeFirst();
        }
        noteRange(rank);
    }

    /**
     * The newest line complete for every rank restarting together (0: none yet): a global rollback goes
     * there at the worst, so checkpoint storage keeps every line from it on (besides the newest ones).
     */
    public long allComplete() {
        return allComplete;
    }

    /**
     * Moves {@link #allComplete} up to line {@code number} if that line is now complete for every rank:
     * called for the line an event was about. Only such an event (its last rank publishing it, a rank
     * reporting more of its channel state kept) can make a line complete, so no other line is tried,
     * and one every rank does not keep is passed over after one look at each rank's newest and oldest
     * numbers: a publication costs no walk over every rank's lines, nor over older lines that stayed
     * incomplete.
     */
    private synchronized void advanceAllComplete(long number) {
        if (number <= allComplete) {
            return;
        }
        for (int r = 0; r < lines.length; r++) {
            if (number > newestOf.get(r) || number < oldestOf.get(r)) {
                return; // not kept by every rank (yet, or any more)
            }
        }
        if (complete(allRanks, number)) {
            allComplete = number;
            for (int r = 0; r < lines.length; r++) {
                synchronized (lines[r]) {
                    trimHeldBack(r);
                }
            }
        }
    }

    /** Under {@code lines[rank]}, after its lines changed: their newest and oldest numbers. */
    private void noteRange(int rank) {
        Line newest = lines[rank].peekLast();
        Line oldest = heldBack[rank].isEmpty() ? lines[rank].peekFirst() : heldBack[rank].peekFirst();
        newestOf.set(rank, newest == null ? 0 : newest.number());
        oldestOf.set(rank, oldest == null ? Long.MAX_VALUE : oldest.number());
    }

    /**
     * Rank {@code rank} holds durably, with line {@code number}, the messages in transit across it on
     * each channel of {@code upTo} up to that sequence number. Ignored if the rank keeps no such line.
     */
    public void keptInTransit(int rank, long number, Map<Long, Long> upTo) {
        synchronized (lines[rank]) {
            Line l = find(rank, number);
            if (l != null) {
                upTo.forEach((k, v) -> l.inTransit().merge(k, v, Math::max));
            }
        }
        advanceAllComplete(number);
    }

    /**
     * The rank's current incarnation restarted from line {@code number} (0: the beginning): its log now
     * holds only what it sends after that line.
     */
    public void restartedFrom(int rank, long number) {
        synchronized (lines[rank]) {
            Map<Long, Long> floor = Map.of();
            if (number > 0) {
                Line l = find(rank, number);
                // Unknown counts: no receiver can count on this rank's log for anything sent before.
                floor = l == null || l.sent() == null ? null : l.sent();
            }
            logFloors[rank] = floor;
        }
    }

    /**
     * Whether line {@code number} is complete for {@code group} restarting together from it while every
     * other rank goes on: each member must find, in its state at the line or kept in transit across it,
     * every message a fellow member sent it before the line (the sender's re-execution starts after
     * it), and every message a survivor sent it that the survivor's log no longer holds (a survivor that
     * restarted itself logs only what it sent after its own restart line). Line 0, the beginning, holds
     * nothing: it is complete unless a survivor's log lacks the start of a channel to a member.
     */
    public boolean complete(java.util.Collection<Integer> group, long number) {
        int ranks = lines.length;
        java.util.BitSet members = new java.util.BitSet(ranks);
        for (int r : group) {
            if (!keeps(r, number)) {
                return false;
            }
            members.set(r);
        }
        // Each sender's channels are walked once, each member's holdings made once: linear in the
        // channels, where a walk per member and sender was quadratic in the ranks.
        Map<Integer, Map<Long, Long>> heldBy = new HashMap<>();
        for (int s = 0; s < ranks; s++) {
            Map<Long, Long> need;
            synchronized (lines[s]) {
                if (members.get(s)) {
                    if (number == 0) {
                        continue;
                    }
                    Line l = find(s, number);
                    if (l == null || l.sent() == null) {
                        return false;
                    }
                    need = l.sent();
                } else {
                    need = logFloors[s];
                    if (need == null) {
                        return false;
                    }
                }
            }
            for (Map.Entry<Long, Long> e : need.entrySet()) {
                long key = e.getKey();
                int r = ChannelKey.peer(key);
                if (r == s || r < 0 || r >= ranks || !members.get(r)) {
                    continue;
                }
                Map<Long, Long> held = heldBy.get(r);
                if (held == null) {
                    held = heldAt(r, number);
                    if (held == null) {
                        return false; // no longer kept since
                    }
                    heldBy.put(r, held);
                }
                if (held.getOrDefault(ChannelKey.of(ChannelKey.context(key), s), 0L) < e.getValue()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether the rank keeps line {@code number} (line 0, the start, always). */
    private boolean keeps(int rank, long number) {
        if (number == 0) {
            return true;
        }
        synchronized (lines[rank]) {
            return find(rank, number) != null;
        }
    }

    /**
     * Whether {@code receiver}'s line {@code receiverLine} holds (received by it, or kept with it in
     * transit) every message that each of {@code senders} had sent it when they wrote their line {@code
     * senderLine} (0: the start, before any message). False where a line it needs is not kept. A rank
     * that restarted from {@code receiverLine} gets the rest from the senders: from their logs, or from
     * their re-execution of what they sent after the line they restart from; what they sent before it
     * exists nowhere once their logs are gone.
     */
    public boolean holdsSentBefore(
            int receiver, long receiverLine, java.util.Collection<Integer> senders, long senderLine) {
        if (senderLine == 0) {
            return true;
        }
        Map<Long, Long> held = heldAt(receiver, receiverLine);
        if (held == null) {
            return false;
        }
        for (int s : senders) {
            if (s == receiver) {
                continue;
            }
            Map<Long, Long> sent;
            synchronized (lines[s]) {
                Line l = find(s, senderLine);
                if (l == null || l.sent() == null) {
                    return false;
                }
                sent = l.sent();
            }
            for (Map.Entry<Long, Long> e : sent.entrySet()) {
                long key = e.getKey();
                if (ChannelKey.peer(key) == receiver
                        && held.getOrDefault(ChannelKey.of(ChannelKey.context(key), s), 0L) < e.getValue()) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * What {@code rank}'s line {@code number} holds per incoming channel: received by then, or kept with
     * it in transit (empty for line 0, the start); null if the line is not kept.
     */
    private Map<Long, Long> heldAt(int rank, long number) {
        Map<Long, Long> held = new HashMap<>();
        if (number > 0) {
            synchronized (lines[rank]) {
                Line l = find(rank, number);
                if (l == null) {
                    return null;
                }
                held.putAll(l.frontiers());
                l.inTransit().forEach((k, v) -> held.merge(k, v, Math::max));
            }
        }
        return held;
    }

    /** Under {@code lines[rank]}: the rank's kept line {@code number}, or null. */
    private Line find(int rank, long number) {
        for (Line l : lines[rank]) {
            if (l.number() == number) {
                return l;
            }
        }
        for (Line l : heldBack[rank]) {
            if (l.number() == number) {
                return l;
            }
        }
        return null;
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
            heldBack[rank].removeIf(l -> l.number() > number);
            noteRange(rank);
        }
        synchronized (this) {
            allComplete = Math.min(allComplete, number); // the lines after it are written anew
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
