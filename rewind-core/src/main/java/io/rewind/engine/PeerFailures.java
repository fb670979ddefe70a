package io.rewind.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * What a rank knows of failed peers and revoked communicators when its job reports failures to the
 * program ({@code --on-failure notify}) instead of recovering them: the state behind ULFM's semantics.
 * The job's coordinator tells every rank of every failure in one order ({@link #failed}), and of every
 * revocation ({@link #revoked}); the engine then completes, with the error class ULFM gives, each
 * operation that can no longer complete:
 *
 * <ul>
 *   <li>a send to, or a receive from, a failed peer: {@link ErrorClass#PROC_FAILED};
 *   <li>any part of a collective on a communicator with a failed member: {@link ErrorClass#PROC_FAILED}
 *       (every member hears of the failure, so no member waits for ever on one that gave up);
 *   <li>a receive or probe of any source on a communicator with a failure not yet acknowledged:
 *       {@link ErrorClass#PROC_FAILED_PENDING} for a request, which stays posted;
 *       {@link ErrorClass#PROC_FAILED} for a blocking call;
 *   <li>any operation on a revoked communicator: {@link ErrorClass#REVOKED}.
 * </ul>
 *
 * A communicator without failed members is not affected (error insulation). Each check is one read of
 * a volatile field while nothing has failed, and nothing at all when the job recovers transparently.
 */
public final class PeerFailures {
    private final RankEngine engine;
    private volatile boolean enabled;
    /** Per world rank, the newest incarnation known to have failed (-1: none). Guarded by this. */
    private final PeerLongs failedIncarnation;
    /** Per world rank, the incarnation this rank talks to now (a replacement raises it). Guarded by this. */
    private final PeerLongs currentIncarnation;
    /** The failures in the order the job reported them: {world rank, incarnation}. Guarded by this. */
    private final List<int[]> order = new ArrayList<>();
    /** Contexts of revoked communicators (even, point-to-point ones). */
    private final Set<Integer> revokedContexts = ConcurrentHashMap.newKeySet();
    /** Changes with every failure and revocation: requests checked at an older one are checked again. */
    private volatile int epoch;
    /** Threads of this rank parked in a wait, woken by a failure or a revocation. */
    private final Set<Thread> waiting = ConcurrentHashMap.newKeySet();

    PeerFailures(RankEngine engine, int worldSize) {
        this.engine = engine;
        this.failedIncarnation = new PeerLongs(worldSize, -1);
        this.currentIncarnation = new PeerLongs(worldSize);
    }

    /** From now on failures are reported to the program (notify mode). */
    public void enable() {
        enabled = true;
    }

    public boolean enabled() {
        return enabled;
    }

    int epoch() {
        return epoch;
    }

    // ---------------------------------------------------------------------------------------------
    // News from the job

    /** Incarnation {@code incarnation} of world rank {@code world} failed (repeated news is ignored). */
    public void failed(int world, int incarnation) {
        synchronized (this) {
            if (incarnation <= failedIncarnation.get(world)) {
                return;
            }
            failedIncarnation.set(world, incarnation);
            order.add(new int[] {world, incarnation});
            epoch++;
        }
        wakeWaiters();
    }

    /** World rank {@code world} runs as incarnation {@code incarnation} now (a replacement). */
    public synchronized void replaced(int world, int incarnation) {
        currentIncarnation.raise(world, incarnation);
    }

    /** The communicator with this context was revoked, here or by another member. */
    public void revoked(int context) {
        if (revokedContexts.add(context & ~1)) {
            synchronized (this) {
                epoch++;
            }
            wakeWaiters();
        }
    }

    private void wakeWaiters() {
        for (Thread t : waiting) {
            LockSupport.unpark(t);
        }
        Thread owner = engine.mailbox().owner();
        if (owner != null) {
            LockSupport.unpark(owner);
        }
    }

    void waiting(Thread t) {
        if (enabled) {
            waiting.add(t);
        }
    }

    void doneWaiting(Thread t) {
        if (enabled) {
            waiting.remove(t);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Questions of communicators

    /**
     * The incarnations a communicator created now reaches, per member (world ranks given); null while
     * every one is the first (no rank was replaced), which is every communicator of a job that
     * recovers transparently: no table per communicator sized by the job.
     */
    synchronized int[] incarnationsOf(int[] worldRanks) {
        boolean allFirst = true;
        for (int w : worldRanks) {
            allFirst &= currentIncarnation.get(w) == 0;
        }
        if (allFirst) {
            return null;
        }
        int[] out = new int[worldRanks.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (int) currentIncarnation.get(worldRanks[i]);
        }
        return out;
    }

    public boolean isRevoked(Communicator c) {
        return enabled && revoked(c);
    }

    /**
     * Whether {@code c} was revoked: an intercommunicator's private local communicator is revoked with
     * its intercommunicator ({@link Communicator#failureScope}).
     */
    private boolean revoked(Communicator c) {
        return revokedContexts.contains(c.failureScope().context() & ~1);
    }

    /** Whether member {@code world} (at incarnation {@code incarnation} in the communicator) failed. */
    private boolean hasFailed(int world, int incarnation) {
        return failedIncarnation.get(world) >= incarnation;
    }

    /**
     * The failed members of {@code c} (both groups of an intercommunicator) as world ranks, in the
     * order the job reported the failures.
     */
    public synchronized int[] failedMembers(Communicator c) {
        if (!enabled || order.isEmpty()) {
            return new int[0];
        }
        int[] out = new int[order.size()];
        int n = 0;
        for (int[] f : order) {
            int at = c.memberIndex(f[0]);
            if (at >= 0 && c.memberIncarnation(at) == f[1]) {
                out[n++] = f[0];
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** Whether {@code c} has a failed member (it then runs no collective). */
    synchronized boolean anyFailed(Communicator c) {
        if (order.isEmpty()) {
            return false;
        }
        for (int[] f : order) {
            int at = c.memberIndex(f[0]);
            if (at >= 0 && c.memberIncarnation(at) == f[1]) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code c} has failed members its program has not acknowledged ({@link Communicator#ackFailed}). */
    boolean unacknowledged(Communicator c) {
        return failedMembers(c).length > c.acknowledgedFailures();
    }

    // ---------------------------------------------------------------------------------------------
    // Checks of operations

    /** Thrown at the start of an operation on {@code c} (point-to-point: {@code collective} false). */
    void checkStart(Communicator c, boolean collective) {
        if (!enabled) {
            return;
        }
        Communicator scope = c.failureScope();
        if (revoked(c)) {
            throw revokedError(scope);
        }
        if (collective && anyFailed(scope)) {
            throw RewindException.of(
                    ErrorClass.PROC_FAILED,
                    "a member of communicator %s failed (ranks %s): no collective runs on it",
                    scope.name(),
                    Arrays.toString(failedMembers(scope)));
        }
    }

    /** The error that completes a send to {@code destWorld} on {@code c} posted now, or null. */
    RewindException sendError(Communicator c, int destIndex, boolean collective) {
        if (!enabled) {
            return null;
        }
        synchronized (this) {
            if (hasFailed(c.worldRankOf(destIndex), c.peerIncarnation(destIndex))) {
                return peerFailed(c, c.worldRankOf(destIndex));
            }
        }
        Communicator scope = c.failureScope();
        if (collective && anyFailed(scope)) {
            return RewindException.of(
                    ErrorClass.PROC_FAILED,
                    "a member of communicator %s failed: the collective cannot complete",
                    scope.name());
        }
        return null;
    }

    private static RewindException peerFailed(Communicator c, int world) {
        return RewindException.of(ErrorClass.PROC_FAILED, "rank %d (communicator %s) failed", world, c.name());
    }

    private static RewindException revokedError(Communicator c) {
        return RewindException.of(ErrorClass.REVOKED, "communicator %s was revoked", c.name());
    }

    /**
     * A request that has not completed, checked again after a failure or a revocation: completes it
     * with its error if it can no longer complete (a receive is taken out of matching first; one
     * already matched completes as it is). Returns whether it did.
     */
    boolean settle(Request r) {
        if (!enabled) {
            return false;
        }
        if (r instanceof RecvRequest recv) {
            Communicator c = engine.communicator(recv.context & ~1);
            if (c == null) {
                return false;
            }
            RewindException error = receiveError(c, recv.context, recv.source);
            if (error != null && recv.withdrawForFailure()) {
                recv.completeWithFailure(error);
                return true;
            }
            return false;
        }
        if (r instanceof SendRequest send && send.destinationWorld() >= 0) {
            int world = send.destinationWorld();
            synchronized (this) {
                if (failedIncarnation.get(world) >= send.destinationIncarnation()) {
                    send.failIfPending(RewindException.of(ErrorClass.PROC_FAILED, "rank %d failed", world));
                    return true;
                }
            }
        }
        return false;
    }

    /** Why a receive from {@code source} on {@code context} of {@code c} cannot complete (null: it may). */
    private RewindException receiveError(Communicator c, int context, int source) {
        Communicator scope = c.failureScope();
        if (revoked(c)) {
            return revokedError(scope);
        }
        if (Contexts.isCollective(context)) {
            return anyFailed(scope)
                    ? RewindException.of(
                            ErrorClass.PROC_FAILED,
                            "a member of communicator %s failed: the collective cannot complete",
                            c.name())
                    : null;
        }
        if (source >= 0) {
            synchronized (this) {
                return hasFailed(c.worldRankOf(source), c.peerIncarnation(source))
                        ? peerFailed(c, c.worldRankOf(source))
                        : null;
            }
        }
        return null;
    }

    /**
     * Thrown to a thread waiting for {@code r} that must stop waiting although {@code r} stays
     * incomplete: a receive of any source while a failure is unacknowledged (it stays posted), or an
     * operation on a revoked communicator that could not be withdrawn.
     */
    public void interrupt(Request r) {
        if (!enabled || r.isComplete()) {
            return;
        }
        if (r instanceof RecvRequest recv && !Contexts.isCollective(recv.context)) {
            Communicator c = engine.communicator(recv.context & ~1);
            if (c == null) {
                return;
            }
            if (revoked(c)) {
                throw revokedError(c.failureScope());
            }
            if (recv.source == Constants.ANY_SOURCE && unacknowledged(c)) {
                throw RewindException.of(
                        ErrorClass.PROC_FAILED_PENDING,
                        "a member of communicator %s failed (ranks %s) and could have sent this message:"
                                + " acknowledge the failure (Ulfm.ackFailed) to receive from the others",
                        c.name(),
                        Arrays.toString(failedMembers(c)));
            }
        } else if (r instanceof SendRequest send) {
            Communicator c = send.communicator();
            if (c != null && revoked(c)) {
                throw revokedError(c.failureScope());
            }
        }
    }

    /** Thrown to a probe of {@code source} on {@code c} that can find nothing any more. */
    void checkProbe(int context, int source) {
        if (!enabled) {
            return;
        }
        Communicator c = engine.communicator(context & ~1);
        if (c == null) {
            return;
        }
        if (revoked(c)) {
            throw revokedError(c.failureScope());
        }
        if (source == Constants.ANY_SOURCE) {
            if (unacknowledged(c)) {
                throw RewindException.of(
                        ErrorClass.PROC_FAILED,
                        "a member of communicator %s failed (ranks %s): acknowledge it (Ulfm.ackFailed) to probe the others",
                        c.name(),
                        Arrays.toString(failedMembers(c)));
            }
        } else if (source >= 0) {
            synchronized (this) {
                if (hasFailed(c.worldRankOf(source), c.peerIncarnation(source))) {
                    throw peerFailed(c, c.worldRankOf(source));
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Fault-tolerant collectives: decided by the job, awaited here

    /** A call of a fault-tolerant collective waiting for the job's decision. */
    public static final class DecisionRequest extends Request {
        private volatile FailureDecision decision;

        DecisionRequest(RankEngine engine) {
            super(engine);
        }

        /** The decision (after completion). */
        public FailureDecision decision() {
            return decision;
        }

        void decided(FailureDecision d) {
            decision = d;
            complete(Constants.ANY_SOURCE, Constants.ANY_TAG, 0, null);
        }
    }

    /** Calls waiting for their decision, by (context, call). */
    private final java.util.Map<Long, DecisionRequest> awaitingDecision = new ConcurrentHashMap<>();
    /** Decisions that came before their call was made here (a replacement may be that late). */
    private final java.util.Map<Long, FailureDecision> early = new ConcurrentHashMap<>();

    private static long key(int context, int call) {
        return ((long) context << 32) | (call & 0xffffffffL);
    }

    /** Registers this rank's call {@code call} on {@code context}; the job's decision completes it. */
    public DecisionRequest awaitDecision(int context, int call) {
        engine.operation(); // a kill at an operation count may strike here, before the call is made
        DecisionRequest r = new DecisionRequest(engine);
        long k = key(context, call);
        awaitingDecision.put(k, r);
        FailureDecision d = early.remove(k);
        if (d != null && awaitingDecision.remove(k, r)) {
            apply(d);
            r.decided(d);
        }
        return r;
    }

    /** The job decided a call: the failures it names become known here first, then the call returns. */
    public void decided(FailureDecision d) {
        long k = key(d.context(), d.call());
        DecisionRequest r = awaitingDecision.remove(k);
        if (r == null) {
            early.put(k, d);
            return;
        }
        apply(d);
        r.decided(d);
    }

    private void apply(FailureDecision d) {
        for (int i = 0; i + 1 < d.failed().length; i += 2) {
            failed(d.failed()[i], d.failed()[i + 1]);
        }
        for (int i = 0; i + 1 < d.replaced().length; i += 2) {
            replaced(d.replaced()[i], d.replaced()[i + 1]);
        }
    }

    /** Every incarnation this rank talks to now, per world rank. */
    public synchronized int[] currentIncarnations() {
        int[] out = new int[currentIncarnation.size()];
        for (int w = 0; w < out.length; w++) {
            out[w] = (int) currentIncarnation.get(w);
        }
        return out;
    }

    /** A replacement starts knowing the incarnations its peers run as, and which have failed. */
    public synchronized void startKnowing(int[] incarnations, int[] failedPairs) {
        for (int w = 0; w < incarnations.length; w++) {
            currentIncarnation.set(w, incarnations[w]);
        }
        for (int i = 0; i + 1 < failedPairs.length; i += 2) {
            int w = failedPairs[i];
            if (failedPairs[i + 1] > failedIncarnation.get(w)) {
                failedIncarnation.set(w, failedPairs[i + 1]);
                order.add(new int[] {w, failedPairs[i + 1]});
            }
        }
        epoch++;
    }
}
