package io.rewind.engine;

import java.util.Objects;

/**
 * The engine state of one incarnation of one rank: its matching queues, its communicators' shared
 * bookkeeping, and how it waits. Created by the runtime, used by the {@code mpi} facade.
 */
public final class RankEngine {
    /** Context ids 0/1 belong to the world communicator, 2/3 to the self communicator. */
    private static final int FIRST_FREE_CONTEXT = 4;

    private final int worldRank;
    private final int incarnation;
    private final int worldSize;
    private final Mailbox mailbox;
    private final Transport transport;
    private final EngineConfig config;
    private final WaitStrategy waitStrategy;
    private final Liveness liveness;
    private Communicator world;
    private final Communicator self;
    private final FaultTolerance faultTolerance;
    /** Whether the protocol's hooks are called (false without a protocol). */
    private final boolean interposed;

    private final TrafficCounters traffic;
    /** Failed peers and revoked communicators, when failures are reported to the program. */
    private final PeerFailures peerFailures;
    /** The communication patterns the program declared, and the active one. */
    private final PatternState patterns = new PatternState();

    private int nextContext = FIRST_FREE_CONTEXT;
    /** Program-order count of wildcard-source receives (keys of their determinants). */
    private long wildcardReceives;
    /** Program-order count of completion-function and probe calls whose outcome is non-deterministic. */
    private long polls;

    private volatile CommunicatorFactory communicatorFactory;
    private final java.util.concurrent.atomic.AtomicLong operations = new java.util.concurrent.atomic.AtomicLong();
    /** Set while a thread of this rank runs {@link #progress()}. */
    private final java.util.concurrent.atomic.AtomicBoolean progressing =
            new java.util.concurrent.atomic.AtomicBoolean();

    private volatile java.util.function.LongConsumer operationHook;
    private final java.util.Map<Integer, Communicator> communicators = new java.util.concurrent.ConcurrentHashMap<>();

    public RankEngine(int worldRank, int worldSize, Transport transport, EngineConfig config, Liveness liveness) {
        this(worldRank, worldSize, transport, config, liveness, FaultTolerance.NONE);
    }

    public RankEngine(
            int worldRank,
            int worldSize,
            Transport transport,
            EngineConfig config,
            Liveness liveness,
            FaultTolerance faultTolerance) {
        this(worldRank, worldSize, transport, config, liveness, faultTolerance, 0);
    }

    /** @param incarnation which life of the rank this is (0 first; frames carry it) */
    public RankEngine(
            int worldRank,
            int worldSize,
            Transport transport,
            EngineConfig config,
            Liveness liveness,
            FaultTolerance faultTolerance,
            int incarnation) {
        if (incarnation < 0) {
            throw new IllegalArgumentException("incarnation " + incarnation);
        }
        this.incarnation = incarnation;
        if (worldRank < 0 || worldRank >= worldSize) {
            throw new IllegalArgumentException("rank " + worldRank + " outside world of " + worldSize);
        }
        this.worldRank = worldRank;
        this.worldSize = worldSize;
        this.transport = Objects.requireNonNull(transport);
        this.config = Objects.requireNonNull(config);
        this.liveness = Objects.requireNonNull(liveness);
        this.faultTolerance = Objects.requireNonNull(faultTolerance);
        this.interposed = faultTolerance.interposes();
        this.mailbox = new Mailbox(faultTolerance.tracksArrivals(), worldSize);
        mailbox.acknowledgeMatchesWith(this::acknowledgeMatch);
        mailbox.answerCancellationsWith(this::answerCancellation);
        mailbox.resolveSourcesWith(this::sourceWorldOf);
        if (faultTolerance.readsPiggybacks()) {
            mailbox.readPiggybacksWith(faultTolerance::onPiggyback);
        }
        this.traffic = new TrafficCounters(worldSize);
        this.peerFailures = new PeerFailures(this, worldSize);
        this.waitStrategy = new WaitStrategy(this, config.spinIterations(), config.yieldNanos());
        this.world = new Communicator(this, 0, worldGroup(worldSize), worldRank, "MPI_COMM_WORLD");
        this.self = new Communicator(this, 2, new int[] {worldRank}, 0, "MPI_COMM_SELF");
    }

