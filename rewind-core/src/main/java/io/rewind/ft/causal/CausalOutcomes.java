package io.rewind.ft.causal;

import io.rewind.engine.FaultTolerance.ForcedMatch;
import io.rewind.engine.Frame;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.sender.OutcomeLog;
import java.util.HashMap;
import java.util.Map;

/**
 * Causal logging of non-deterministic outcomes: each becomes a {@link Determinant} that the rank keeps
 * and piggybacks on its next frame to every other rank, which keep it and piggyback it on in turn
 * ({@link DeterminantStore}). Nothing waits: the rank acts on an outcome at once, since any rank that
 * comes to depend on it does so through a frame that carries it. A restarted incarnation gets its
 * determinants back in the answers to its rollback request and repeats every outcome they hold;
 * past them it runs freely, as nobody depends on what comes after.
 */
final class CausalOutcomes implements OutcomeLog {
    private final int rank;
    private final int incarnation;
    private final DeterminantStore store;
    private final RecoveryLines lines;
    /** For a restarted incarnation: the outcomes to repeat, by event, from the answers. */
    private final Map<Long, Determinant> forcedWildcards = new HashMap<>();

    private final Map<Long, Determinant> forcedPolls = new HashMap<>();

    CausalOutcomes(int rank, int incarnation, int worldSize, RecoveryLines lines) {
        this.rank = rank;
        this.incarnation = incarnation;
        this.store = new DeterminantStore(rank, worldSize);
        this.lines = lines;
    }

    @Override
    public void wildcardMatched(long index, Frame frame) {
        store.made(new Determinant(rank, incarnation, Determinant.WILDCARD, index, new long[] {
            frame.source(), frame.tag(), frame.sequence()
        }));
    }

    @Override
    public void polled(long index, long[] outcome) {
        store.made(new Determinant(rank, incarnation, Determinant.POLL, index, outcome.clone()));
    }

    @Override
    public ForcedMatch forcedWildcard(long index) {
        Determinant d;
        synchronized (forcedWildcards) {
            d = forcedWildcards.get(index);
        }
        return d == null ? null : new ForcedMatch((int) d.values()[0], (int) d.values()[1], d.values()[2]);
    }

    @Override
    public long[] forcedPoll(long index) {
        Determinant d;
        synchronized (forcedWildcards) {
            d = forcedPolls.get(index);
        }
        return d == null ? null : d.values().clone();
    }

    @Override
    public void afterCheckpoint() {
        store.trim(lines::eventsAtOldestLine);
    }

    @Override
    public boolean readsPiggybacks() {
        return true;
    }

    @Override
    public long[] piggybackFor(int destinationWorld) {
        return store.piggybackFor(destinationWorld);
    }

    @Override
    public void onPiggyback(Frame frame) {
        try {
            store.received(frame.piggyback());
        } catch (IllegalArgumentException e) {
            // Not words this protocol wrote: a peer that runs another protocol or version. Its outcomes
            // cannot be kept; the job goes on, and says so.
            System.err.println("rewind: rank " + rank + " refused the determinants on a frame of rank "
                    + frame.sourceWorld() + ": " + e.getMessage());
        }
    }

    @Override
    public boolean answersCarryOutcomes() {
        return true;
    }

    @Override
    public long[] outcomesOf(int restartedRank) {
        return store.of(restartedRank);
    }

    @Override
    public void peerRestarted(int peer) {
        store.peerRestarted(peer);
    }

    /** An answer to this restarted incarnation: the determinants of its own events the peer holds. */
    @Override
    public void answered(int peer, long[] outcomes) {
        synchronized (forcedWildcards) {
            for (Determinant d : DeterminantStore.decode(outcomes)) {
                if (d.origin() != rank || d.incarnation() >= incarnation) {
                    continue; // not this rank's, or of an incarnation not yet dead: nothing to repeat
                }
                Map<Long, Determinant> forced = d.kind() == Determinant.WILDCARD ? forcedWildcards : forcedPolls;
                Determinant known = forced.get(d.index());
                if (known == null || known.incarnation() < d.incarnation()) {
                    forced.put(d.index(), d);
                }
            }
        }
    }

    @Override
    public byte[] checkpointState() {
        return store.save();
    }

    @Override
    public void restoreState(byte[] state) {
        store.load(state);
    }

    @Override
    public long[] figures() {
        return store.figures();
    }
}
