package io.rewind.ft.piggyback;

import io.rewind.engine.FaultTolerance.ForcedMatch;
import io.rewind.engine.Frame;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.sender.OutcomeLog;
import io.rewind.notice.RuntimeNotices;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Causal logging of non-deterministic outcomes: each becomes a {@link Determinant} that the rank keeps
 * and piggybacks on its next frame to every other rank, which keep it and piggyback it on in turn
 * ({@link DeterminantStore}). Nothing waits: the rank acts on an outcome at once, since any rank that
 * comes to depend on it does so through a frame that carries it. A restarted incarnation gets its
 * determinants back in the answers to its rollback request and repeats every outcome they hold;
 * past them it runs freely, as nobody depends on what comes after.
 *
 * <p>It repeats them only as an unbroken run from its first event of each kind (wildcard receives,
 * polls): the first of its events that has no outcome to repeat runs freely, and so does every later
 * one of that kind. A determinant past such a gap numbers an event of an execution this one no longer
 * follows (the failed polls of a wait depend on timing), and forcing it would give one call the
 * outcome of another. Survivors that depend on an event hold every determinant before it, so such a
 * determinant is one nobody depends on; it can be held after a peer's restart: a frame that reached
 * the peer's new incarnation before its rollback request was handled carried only what came since the
 * frame before, the rest having gone to the incarnation that died. For the same reason the answer to a
 * rollback request brings the restarted rank every other determinant held here, not only its own.
 */
public final class CausalOutcomes implements OutcomeLog {
    private final int rank;
    private final int incarnation;
    private final DeterminantStore store;
    private final RecoveryLines lines;
    /** Guards the forced outcomes below (answers arrive while the rank asks for them). */
    private final Object forcedLock = new Object();
    /** For a restarted incarnation: the outcomes to repeat, by event, from the answers. */
    private final Map<Long, Determinant> forcedWildcards = new HashMap<>();

    private final Map<Long, Determinant> forcedPolls = new HashMap<>();
    /**
     * Whether a wildcard receive, then a poll, of this incarnation found no outcome to repeat: from then
     * on its events of that kind run freely. Guarded by {@link #forcedLock}.
     */
    private boolean wildcardsFree;

    private boolean pollsFree;

    /**
     * The outcome log of one incarnation of {@code rank} in a job of {@code worldSize} ranks: shared by
     * the protocols that piggyback determinants, so that none imports another.
     */
    public static OutcomeLog open(int rank, int incarnation, int worldSize, RecoveryLines lines) {
        return new CausalOutcomes(rank, incarnation, worldSize, lines);
    }

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

    /**
     * Polls are recorded as runs of one outcome: a loop of unsuccessful tests makes one determinant
     * that grows (a newer, longer copy replaces it wherever it went), not one per test.
     */
    @Override
    public void polled(long index, long[] outcome) {
        Determinant d;
        synchronized (runLock) {
            if (run != null && run.index() + run.events() == index && sameOutcome(run, outcome)) {
                long[] values = run.values().clone();
                values[0]++;
                run = new Determinant(rank, incarnation, Determinant.RUN, run.index(), values);
            } else {
                long[] values = new long[outcome.length + 1];
                values[0] = 1;
                System.arraycopy(outcome, 0, values, 1, outcome.length);
                run = new Determinant(rank, incarnation, Determinant.RUN, index, values);
            }
            d = run;
        }
        store.made(d);
    }

    private static boolean sameOutcome(Determinant run, long[] outcome) {
        long[] v = run.values();
        return v.length == outcome.length + 1 && Arrays.equals(v, 1, v.length, outcome, 0, outcome.length);
    }

    private final Object runLock = new Object();
    /** The run of polls this incarnation is making. Guarded by {@link #runLock}. */
    private Determinant run;

    @Override
    public ForcedMatch forcedWildcard(long index) {
        Determinant d;
        synchronized (forcedLock) {
            d = wildcardsFree ? null : forcedWildcards.get(index);
            wildcardsFree = d == null;
        }
        return d == null ? null : new ForcedMatch((int) d.values()[0], (int) d.values()[1], d.values()[2]);
    }

    @Override
    public long[] forcedPoll(long index) {
        synchronized (forcedLock) {
            if (pollsFree) {
                return null;
            }
            Determinant d = forcedPolls.get(index);
            if (d != null) {
                return d.values().clone();
            }
            Map.Entry<Long, Determinant> r = forcedRuns.floorEntry(index);
            if (r != null && r.getKey() + r.getValue().events() > index) {
                long[] v = r.getValue().values();
                return Arrays.copyOfRange(v, 1, v.length);
            }
            pollsFree = true;
            return null;
        }
    }

    /** For a restarted incarnation: runs of polls to repeat, by their first poll. */
    private final TreeMap<Long, Determinant> forcedRuns = new TreeMap<>();

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
            RuntimeNotices.print("rewind: rank " + rank + " refused the determinants on a frame of rank "
                    + frame.sourceWorld() + ": " + e.getMessage());
        }
    }

    @Override
    public boolean answersCarryOutcomes() {
        return true;
    }

    /**
     * The determinants of {@code restartedRank}'s events held here, to repeat, followed by every other
     * determinant held here that it was not sent since its restart ({@link #peerRestarted} comes first):
     * its new incarnation may have taken in frames of this rank that carried only part of them.
     */
    @Override
    public long[] outcomesOf(int restartedRank) {
        long[] own = store.of(restartedRank);
        long[] others = store.piggybackFor(restartedRank);
        if (others == null) {
            return own;
        }
        long[] all = Arrays.copyOf(own, own.length + others.length);
        System.arraycopy(others, 0, all, own.length, others.length);
        return all;
    }

    @Override
    public void peerRestarted(int peer) {
        store.peerRestarted(peer);
    }

    /**
     * An answer to this restarted incarnation: the determinants of its own events the peer holds, to
     * repeat, and those of other ranks' events, held from now on as a frame's would be.
     */
    @Override
    public void answered(int peer, long[] outcomes) {
        synchronized (forcedLock) {
            for (Determinant d : DeterminantStore.decode(outcomes)) {
                if (d.origin() != rank) {
                    store.received(d); // another rank's: held, as if a frame had brought it
                    continue;
                }
                if (d.incarnation() >= incarnation) {
                    continue; // of an incarnation not yet dead: nothing to repeat
                }
                Map<Long, Determinant> forced =
                        switch (d.kind()) {
                            case Determinant.WILDCARD -> forcedWildcards;
                            case Determinant.POLL -> forcedPolls;
                            default -> forcedRuns;
                        };
                Determinant known = forced.get(d.index());
                if (known == null
                        || known.incarnation() < d.incarnation()
                        || (known.incarnation() == d.incarnation() && known.events() < d.events())) {
                    forced.put(d.index(), d);
                }
                // Held again here, not only by the peers that answered: they may roll back in a later
                // failure, while ranks that this incarnation's frames make depend on the outcome survive.
                store.repeated(d);
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