    /** The world group of the last job size asked for: one array for every rank of a JVM, never written. */
    private static volatile int[] sharedWorldGroup = new int[0];

    /** World ranks 0 to size - 1, shared by the ranks of a job rather than one copy each. */
    private static int[] worldGroup(int size) {
        int[] g = sharedWorldGroup;
        if (g.length != size) {
            g = new int[size];
            for (int i = 0; i < size; i++) {
                g[i] = i;
            }
            sharedWorldGroup = g;
        }
        return g;
    }

    /** Makes this incarnation reachable: frames sent to its rank now reach its queues. */
    public void attach() {
        transport.attach(worldRank, mailbox);
    }

    /**
     * Called on the rank's own thread before the program runs: control messages wake this thread,
     * and a restarted incarnation tells every other rank it lives, so that what its dead predecessor
     * may still send is dropped there.
     */
    public void start() {
        mailbox.setOwner(Thread.currentThread());
        if (incarnation > 0) {
            IncarnationNotice notice = new IncarnationNotice(worldRank, incarnation);
            for (int r = 0; r < worldSize; r++) {
                if (r != worldRank) {
                    transport.sendControl(r, notice);
                }
            }
        }
    }

    /**
     * Progress on the protocol's behalf: hands it the control messages that arrived and lets it do
     * deferred work (such as the next part of a replay). Called from every wait loop and at every
     * operation of the rank's threads; one at a time, a thread that finds another progressing goes on.
     */
    public void progress() {
        // The common case, decided with two plain reads: nothing arrived and nothing is due.
        if (!interposed || (!mailbox.hasControl() && !faultTolerance.hasProgressWork())) {
            return;
        }
        if (!progressing.compareAndSet(false, true)) {
            return;
        }
        try {
            ControlMessage m;
            while ((m = mailbox.pollControl()) != null) {
                faultTolerance.onControl(m, transport);
            }
            faultTolerance.progress(transport);
        } finally {
            progressing.set(false);
        }
    }

    /**
     * The world rank of source {@code source} of matching context {@code context} (a point-to-point or
     * collective one), or -1 if no communicator of this rank has that context or the source is not
     * one of its peers.
     */
    private int sourceWorldOf(int context, int source) {
        Communicator c = communicators.get(context & ~1);
        return c == null ? -1 : c.peerWorldRank(source);
    }

    void register(Communicator c) {
        communicators.putIfAbsent(c.context(), c);
    }

    /** The communicator of this rank with the given context, or null. */
    public Communicator communicator(int context) {
        return communicators.get(context);
    }

    /** Every communicator this rank created (world and self included). */
    public java.util.Collection<Communicator> communicators() {
        return communicators.values();
    }

    /** What this rank knows of failed peers and revoked communicators (see {@link PeerFailures}). */
    public PeerFailures peerFailures() {
        return peerFailures;
    }

    /**
     * Replaces the world communicator by one with context {@code context} (a replacement rank joins
     * the communicator its survivors asked for: {@code io.rewind.api.Ulfm.replace}). Before the
     * program runs.
     */
    public void worldContext(int context) {
        communicators.remove(world.context());
        this.world = new Communicator(this, context, world.groupWorldRanks(), worldRank, "MPI_COMM_WORLD");
        contextAgreed(context);
    }

    /** Bytes and messages this incarnation sent, per destination. */
    public TrafficCounters traffic() {
        return traffic;
    }

    public FaultTolerance faultTolerance() {
        return faultTolerance;
    }

    /** Whether a protocol interposes on this rank's operations (see {@link FaultTolerance#interposes()}). */
    public boolean interposed() {
        return interposed;
    }

