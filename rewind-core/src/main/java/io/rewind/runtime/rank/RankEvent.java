package io.rewind.runtime.rank;

import io.rewind.engine.TrafficCounters;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.RankOutcome;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * What a rank's incarnation tells its job about itself: the one vocabulary of rank events, whatever
 * hosts the rank. A rank thread's events go onto its job's coordinator queue as they are; a rank
 * process sends them over its link to the launcher as they are (they are serialisable), and the
 * launcher's coordinator takes them the same way ({@link
 * io.rewind.runtime.coordinator.RecoveryCoordinator#step}).
 *
 * <p>Every event names the rank and the incarnation it comes from (an earlier incarnation's events are
 * stale, and the coordinator drops them) and carries {@link #at()}, the {@code System.nanoTime()} of
 * the rank's JVM when it happened. A rank process's clock is not its launcher's, so the launcher times
 * such an event by its arrival instead.
 *
 * <p>Adding an event: a record here, the case of {@code RecoveryCoordinator.step} that takes it, and
 * the place in the rank's runtime that emits it; the hosts carry it without knowing it.
 */
public sealed interface RankEvent extends Serializable {
    /** The rank the event is of. */
    int rank();

    /** The incarnation of the rank it is of. */
    int incarnation();

    /** {@code System.nanoTime()} where the event happened (the rank's own JVM). */
    long at();

    /** The incarnation restored its state from recovery line {@code line}, which took {@code nanos}. */
    record Restored(int rank, int incarnation, long at, long line, long nanos) implements RankEvent {}

    /**
     * The incarnation wrote recovery line {@code line}: what it had received ({@code frontiers}: last
     * sequence number per incoming channel) and sent (per outgoing channel), its event counts, the
     * line's size and the time it took. {@code holders}: the nodes that keep the line, and {@code
     * output}: the lines the rank had printed on standard output and error then (a rank process's; a
     * rank thread's line is in its job's own store, so both are empty).
     */
    record Checkpointed(
            int rank,
            int incarnation,
            long at,
            long line,
            Map<Long, Long> frontiers,
            Map<Long, Long> sent,
            long[] events,
            long bytes,
            long nanos,
            List<String> holders,
            long[] output)
            implements RankEvent {}

    /**
     * The incarnation keeps, durably with line {@code line}, the messages in transit across it up to
     * these sequence numbers per incoming channel.
     */
    record KeptInTransit(int rank, int incarnation, long at, long line, Map<Long, Long> upTo) implements RankEvent {}

    /** The incarnation could not read the line it was to restart from: that line must not be used again. */
    record Unrestorable(int rank, int incarnation, long at, long line, String reason) implements RankEvent {}

    /**
     * A restarted incarnation is back where its predecessor crashed: {@code replayed} frames were
     * replayed to it, and at most {@code peakUnmatched} frames ({@code peakUnmatchedBytes} bytes) waited
     * at once for their receive.
     */
    record CaughtUp(int rank, int incarnation, long at, long replayed, int peakUnmatched, long peakUnmatchedBytes)
            implements RankEvent {}

    /**
     * A restarted incarnation was released (it ended, crashed or was stopped) with these replay figures:
     * a replay may go on after the rank caught up.
     */
    record Released(int rank, int incarnation, long at, long replayed, int peakUnmatched, long peakUnmatchedBytes)
            implements RankEvent {}

    /** A kill of the job's schedule fired in the incarnation: it is about to strike, and not given to a later one. */
    record KillFired(int rank, int incarnation, long at, FailureSchedule.Kill kill) implements RankEvent {}

    /**
     * The incarnation was struck ({@code reason}: by a kill that fired in it, or its program crashed)
     * at {@code points} checkpoint points and {@code operations} communication operations. Emitted by a
     * rank process, it is its last word: the process waits to be killed from outside, as a real crash
     * leaves it.
     */
    record Struck(int rank, int incarnation, long at, String reason, long points, long operations)
            implements RankEvent {}

    /**
     * The incarnation's program ended ({@code status}, with {@code detail}) after {@code operations}
     * communication operations, with its payload log's figures and what it sent; a rank that ended well
     * stays to serve its peers.
     */
    record Ended(
            int rank,
            int incarnation,
            long at,
            RankOutcome.Status status,
            String detail,
            long operations,
            LogFigures log,
            TrafficCounters.Sent sent)
            implements RankEvent {
        /** The rank's outcome as this end gives it. */
        public RankOutcome outcome() {
            return new RankOutcome(rank, status, detail, null);
        }
    }

    /**
     * The incarnation's communication operations and checkpoint points so far, whether it waits parked
     * inside MPI, and what it sent: what the stall watch and the crash point need (sent whenever one of
     * them changed, at most every sample).
     */
    record Progress(
            int rank,
            int incarnation,
            long at,
            long operations,
            long points,
            boolean waiting,
            TrafficCounters.Sent sent)
            implements RankEvent {}

    /**
     * The payload bytes the incarnation's log holds now and the memory it takes (blocks in use, spare and
     * prepared ahead), for the run record's log samples.
     */
    record LogHeld(int rank, int incarnation, long at, long payloadBytes, long memoryBytes) implements RankEvent {}

    /**
     * The incarnation's program revoked the communicator with context {@code context}, whose members
     * are {@code members} (world ranks): every member must hear of it (notify mode).
     */
    record Revoked(int rank, int incarnation, long at, int context, int[] members) implements RankEvent {}

    /**
     * The incarnation's program called fault-tolerant collective {@code kind} (its call {@code call} of
     * them on the communicator with context {@code context}), with {@code flag} for an agreement. {@code
     * members} and {@code incarnations}: the communicator's members as world ranks and the incarnations
     * it reaches; those from {@code localFrom} on are the caller's own group of an intercommunicator
     * ({@code members.length} for an intracommunicator).
     */
    record FailureCall(
            int rank,
            int incarnation,
            long at,
            io.rewind.engine.FailureDecision.Kind kind,
            int context,
            int call,
            int[] members,
            int[] incarnations,
            int localFrom,
            int flag)
            implements RankEvent {}

    /** The incarnation's program called abort, or failed so that the job must end, with this code and reason. */
    record AbortRequested(int rank, int incarnation, long at, int errorCode, String reason) implements RankEvent {}
}
