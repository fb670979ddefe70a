package io.rewind.runtime;

import io.rewind.engine.PeerLongs;
import io.rewind.ft.log.LogStatistics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a job measured about itself: checkpoints, logs, non-deterministic events, and for every
 * failure the recovery timeline (detect, respawn, restore, replay up to where the rank had crashed).
 *
 * @param protocol          protocol name
 * @param ranks             world size
 * @param wall              wall time of the job
 * @param failures          one record per failure, in order
 * @param checkpoints       checkpoint files written (all ranks)
 * @param checkpointBytes   bytes written to them
 * @param checkpointNanos   time spent writing them (summed over ranks)
 * @param loggedBytes       payload bytes appended to payload logs (all ranks, all incarnations)
 * @param loggedEntries     entries appended to payload logs
 * @param maxRankLoggedBytes largest per-rank total of appended payload bytes
 * @param logHighWaterBytes largest payload held by one rank's log at one time
 * @param events            non-deterministic outcomes recorded by the event logger
 * @param eventBytes        their size
 * @param collectiveLoggedEntries log entries made for messages of collectives
 * @param collectiveLoggedBytes   payload bytes logged for messages of collectives
 * @param traffic           who sent what to whom
 * @param killsNotStruck    scheduled crashes that never happened (the job ended first)
 * @param operations        communication operations each rank counted (the count {@code --kill RANK@oN}
 *                          refers to), in its last incarnation; a failure-free run's totals
 * @param rankLoggedBytes   payload bytes each rank logged, over all its incarnations
 * @param determinants      determinants piggybacked on frames (protocols that piggyback them)
 * @param protocolRecord    what the protocol adds to the run record ({@link io.rewind.ft.Protocol#runRecord})
 * @param protocolSummary   lines the protocol adds to the summary
 */
public record RunReport(
        String protocol,
        int ranks,
        Duration wall,
        List<FailureRecord> failures,
        long checkpoints,
        long checkpointBytes,
        long checkpointNanos,
        long loggedBytes,
        long loggedEntries,
        long maxRankLoggedBytes,
        long logHighWaterBytes,
        long events,
        long eventBytes,
        long collectiveLoggedEntries,
        long collectiveLoggedBytes,
        Traffic traffic,
        List<FailureSchedule.Kill> killsNotStruck,
        long[] operations,
        long[] rankLoggedBytes,
        Determinants determinants,
        java.util.Map<String, Object> protocolRecord,
        List<String> protocolSummary) {

    /**
     * What a protocol that piggybacks determinants did, over all ranks and incarnations.
     *
     * @param made            determinants made (one per non-deterministic event, re-executions included)
     * @param carryingFrames  frames that carried determinants
     * @param piggybackBytes  the bytes they carried (8 per word)
     */
    public record Determinants(long made, long carryingFrames, long piggybackBytes) {}

    /**
     * Who sent what to whom during the job, [source][destination], and how long each rank ran.
     *
     * @param p2pBytes        point-to-point payload bytes
     * @param p2pMessages     point-to-point messages
     * @param collBytes       bytes of the messages of collective algorithms
     * @param collMessages    their count
     * @param rankSeconds     wall time of each rank, first start to final end
     */
    public record Traffic(
            PeerLongs[] p2pBytes,
            PeerLongs[] p2pMessages,
            PeerLongs[] collBytes,
            PeerLongs[] collMessages,
            double[] rankSeconds) {}

    /** The recovery of one failure; times are {@code System.nanoTime()} values, 0 while not reached. */
    public static final class FailureRecord {
        private final int rank;
        private final int incarnation;
        private final String how;
        private final long line;
        private final java.util.Set<Integer> rolledBack;
        private final List<String> notes;
        /** When each phase was entered, by ordinal; 0 while not reached. */
        private final long[] enteredNanos = new long[RecoveryPhase.values().length];

        private RecoveryPhase phase;
        private long replayedFrames;
        private int peakUnmatched;
        private long peakUnmatchedBytes;
        private long restoreWorkNanos;

        FailureRecord(
                int rank,
                int incarnation,
                String how,
                long killNanos,
                long detectedNanos,
                long line,
                java.util.Set<Integer> rolledBack,
                List<String> notes) {
            this.rank = rank;
            this.incarnation = incarnation;
            this.how = how;
            this.line = line;
            this.rolledBack = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(rolledBack));
            this.notes = List.copyOf(notes);
            enter(RecoveryPhase.KILLED, killNanos);
            enter(RecoveryPhase.DETECTED, detectedNanos);
        }

        /**
         * The one way the recovery moves on: into {@code next}, at {@code nanos}, if it is past the
         * current phase; false (and nothing changes) otherwise.
         */
        public synchronized boolean enter(RecoveryPhase next, long nanos) {
            if (phase != null && next.ordinal() <= phase.ordinal()) {
                return false;
            }
            enteredNanos[next.ordinal()] = nanos;
            phase = next;
            return true;
        }

        /** The phase the recovery is in. */
        public synchronized RecoveryPhase phase() {
            return phase;
        }

        /** Frames the other ranks replayed to the restarted incarnation (known when it ends). */
        public synchronized void replayed(long frames) {
            replayedFrames = frames;
        }

        /**
         * The most frames (and their payload bytes) that waited at once for their receive in the
         * restarted incarnation: what the replay made it hold (known when it ends).
         */
        public synchronized void unmatchedAtMost(int frames, long bytes) {
            peakUnmatched = frames;
            peakUnmatchedBytes = bytes;
        }

        public synchronized int peakUnmatched() {
            return peakUnmatched;
        }

        public synchronized long peakUnmatchedBytes() {
            return peakUnmatchedBytes;
        }

        /** Time the restore itself took (loading the line), inside the restore phase. */
        public synchronized void restoreWork(long nanos) {
            restoreWorkNanos = nanos;
        }

        public int rank() {
            return rank;
        }

        public int incarnation() {
            return incarnation;
        }

        public String how() {
            return how;
        }

        /** The recovery line restored (0: from the beginning). */
        public long line() {
            return line;
        }

        /** How many ranks rolled back. */
        /** What the protocol said about its choice (why it rolled back more than it had to, say). */
        public List<String> notes() {
            return notes;
        }

        /** The ranks this recovery restarted, in rank order. */
        public java.util.Set<Integer> rolledBack() {
            return rolledBack;
        }

        public int rollbackSet() {
            return rolledBack.size();
        }

        public synchronized long replayedFrames() {
            return replayedFrames;
        }

        private static double ms(long from, long to) {
            return from == 0 || to == 0 ? Double.NaN : Math.max(0, to - from) / 1e6;
        }

        private long at(RecoveryPhase p) {
            return enteredNanos[p.ordinal()];
        }

        /** When the recovery entered {@code p} ({@code System.nanoTime()}; 0: not yet). */
        public synchronized long enteredNanos(RecoveryPhase p) {
            return at(p);
        }

        public synchronized double detectMs() {
            return ms(at(RecoveryPhase.KILLED), at(RecoveryPhase.DETECTED));
        }

        public synchronized double respawnMs() {
            return ms(at(RecoveryPhase.DETECTED), at(RecoveryPhase.RESPAWNED));
        }

        public synchronized double restoreMs() {
            return ms(at(RecoveryPhase.RESPAWNED), at(RecoveryPhase.RESTORED));
        }

        /** From restored to back where it crashed (re-execution with replayed messages). */
        public synchronized double replayMs() {
            return ms(at(RecoveryPhase.RESTORED), at(RecoveryPhase.CAUGHT_UP));
        }

        /** From the kill to back where it crashed. */
        public synchronized double totalMs() {
            return ms(at(RecoveryPhase.KILLED), at(RecoveryPhase.CAUGHT_UP));
        }

        /** One phase of a recovery, in milliseconds since {@code originNanos}. */
        public record Phase(String name, double startMs, double endMs) {}

        /** The phases reached so far, in order: detect, respawn, restore, replay (to the crash point). */
        public synchronized List<Phase> phases(long originNanos) {
            List<Phase> out = new ArrayList<>();
            RecoveryPhase[] all = RecoveryPhase.values();
            for (int i = 1; i < all.length; i++) {
                long from = at(all[i - 1]);
                long to = at(all[i]);
                if (from == 0 || to == 0) {
                    break;
                }
                out.add(new Phase(
                        all[i].spanName(), (from - originNanos) / 1e6, (Math.max(from, to) - originNanos) / 1e6));
            }
            return out;
        }

        @Override
        public synchronized String toString() {
            return String.format(
                    Locale.ROOT,
                    "rank %d %s: restored line %d, rolled back %d rank(s)%s, replayed %d "
                            + "message(s), at most %d (%d bytes) waiting for their receive; detect %s, "
                            + "respawn %s, restore %s, replay %s",
                    rank,
                    how,
                    line,
                    rolledBack.size(),
                    rolledBack.size() <= 16 ? " " + rolledBack : "",
                    replayedFrames,
                    peakUnmatched,
                    peakUnmatchedBytes,
                    took(detectMs()),
                    took(respawnMs()),
                    took(restoreMs()),
                    took(replayMs()));
        }

        /**
         * A phase's length as people read it; a phase its incarnation never finished (it crashed again
         * first, or a later plan replaced it) says so instead of printing NaN.
         */
        private static String took(double ms) {
            return Double.isNaN(ms) ? "not reached" : String.format(Locale.ROOT, "%.1f ms", ms);
        }
    }

    /** Collects figures from the coordinator and the rank threads. */
    public static final class Builder {
        private final JobConfig config;
        private final List<FailureRecord> failures = new ArrayList<>();
        private final long[] rankLogged;
        private long checkpoints;
        private long checkpointBytes;
        private long checkpointNanos;
        private long loggedBytes;
        private long loggedEntries;
        private long highWater;
        private long events;
        private long eventBytes;
        private long collEntries;
        private long collLogBytes;
        private final PeerLongs[] p2pBytes;
        private final PeerLongs[] p2pMessages;
        private final PeerLongs[] collBytes;
        private final PeerLongs[] collMessages;
        private final double[] rankSeconds;
        private final long[] operations;

        public Builder(JobConfig config) {
            this.config = config;
            this.rankLogged = new long[config.ranks()];
            int n = config.ranks();
            // Rows by source, paged: a job of thousands of ranks that each talk to a few holds a few
            // pages per row, not a dense matrix of ranks squared.
            p2pBytes = rows(n);
            p2pMessages = rows(n);
            collBytes = rows(n);
            collMessages = rows(n);
            rankSeconds = new double[n];
            operations = new long[n];
        }

        private static PeerLongs[] rows(int n) {
            PeerLongs[] rows = new PeerLongs[n];
            for (int i = 0; i < n; i++) {
                rows[i] = new PeerLongs(n);
            }
            return rows;
        }

        /** Adds an incarnation's traffic (called once per incarnation, when it is retired). */
        public synchronized void traffic(int rank, io.rewind.engine.TrafficCounters t, long rankOperations) {
            operations[rank] = rankOperations;
            traffic(rank, t.snapshot());
        }

        /** Adds what one incarnation of a rank sent (a rank process reports it with its progress and its end). */
        public synchronized void traffic(int rank, io.rewind.engine.TrafficCounters.Sent sent) {
            sent.addTo(p2pBytes, p2pMessages, false, rank);
            sent.addTo(collBytes, collMessages, true, rank);
        }

        /** The communication operations a rank made (a rank process reports them when it ends). */
        public synchronized void operations(int rank, long count) {
            operations[rank] = count;
        }

        public synchronized void rankTime(int rank, double seconds) {
            rankSeconds[rank] = seconds;
        }

        public synchronized FailureRecord failure(
                int rank,
                int incarnation,
                String how,
                long killNanos,
                long detectedNanos,
                long line,
                java.util.Set<Integer> rolledBack,
                List<String> notes) {
            FailureRecord f =
                    new FailureRecord(rank, incarnation, how, killNanos, detectedNanos, line, rolledBack, notes);
            failures.add(f);
            return f;
        }

        public synchronized void checkpoint(int rank, long bytes, long nanos) {
            checkpoints++;
            checkpointBytes += bytes;
            checkpointNanos += nanos;
        }

        /** Adds the log figures a rank process reported when it ended. */
        public synchronized void finalLog(int rank, long appendedEntries, long appendedBytes, long highWaterBytes) {
            loggedBytes += appendedBytes;
            loggedEntries += appendedEntries;
            rankLogged[rank] += appendedBytes;
            highWater = Math.max(highWater, highWaterBytes);
        }

        /** Adds an incarnation's log figures (called once per incarnation, when it ends). */
        public synchronized void finalLog(int rank, LogStatistics s) {
            if (s == null) {
                return;
            }
            loggedBytes += s.appendedBytes();
            loggedEntries += s.appendedEntries();
            rankLogged[rank] += s.appendedBytes();
            highWater = Math.max(highWater, s.highWaterPayloadBytes());
        }

        public synchronized void collectiveLog(long entries, long bytes) {
            collEntries += entries;
            collLogBytes += bytes;
        }

        /** Adds an incarnation's {@link io.rewind.ft.RankProtocol#determinantFigures()}. */
        public synchronized void determinants(long[] figures) {
            if (figures != null) {
                determinantsMade += figures[0];
                carryingFrames += figures[1];
                piggybackBytes += figures[2] * Long.BYTES;
            }
        }

        private java.util.Map<String, Object> protocolRecord = java.util.Map.of();
        private List<String> protocolSummary = List.of();

        /** A log peak from which the summary suggests a reserve: well past what is prepared ahead. */
        static final long RESERVE_HINT_BYTES = 64L << 20;

        /** What the job's protocol reports at the end ({@link io.rewind.ft.Protocol#runRecord}, {@link io.rewind.ft.Protocol#summary}). */
        public synchronized void protocolFigures(java.util.Map<String, Object> record, List<String> summary) {
            protocolRecord = java.util.Map.copyOf(record);
            protocolSummary = List.copyOf(summary);
        }

        private long determinantsMade;
        private long carryingFrames;
        private long piggybackBytes;

        public synchronized void events(long n, long bytes) {
            events = n;
            eventBytes = bytes;
        }

        private List<FailureSchedule.Kill> notStruck = List.of();

        public synchronized void killsNotStruck(List<FailureSchedule.Kill> kills) {
            notStruck = List.copyOf(kills);
        }

        public synchronized RunReport build(Duration wall) {
            long max = 0;
            for (long b : rankLogged) {
                max = Math.max(max, b);
            }
            return new RunReport(
                    config.faultTolerance().protocol().name(),
                    config.ranks(),
                    wall,
                    List.copyOf(failures),
                    checkpoints,
                    checkpointBytes,
                    checkpointNanos,
                    loggedBytes,
                    loggedEntries,
                    max,
                    highWater,
                    events,
                    eventBytes,
                    collEntries,
                    collLogBytes,
                    new Traffic(p2pBytes, p2pMessages, collBytes, collMessages, rankSeconds),
                    notStruck,
                    operations.clone(),
                    rankLogged.clone(),
                    new Determinants(determinantsMade, carryingFrames, piggybackBytes),
                    protocolRecord,
                    withReserveHint(protocolSummary));
        }

        /**
         * Adds a line when a rank's log grew well past the memory reserved for it: that memory was
         * faulted in while the rank sent, which on many machines costs more than the copy into it
         * (docs/payload-log.md). The line says the reserve that would have avoided it.
         */
        private List<String> withReserveHint(List<String> summary) {
            long reserve = config.logging().payloadLog().reserveBytes();
            if (highWater < RESERVE_HINT_BYTES || highWater <= reserve) {
                return summary;
            }
            long suggestMiB = (highWater + highWater / 10 + (1 << 20) - 1) >> 20; // a tenth more, whole MiB
            List<String> out = new ArrayList<>(summary);
            out.add(String.format(
                    Locale.ROOT,
                    "log memory: a rank's log grew to %.0f MiB%s, faulting new memory in while it sent; "
                            + "--log-reserve %dMiB would fault it in before the first message",
                    highWater / 1048576.0,
                    reserve > 0
                            ? String.format(Locale.ROOT, ", past its reserve of %.0f MiB", reserve / 1048576.0)
                            : "",
                    suggestMiB));
            return List.copyOf(out);
        }
    }

    /** Messages sent over the run, point to point and inside collectives, every incarnation. */
    public long sentMessages() {
        long sum = 0;
        for (PeerLongs[] m : List.of(traffic.p2pMessages(), traffic.collMessages())) {
            for (PeerLongs row : m) {
                sum += row.sum();
            }
        }
        return sum;
    }

    /** Payload bytes sent over the run, point to point and inside collectives, every incarnation. */
    public long sentBytes() {
        long sum = 0;
        for (PeerLongs[] m : List.of(traffic.p2pBytes(), traffic.collBytes())) {
            for (PeerLongs row : m) {
                sum += row.sum();
            }
        }
        return sum;
    }

    /** Each rank's log growth: bytes it logged per second of its run (0 for a rank with no time). */
    public double[] logGrowthRates() {
        double[] out = new double[ranks];
        double[] seconds = traffic.rankSeconds();
        for (int r = 0; r < ranks; r++) {
            out[r] = seconds[r] > 0 ? rankLoggedBytes[r] / seconds[r] : 0;
        }
        return out;
    }

    /** A few lines for the terminal. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "protocol %s, %d ranks, %.3f s", protocol, ranks, wall.toNanos() / 1e9));
        if (checkpoints > 0) {
            sb.append(String.format(
                    Locale.ROOT,
                    "; %d checkpoints, %.1f KiB, %.1f ms writing",
                    checkpoints,
                    checkpointBytes / 1024.0,
                    checkpointNanos / 1e6));
        }
        if (loggedEntries > 0) {
            sb.append(String.format(
                    Locale.ROOT,
                    "; logged %d messages, %.1f KiB (max %.1f KiB per rank, peak %.1f KiB " + "held); %d events",
                    loggedEntries,
                    loggedBytes / 1024.0,
                    maxRankLoggedBytes / 1024.0,
                    logHighWaterBytes / 1024.0,
                    events));
            sb.append(String.format(
                    Locale.ROOT,
                    "; collectives: %d entries, %.1f KiB",
                    collectiveLoggedEntries,
                    collectiveLoggedBytes / 1024.0));
            long sent = sentBytes();
            double[] rates = logGrowthRates();
            double avg = 0;
            double max = 0;
            int maxRank = 0;
            for (int r = 0; r < rates.length; r++) {
                avg += rates[r] / rates.length;
                if (rates[r] > max) {
                    max = rates[r];
                    maxRank = r;
                }
            }
            sb.append(String.format(
                    Locale.ROOT,
                    "\n  logged %.1f %% of %.1f KiB sent%s; log growth per rank %.1f KiB/s on average, at most %.1f"
                            + " KiB/s (rank %d)",
                    sent == 0 ? 0.0 : 100.0 * loggedBytes / sent,
                    sent / 1024.0,
                    // A restarted rank logs again what it re-executes, also what its peers already hold and
                    // it therefore does not send again: the share can pass 100 %.
                    failures.isEmpty() ? "" : " (with what restarted ranks logged again)",
                    avg / 1024.0,
                    max / 1024.0,
                    maxRank));
        }
        if (determinants.made() > 0 || determinants.carryingFrames() > 0) {
            long messages = sentMessages();
            sb.append(String.format(
                    Locale.ROOT,
                    "\n  determinants: %d made, piggybacked on %d of %d messages, %.1f KiB (%.1f B per message)",
                    determinants.made(),
                    determinants.carryingFrames(),
                    messages,
                    determinants.piggybackBytes() / 1024.0,
                    messages == 0 ? 0.0 : (double) determinants.piggybackBytes() / messages));
        }
        for (String line : protocolSummary) {
            sb.append("\n  ").append(line);
        }
        for (FailureRecord f : failures) {
            sb.append("\n  failure: ").append(f);
        }
        for (FailureSchedule.Kill k : killsNotStruck) {
            sb.append("\n  kill ").append(k).append(" never struck: the rank ended before it");
        }
        return sb.toString();
    }
}