    /** How communicators are created; by default by messages among the members. */
    public void setCommunicatorFactory(CommunicatorFactory factory) {
        this.communicatorFactory = factory;
    }

    CommunicatorFactory communicatorFactory() {
        return communicatorFactory;
    }

    long nextWildcardIndex() {
        return wildcardReceives++;
    }

    long nextPollIndex() {
        return polls++;
    }

    /** The event counters, for a checkpoint: {wildcard receives, polls, next free context}. */
    public long[] counters() {
        return new long[] {wildcardReceives, polls, nextContext};
    }

    public void restoreCounters(long[] c) {
        wildcardReceives = c[0];
        polls = c[1];
        nextContext = (int) c[2];
    }

    /** The rank's communication patterns (declared through {@code io.rewind.api.Patterns}). */
    public PatternState patterns() {
        return patterns;
    }

    /**
     * Whether the program is inside an iteration of a declared communication pattern: a protocol may
     * ask this in its hooks ({@link FaultTolerance#onPollOutcome}, {@link FaultTolerance#onWildcardMatch})
     * to know whether a non-deterministic event happened inside a pattern.
     */
    public boolean inPattern() {
        return patterns.activePatternId() != 0;
    }

    /** The active pattern id (0 outside any declared pattern). */
    public int activePatternId() {
        return patterns.activePatternId();
    }

    /** The iteration id of the active pattern (0 outside any declared pattern). */
    public int activeIterationId() {
        return PatternState.iterationOf(patterns.active());
    }

    /**
     * The (pattern id, iteration id) a send or receive posted now on {@code context} carries, packed as
     * by {@link PatternState#pack}: the active pattern's for point-to-point contexts, (0, 0) for the
     * collective ones, whose receives name their source and tag and which must match across ranks
     * whatever pattern each is in.
     */
    long patternStamp(int context) {
        return Contexts.isCollective(context) ? 0L : patterns.active();
    }

    public int worldRank() {
        return worldRank;
    }

    /** Which life of the rank this engine serves (0 for the first). */
    public int incarnation() {
        return incarnation;
    }

    public int worldSize() {
        return worldSize;
    }

    public Communicator world() {
        return world;
    }

    public Communicator self() {
        return self;
    }

    /**
     * A receive matched a synchronous frame of a sender in another process: tells the sender, whose
     * send completes then. Called without engine locks.
     */
    void acknowledgeMatch(Frame frame) {
        MatchNotice notice = new MatchNotice(worldRank, incarnation, frame.context, frame.sequence);
        int sender = frame.sourceWorld;
        // Sent from a thread of its own: the match may happen in a transport's I/O thread (a frame that
        // arrives for a posted receive), which must never wait on its own writes.
        Thread.ofVirtual().name("rewind-match-notice").start(() -> transport.sendControl(sender, notice));
    }

    /**
     * Asks the receiver of a synchronous send in another process to withdraw it (a cancel). Sent by the
     * rank's own thread, behind the frame on the same connection, so the request never overtakes it.
     */
    void askToWithdraw(int destinationWorld, int context, long sequence) {
        transport.sendControl(
                destinationWorld, new SendCancellation.Request(worldRank, incarnation, context, sequence));
    }

    /**
     * Answers a sender in another process that cancels a send: from a thread of its own, as a match
     * notice (the request arrives on a transport's I/O thread, which must never wait on its writes).
     */
    void answerCancellation(SendCancellation.Request r, boolean withdrawn) {
        SendCancellation.Answer answer =
                new SendCancellation.Answer(worldRank, incarnation, r.context(), r.sequence(), withdrawn);
        int sender = r.sourceWorld();
        Thread.ofVirtual().name("rewind-cancel-answer").start(() -> transport.sendControl(sender, answer));
    }

    /** The newest recovery line this incarnation has written or restarted from (0: none). */
    public int line() {
        return mailbox.line();
    }

    /**
     * From now on the rank is past recovery line {@code newLine}: its mailbox takes the snapshot for the
     * line, and every frame it sends from here on carries the line. On the rank's thread.
     */
    public MailboxSnapshot beginLine(int newLine) {
        return mailbox.snapshotForLine(newLine);
    }

    /** A restarted incarnation starts past line {@code restoredLine}, with these queues. */
    public void restoreLine(MailboxSnapshot snapshot, int restoredLine) {
        mailbox.restore(snapshot, restoredLine);
    }

    /**
     * Per outgoing channel (context and destination world rank), the last sequence number sent: at a
     * line, what every receiver must hold once the messages in transit across it are counted.
     */
    public java.util.Map<Long, Long> sentCounts() {
        java.util.Map<Long, Long> sent = new java.util.HashMap<>();
        for (Communicator c : communicators.values()) {
            CommunicatorState s = c.state();
            putSent(sent, c, s.context(), s.sendSequence());
            putSent(sent, c, Contexts.collectiveOf(s.context()), s.collectiveSendSequence());
        }
        return sent;
    }

    private static void putSent(java.util.Map<Long, Long> sent, Communicator c, int context, long[] sequences) {
        for (int i = 0; i < sequences.length; i++) {
            if (sequences[i] > 0) {
                sent.put(ChannelKey.of(context, c.worldRankOf(i)), sequences[i]);
            }
        }
    }

    public Mailbox mailbox() {
        return mailbox;
    }

    public Transport transport() {
        return transport;
    }

    public EngineConfig config() {
        return config;
    }

    public WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    /**
     * Throws if the job was aborted or this incarnation was killed; otherwise makes progress (see
     * {@link #progress()}): every runtime call, busy polling loops included, lets the protocol answer
     * its peers.
     */
    public void checkAlive() {
        liveness.check();
        checkReplays();
        progress();
    }

    /** Ends the rank if a replayed frame failed its check ({@link ReplayMismatch}). */
    private void checkReplays() {
        ReplayMismatch m = mailbox.replayMismatch();
        if (m != null) {
            throw m.error(faultTolerance.name());
        }
    }

    /**
     * Counts one communication operation (a frame sent, a receive posted, a completion function or
     * probe) and lets the failure injector strike there, so crashes can land in the middle of an
     * exchange or a collective.
     */
    void operation() {
        long n = operations.incrementAndGet();
        java.util.function.LongConsumer hook = operationHook;
        if (hook != null) {
            hook.accept(n);
        }
        liveness.check();
        checkReplays();
        progress();
    }

    /** Communication operations counted so far by this incarnation. */
    public long operations() {
        return operations.get();
    }

    /**
     * Whether a thread of this rank parked in a wait should wake and look again: its incarnation
     * ended, a replayed frame failed its check, or the protocol has work ({@link #progress()}). Asked
     * by {@link ParkedWaits}'s watch, from outside the rank: plain reads, no side effects.
     */
    boolean needsItsWaiters() {
        return liveness.ended()
                || mailbox.replayMismatch() != null
                || (interposed && (mailbox.hasControl() || faultTolerance.hasProgressWork()));
    }

    /**
     * A finished rank that serves its peers until the job ends parks here between looks: a control
     * message, or {@link ParkedWaits}'s watch when there is work or the job ends, wakes it.
     */
    public void parkWhileServing(Object blocker) {
        ParkedWaits.enter(this);
        try {
            ParkedWaits.park(blocker);
        } finally {
            ParkedWaits.leave();
        }
    }

    /** Threads of this incarnation parked in a blocking MPI wait right now. */
    private final java.util.concurrent.atomic.AtomicInteger blockingWaits =
            new java.util.concurrent.atomic.AtomicInteger();

    /** A thread of this rank parks until a request completes or a message comes (see {@link #inBlockingWait}). */
    void enterBlockingWait() {
        blockingWaits.incrementAndGet();
        ParkedWaits.enter(this); // until it leaves, the watch wakes it when this rank needs it
    }

    void leaveBlockingWait() {
        ParkedWaits.leave();
        blockingWaits.decrementAndGet();
    }

    /**
     * Whether a thread of this rank is parked in a blocking MPI wait (a wait, a blocking receive or
     * probe, a collective): what the job's stall watch asks. A rank that computes, sleeps or polls is
     * not.
     */
    public boolean inBlockingWait() {
        return blockingWaits.get() > 0;
    }

    /** Called with the running count at every communication operation (the failure injector). */
    public void setOperationHook(java.util.function.LongConsumer hook) {
        this.operationHook = hook;
    }

    int nextContextCandidate() {
        return nextContext;
    }

    void contextAgreed(int context) {
        nextContext = Math.max(nextContext, context + 2);
    }

    /** Waits for all requests (nulls skipped); the first failure is thrown after all completed. */
    public void waitAll(Request[] requests) {
        RewindException first = null;
        for (Request r : requests) {
            if (r == null) {
                continue;
            }
            if (!r.isComplete()) {
                waitStrategy.await(r);
            }
            if (first == null) {
                first = r.failure();
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Waits until one request completes; returns its index, or -1 if every entry is null. */
    public int waitAny(Request[] requests) {
        boolean any = false;
        for (Request r : requests) {
            if (r != null) {
                any = true;
                break;
            }
        }
        if (!any) {
            return -1;
        }
        while (true) {
            for (int i = 0; i < requests.length; i++) {
                if (requests[i] != null && requests[i].isComplete()) {
                    return i;
                }
            }
            waitStrategy.awaitAny(requests);
        }
    }

    /**
     * The outcome of a completion function: the indices of the requests it reports complete. Under a
     * logging protocol the outcome is recorded before it is returned, and a restarted rank gets the
     * recorded outcome (waiting, if need be, for those very requests) instead of whatever timing
     * gives now.
     */
    public int[] decide(Request[] requests, PollKind kind) {
        operation(); // busy test loops must notice an abort or a kill too
        if (!interposed) {
            return outcome(requests, kind);
        }
        long index = nextPollIndex();
        long[] forced = faultTolerance.forcedPollOutcome(index);
        if (forced != null) {
            int[] idx = new int[forced.length];
            for (int i = 0; i < idx.length; i++) {
                idx[i] = (int) forced[i];
                Request r = requests[idx[i]];
                if (r != null && !r.isComplete()) {
                    waitStrategy.await(r);
                }
            }
            if (idx.length == 0) {
                onUnsuccessfulPoll();
            }
            return idx;
        }
        int[] out = outcome(requests, kind);
        long[] record = new long[out.length];
        for (int i = 0; i < out.length; i++) {
            record[i] = out[i];
        }
        faultTolerance.onCompletionOutcome(index, record);
        return out;
    }

    private int[] outcome(Request[] requests, PollKind kind) {
        if (kind.blocks()) {
            int first = waitAny(requests);
            if (first < 0) {
                return new int[0];
            }
            if (kind == PollKind.WAIT_ANY) {
                return new int[] {first};
            }
        }
        int n = 0;
        int[] done = new int[requests.length];
        boolean all = true;
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r == null) {
                continue;
            }
            if (r.isComplete()) {
                done[n++] = i;
                if (kind == PollKind.TEST_ANY || kind == PollKind.TEST) {
                    break;
                }
            } else {
                all = false;
            }
        }
        if (kind == PollKind.TEST_ALL && !all) {
            n = 0;
        }
        if (n == 0) {
            onUnsuccessfulPoll();
        }
        return java.util.Arrays.copyOf(done, n);
    }

    /** Tells the wait strategy that a test or probe found nothing (lets other ranks run when oversubscribed). */
    public void onUnsuccessfulPoll() {
        waitStrategy.onUnsuccessfulPoll();
    }
}
