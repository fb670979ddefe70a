package io.rewind.engine;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * One rank's view of a communicator: its group (communicator rank to world rank), its own rank, and
 * two matching contexts, an even one for the program's point-to-point traffic and the next odd one for
 * the messages of collective algorithms, so the two can never match each other.
 *
 * <p>Sequence numbers are kept per outgoing channel (this rank to each destination) and travel on
 * every frame; the fault-tolerance protocols use them to tell replayed messages from new ones.
 *
 * <p>An intercommunicator is the same with two groups: its peers (the ranks messages go to and come
 * from) are the remote group, while its rank, size and group are the local group's, and it keeps a
 * private intracommunicator over the local group for the local steps of its collectives and for
 * the creations made from it (see {@link Intercommunicators}).
 */
public final class Communicator {
    /**
     * Logged messages from this size on are pulled by their receiver when it is already waiting (see
     * {@link Frame#isPulled()}); below it the hand-off costs more than the copy it moves off this core.
     */
    static final long PULL_MIN_BYTES = 16 << 10;

    private final RankEngine engine;
    private final int context;
    /** The peers: the group, or an intercommunicator's remote group. */
    private final int[] group;
    /** An intercommunicator's local group; null for an intracommunicator. */
    private final int[] localGroup;
    /** An intercommunicator's private intracommunicator over its local group; null otherwise. */
    private final Communicator localPart;
    /**
     * For an intercommunicator's private local communicator, that intercommunicator: a failure in its
     * remote group and its revocation stop the local steps of its collectives too. Null otherwise.
     */
    private volatile Communicator partOf;

    private final int rank;
    private final String name;
    /** Last sequence number sent to each member: point-to-point traffic. */
    private final PeerLongs sendSequence;
    /**
     * The same for the messages of collectives, numbered apart: collectives may run on a thread of
     * their own, and sharing one numbering with the rank thread's sends would make the numbers depend
     * on timing, which replay cannot reproduce.
     */
    private final PeerLongs collectiveSendSequence;
    /** The last collective started on this communicator; the next one runs after it. */
    private volatile Request lastCollective;

    private int collectiveSequence;
    private long creations;
    /**
     * The incarnation of each peer (and of each local member of an intercommunicator) it reaches; null:
     * the first of every one.
     */
    private final int[] peerIncarnations;

    private final int[] localIncarnations;
    /** How many of its failures the program acknowledged ({@link #ackFailed}). */
    private volatile int acknowledgedFailures;

    private volatile boolean freed;

    Communicator(RankEngine engine, int context, int[] group, int rank, String name) {
        this(engine, context, group, rank, name, null);
    }

    /** An intercommunicator when {@code localPart} is not null: {@code group} is then the remote group. */
    Communicator(RankEngine engine, int context, int[] group, int rank, String name, Communicator localPart) {
        this.engine = engine;
        this.context = context;
        this.group = group;
        this.localPart = localPart;
        this.localGroup = localPart == null ? null : localPart.group;
        this.rank = rank;
        this.name = name;
        this.sendSequence = new PeerLongs(group.length);
        this.collectiveSendSequence = new PeerLongs(group.length);
        this.peerIncarnations = engine.peerFailures().incarnationsOf(group);
        this.localIncarnations =
                localGroup == null ? peerIncarnations : engine.peerFailures().incarnationsOf(localGroup);
        if (localPart != null) {
            localPart.partOf = this;
        }
        engine.register(this);
    }

    public RankEngine engine() {
        return engine;
    }

    public int rank() {
        return rank;
    }

    /** The size of the group (for an intercommunicator, of the local group). */
    public int size() {
        return localGroup == null ? group.length : localGroup.length;
    }

    public boolean isInter() {
        return localPart != null;
    }

    /** The number of peers: the size, or an intercommunicator's remote group size. */
    public int remoteSize() {
        return group.length;
    }

    /** An intercommunicator's remote group as world ranks; the group for an intracommunicator. */
    public int[] remoteWorldRanks() {
        return group.clone();
    }

    /** An intercommunicator's private intracommunicator over its local group; null otherwise. */
    public Communicator localPart() {
        return localPart;
    }

    /** The communicator whose failures and revocation this one shares: its intercommunicator, or itself. */
    Communicator failureScope() {
        Communicator owner = partOf;
        return owner == null ? this : owner;
    }

    public int context() {
        return context;
    }

    public String name() {
        return name;
    }

    /** World rank of communicator rank {@code r} (of a peer: for an intercommunicator, remote rank {@code r}). */
    public int worldRankOf(int r) {
        return group[r];
    }

    /** As {@link #worldRankOf}, or -1 if {@code r} is not a peer's rank. */
    int peerWorldRank(int r) {
        return r >= 0 && r < group.length ? group[r] : -1;
    }

    /** A copy of the group (an intercommunicator's local group) as world ranks, in rank order. */
    public int[] groupWorldRanks() {
        return localGroup == null ? group.clone() : localGroup.clone();
    }

    /** An intercommunicator's local group as world ranks (its group for an intracommunicator). */
    public int[] localWorldRanks() {
        return localGroup == null ? group.clone() : localGroup.clone();
    }

    /**
     * The index of world rank {@code world} among the members: its peer index, or for an
     * intercommunicator's local group the remote size plus its local index; -1 if not a member.
     */
    int memberIndex(int world) {
        for (int i = 0; i < group.length; i++) {
            if (group[i] == world) {
                return i;
            }
        }
        if (localGroup != null) {
            for (int i = 0; i < localGroup.length; i++) {
                if (localGroup[i] == world) {
                    return group.length + i;
                }
            }
        }
        return -1;
    }

    /** The incarnation of the member at {@link #memberIndex} {@code at}. */
    int memberIncarnation(int at) {
        return at < group.length ? peerIncarnation(at) : incarnationIn(localIncarnations, at - group.length);
    }

    int peerIncarnation(int r) {
        return incarnationIn(peerIncarnations, r);
    }

    private static int incarnationIn(int[] incarnations, int r) {
        return incarnations == null ? 0 : incarnations[r];
    }

    /**
     * Acknowledges the first {@code n} failures of its members (ULFM's ack): receives of any source
     * work again while no other member fails. Returns how many are acknowledged.
     */
    public int ackFailed(int n) {
        int failed = engine.peerFailures().failedMembers(this).length;
        synchronized (this) {
            acknowledgedFailures = Math.max(acknowledgedFailures, Math.min(Math.max(n, 0), failed));
            return acknowledgedFailures;
        }
    }

    int acknowledgedFailures() {
        return acknowledgedFailures;
    }

    /** Calls of fault-tolerant collectives (agree, shrink, replace) made on it so far. */
    private int failureCalls;

    /** The number of this rank's next fault-tolerant collective on it (every member counts alike). */
    public synchronized int nextFailureCall() {
        return failureCalls++;
    }

    /** Every member as a world rank: the group, and an intercommunicator's local group after it. */
    public int[] memberWorldRanks() {
        if (localGroup == null) {
            return group.clone();
        }
        int[] all = Arrays.copyOf(group, group.length + localGroup.length);
        System.arraycopy(localGroup, 0, all, group.length, localGroup.length);
        return all;
    }

    /** The incarnation of each of {@link #memberWorldRanks()} this communicator reaches. */
    public int[] memberIncarnations() {
        int peers = group.length;
        int[] all = new int[peers + (localGroup == null ? 0 : localGroup.length)];
        for (int i = 0; i < all.length; i++) {
            all[i] = memberIncarnation(i);
        }
        return all;
    }

    /** The communicator a shrink or a replacement decided ({@link FailureDecision}), as this rank has it. */
    public Communicator decided(FailureDecision d, String suffix) {
        int me = engine.worldRank();
        int[] first = Arrays.copyOf(d.survivors(), d.firstGroup());
        int[] second = Arrays.copyOfRange(d.survivors(), d.firstGroup(), d.survivors().length);
        for (int c : d.contexts()) {
            engine.contextAgreed(c);
        }
        if (localGroup == null) {
            return new Communicator(
                    engine, d.contexts()[0], d.survivors().clone(), indexOf(d.survivors(), me), name + suffix);
        }
        boolean inFirst = indexOf(first, me) >= 0;
        int[] local = inFirst ? first : second;
        int[] remote = inFirst ? second : first;
        Communicator localPart = new Communicator(
                engine, d.contexts()[inFirst ? 1 : 2], local, indexOf(local, me), name + suffix + ".local");
        return new Communicator(engine, d.contexts()[0], remote, indexOf(local, me), name + suffix, localPart);
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }

    public boolean isFreed() {
        return freed;
    }

    public void free() {
        freed = true;
        if (localPart != null) {
            localPart.free();
        }
    }

    void checkUsable() {
        if (freed) {
            throw RewindException.of(ErrorClass.COMM, "communicator %s was freed", name);
        }
    }

    void checkPeer(int peer, boolean wildcardAllowed, String what) {
        if (peer == Constants.PROC_NULL || (wildcardAllowed && peer == Constants.ANY_SOURCE)) {
            return;
        }
        if (peer < 0 || peer >= group.length) {
            throw RewindException.of(
                    ErrorClass.RANK,
                    "invalid %s rank %d in communicator %s of size %d",
                    what,
                    peer,
                    name,
                    group.length);
        }
    }

    /** What a receive or probe names: a usable communicator, a source (or a wildcard) and a tag (or ANY_TAG). */
    private void checkReceivePattern(int source, int tag) {
        checkUsable();
        engine.peerFailures().checkStart(this, false);
        checkPeer(source, true, "source");
        checkTag(tag, true);
    }

    private static void checkTag(int tag, boolean wildcardAllowed) {
        if (tag == Constants.ANY_TAG && wildcardAllowed) {
            return;
        }
        if (tag < 0) {
            throw RewindException.of(
                    ErrorClass.TAG, "invalid tag %d (tags are >= 0%s)", tag, wildcardAllowed ? " or ANY_TAG" : "");
        }
    }

    private static void checkLength(long bytes) {
        if (bytes < 0) {
            throw RewindException.of(ErrorClass.COUNT, "negative count");
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Point to point

    public SendRequest isend(MemorySegment buffer, long offset, long lengthBytes, int dest, int tag, SendMode mode) {
        checkUsable();
        engine.peerFailures().checkStart(this, false);
        checkPeer(dest, false, "destination");
        checkTag(tag, false);
        checkLength(lengthBytes);
        return sendOn(context, buffer, offset, lengthBytes, dest, tag, mode);
    }

    public RecvRequest irecv(MemorySegment buffer, long offset, long capacityBytes, int source, int tag) {
        checkReceivePattern(source, tag);
        checkLength(capacityBytes);
        engine.operation();
        FaultTolerance ft = engine.faultTolerance();
        if (source == Constants.ANY_SOURCE && engine.interposed()) {
            long index = engine.nextWildcardIndex();
            FaultTolerance.ForcedMatch forced = ft.forcedWildcard(index);
            Mailbox mailbox = engine.mailbox();
            long stamp = engine.patternStamp(context);
            RecvRequest req;
            if (forced != null) {
                // Replay: the receive matches exactly what it matched before the crash.
                req = new RecvRequest(
                        engine, mailbox, context, forced.source(), forced.tag(), stamp, buffer, offset, capacityBytes);
                req.requiredSequence = forced.sequence();
            } else {
                req = new RecvRequest(engine, mailbox, context, source, tag, stamp, buffer, offset, capacityBytes);
            }
            req.wildcardIndex = index;
            mailbox.post(req);
            return req;
        }
        return recvOn(context, buffer, offset, capacityBytes, source, tag);
    }

    /** The envelope of the oldest matching message not yet received, or null. Never blocks. */
    public ProbeResult iprobe(int source, int tag) {
        checkReceivePattern(source, tag);
        if (source == Constants.PROC_NULL) {
            return new ProbeResult(Constants.PROC_NULL, Constants.ANY_TAG, 0);
        }
        engine.checkAlive();
        engine.peerFailures().checkProbe(context, source);
        FaultTolerance ft = engine.faultTolerance();
        long stamp = engine.patternStamp(context);
        if (engine.interposed()) {
            long index = engine.nextPollIndex();
            long[] forced = ft.forcedPollOutcome(index);
            if (forced != null) {
                if (forced.length == 0) {
                    return null; // it found nothing before the crash, so it finds nothing now
                }
                Frame f = engine.mailbox().awaitProbe(engine, context, (int) forced[0], (int) forced[1], stamp);
                return new ProbeResult(f.source, f.tag, f.lengthBytes);
            }
            Frame f = engine.mailbox().peek(context, source, tag, stamp);
            ft.onPollOutcome(index, f == null ? new long[0] : new long[] {f.source, f.tag, f.sequence});
            if (f == null) {
                engine.onUnsuccessfulPoll();
                return null;
            }
            return new ProbeResult(f.source, f.tag, f.lengthBytes);
        }
        Frame f = engine.mailbox().peek(context, source, tag, stamp);
        if (f == null) {
            engine.onUnsuccessfulPoll();
            return null;
        }
        return new ProbeResult(f.source, f.tag, f.lengthBytes);
    }

    /** Blocks until a matching message is available and returns its envelope. */
    public ProbeResult probe(int source, int tag) {
        checkReceivePattern(source, tag);
        if (source == Constants.PROC_NULL) {
            return new ProbeResult(Constants.PROC_NULL, Constants.ANY_TAG, 0);
        }
        FaultTolerance ft = engine.faultTolerance();
        long stamp = engine.patternStamp(context);
        if (engine.interposed() && source == Constants.ANY_SOURCE) {
            long index = engine.nextPollIndex();
            long[] forced = ft.forcedPollOutcome(index);
            if (forced != null && forced.length > 0) {
                source = (int) forced[0];
                tag = (int) forced[1];
            }
            Frame f = engine.mailbox().awaitProbe(engine, context, source, tag, stamp);
            ft.onPollOutcome(index, new long[] {f.source, f.tag, f.sequence});
            return new ProbeResult(f.source, f.tag, f.lengthBytes);
        }
        Frame f = engine.mailbox().awaitProbe(engine, context, source, tag, stamp);
        return new ProbeResult(f.source, f.tag, f.lengthBytes);
    }

    /**
     * Matched probe ({@code MPI_Mprobe}): blocks until a matching message is available and takes it
     * out of matching, so that only {@link #mrecv} receives it. Under a protocol, a wildcard-source
     * probe records which message it took, and a restarted rank takes that very message again.
     */
    public MatchedMessage mprobe(int source, int tag) {
        checkReceivePattern(source, tag);
        if (source == Constants.PROC_NULL) {
            return MatchedMessage.NO_PROC;
        }
        engine.operation();
        Mailbox mailbox = engine.mailbox();
        long stamp = engine.patternStamp(context);
        if (engine.interposed() && source == Constants.ANY_SOURCE) {
            FaultTolerance ft = engine.faultTolerance();
            long index = engine.nextPollIndex();
            long[] forced = ft.forcedPollOutcome(index);
            Frame f = forced != null && forced.length == 3
                    ? mailbox.awaitMatched(engine, context, (int) forced[0], (int) forced[1], stamp, forced[2])
                    : mailbox.awaitMatched(engine, context, source, tag, stamp, -1);
            if (forced == null) {
                ft.onPollOutcome(index, new long[] {f.source, f.tag, f.sequence});
            }
            return new MatchedMessage(f, this);
        }
        return new MatchedMessage(mailbox.awaitMatched(engine, context, source, tag, stamp, -1), this);
    }

    /**
     * Non-blocking matched probe ({@code MPI_Improbe}): takes the oldest matching message out of
     * matching, or returns null at once. Under a protocol the outcome (nothing, or which message) is
     * recorded, since it depends on timing, and a restarted rank gets the recorded outcome.
     */
    public MatchedMessage improbe(int source, int tag) {
        checkReceivePattern(source, tag);
        if (source == Constants.PROC_NULL) {
            return MatchedMessage.NO_PROC;
        }
        engine.operation();
        engine.peerFailures().checkProbe(context, source);
        Mailbox mailbox = engine.mailbox();
        long stamp = engine.patternStamp(context);
        if (!engine.interposed()) {
            Frame f = mailbox.takeMatched(context, source, tag, stamp, -1);
            if (f == null) {
                engine.onUnsuccessfulPoll();
                return null;
            }
            return new MatchedMessage(f, this);
        }
        FaultTolerance ft = engine.faultTolerance();
        long index = engine.nextPollIndex();
        long[] forced = ft.forcedPollOutcome(index);
        if (forced != null) {
            if (forced.length == 0) {
                engine.onUnsuccessfulPoll();
                return null; // it found nothing before the crash, so it finds nothing now
            }
            return new MatchedMessage(
                    mailbox.awaitMatched(engine, context, (int) forced[0], (int) forced[1], stamp, forced[2]), this);
        }
        Frame f = mailbox.takeMatched(context, source, tag, stamp, -1);
        ft.onPollOutcome(index, f == null ? new long[0] : new long[] {f.source, f.tag, f.sequence});
        if (f == null) {
            engine.onUnsuccessfulPoll();
            return null;
        }
        return new MatchedMessage(f, this);
    }

    /**
     * Receives a message a matched probe took ({@code MPI_Mrecv}, {@code MPI_Imrecv}): the payload is
     * copied at once, so the request is complete when this returns. A message longer than the buffer
     * completes with a truncation error, as a receive does.
     */
    public RecvRequest mrecv(MatchedMessage message, MemorySegment buffer, long offset, long capacityBytes) {
        checkUsable();
        checkLength(capacityBytes);
        if (message == MatchedMessage.NO_PROC) {
            RecvRequest none = new RecvRequest(
                    engine, engine.mailbox(), context, Constants.PROC_NULL, Constants.ANY_TAG, 0L, buffer, offset, 0);
            none.complete(Constants.PROC_NULL, Constants.ANY_TAG, 0, null);
            return none;
        }
        if (message.communicator != this) {
            throw RewindException.of(
                    ErrorClass.ARG,
                    "the message was probed on communicator %s, not %s",
                    message.communicator.name(),
                    name);
        }
        if (!message.markReceived()) {
            throw RewindException.of(ErrorClass.REQUEST, "the matched message was received already");
        }
        engine.operation();
        Mailbox mailbox = engine.mailbox();
        // The frame was matched by the probe already (pattern included): this request only receives it.
        Frame frame = message.frame;
        RecvRequest req = new RecvRequest(
                engine,
                mailbox,
                context,
                message.source(),
                message.tag(),
                PatternState.pack(frame.patternId, frame.iterationId),
                buffer,
                offset,
                capacityBytes);
        mailbox.releaseMatched(message.frame);
        req.deliver(message.frame);
        return req;
    }

    SendRequest sendOn(int ctx, MemorySegment buffer, long offset, long lengthBytes, int dest, int tag, SendMode mode) {
        return sendOn(ctx, buffer, offset, lengthBytes, dest, tag, mode, null);
    }

    /**
     * Numbers the frame, stamps it with the active communication pattern (see {@link PatternState}),
     * lets the protocol log it (or skip it when the destination already has it), and hands it to the
     * transport.
     *
     * @param shared non-null when the payload is one result sent alike to several members
     */
    SendRequest sendOn(
            int ctx,
            MemorySegment buffer,
            long offset,
            long lengthBytes,
            int dest,
            int tag,
            SendMode mode,
            SharedPayload shared) {
        engine.operation();
        Transport transport = engine.transport();
        if (dest == Constants.PROC_NULL) {
            SendRequest done = new SendRequest(engine, null, -1);
            done.completeSent();
            return done;
        }
        int destWorld = group[dest];
        SendRequest req = new SendRequest(engine, transport, destWorld);
        req.target(this, peerIncarnation(dest));
        RewindException failure = engine.peerFailures().sendError(this, dest, Contexts.isCollective(ctx));
        if (failure != null) {
            req.completeFailed(failure);
            return req;
        }
        FaultTolerance ft = engine.faultTolerance();
        boolean logging = engine.interposed();
        boolean logsPayloads = logging && ft.logsPayloads();
        // With payload logging the payload is copied into the log at once, so only synchronous sends
        // wait for their match; without it, large sends wait so the payload is copied only once.
        boolean waitForMatch = transport.sharesMemory()
                && (mode == SendMode.SYNCHRONOUS
                        || (!logsPayloads
                                && mode != SendMode.BUFFERED
                                && lengthBytes > engine.config().eagerLimitBytes()));
        // A logged message long enough for a second core to pay off is pulled: if its receive is posted,
        // the receiving thread copies it while this one copies it into the log; if not, it waits in the
        // receiver's queue, borrowed, while this thread logs it (see Frame#pull), and the receive that
        // comes meanwhile copies it once, from here. The send completes when both copies are done.
        // Across processes the payload is copied at send time, and a synchronous send waits for its
        // receiver's match notice instead.
        boolean remoteSynchronous = mode == SendMode.SYNCHRONOUS && !transport.sharesMemory();
        boolean pull = logsPayloads
                && !waitForMatch
                && transport.sharesMemory()
                && mode != SendMode.BUFFERED
                && lengthBytes >= PULL_MIN_BYTES;
        Frame frame;
        // A non-blocking collective runs its algorithm on a thread of its own while the rank thread
        // may send on the same communicator: numbering is atomic, so sequence numbers stay unique. The
        // hand-off is not under this lock (a transport may block, or deliver in this thread): the two
        // threads send on different contexts (a collective's messages are numbered apart), and where a
        // protocol needs frames in sequence order, the receiver's arrival tracking restores it.
        synchronized (sendSequence) {
            long seq = (Contexts.isCollective(ctx) ? collectiveSendSequence : sendSequence).add(dest, 1);
            frame = new Frame(
                    ctx,
                    rank,
                    engine.worldRank(),
                    destWorld,
                    tag,
                    seq,
                    engine.incarnation(),
                    buffer,
                    offset,
                    lengthBytes,
                    waitForMatch || pull ? req : null);
            long stamp = engine.patternStamp(ctx);
            frame.setPattern(PatternState.patternOf(stamp), PatternState.iterationOf(stamp));
            frame.line = engine.line();
            frame.pull = pull;
            frame.synchronous = (waitForMatch && mode == SendMode.SYNCHRONOUS) || remoteSynchronous;
        }
        if (remoteSynchronous) {
            // Registered before the hand-off: the notice may come back before send returns.
            engine.mailbox().awaitMatch(destWorld, ctx, frame.sequence, req);
            req.awaitsRemoteMatch(ctx, frame.sequence);
        }
        if (!logging) {
            transport.send(destWorld, frame);
        } else if (!ft.send(frame, destWorld, shared, transport)) {
            if (remoteSynchronous) {
                engine.mailbox().stopAwaitingMatch(destWorld, ctx, frame.sequence);
            }
            req.completeSent(); // the destination already has this message
            return req;
        }
        engine.traffic().count(destWorld, lengthBytes, Contexts.isCollective(ctx));
        if (logging) {
            ft.afterSend(frame);
        }
        if (!waitForMatch && !pull && !remoteSynchronous) {
            req.completeSent();
        }
        return req;
    }

    RecvRequest recvOn(int ctx, MemorySegment buffer, long offset, long capacityBytes, int source, int tag) {
        engine.operation();
        Mailbox mailbox = engine.mailbox();
        RecvRequest req = new RecvRequest(
                engine, mailbox, ctx, source, tag, engine.patternStamp(ctx), buffer, offset, capacityBytes);
        if (source == Constants.PROC_NULL) {
            req.complete(Constants.PROC_NULL, Constants.ANY_TAG, 0, null);
            return req;
        }
        mailbox.post(req);
        return req;
    }

    // ---------------------------------------------------------------------------------------------
    // Collective plumbing

    /** The tag of the next collective call. All members call collectives in the same order, so they agree. */
    int nextCollectiveTag() {
        checkUsable();
        engine.peerFailures().checkStart(this, true);
        int t = collectiveSequence++;
        return t & Integer.MAX_VALUE;
    }

    int collectiveContext() {
        return Contexts.collectiveOf(context);
    }

    /** Reserves the tag for a collective whose algorithm runs later (non-blocking collectives). */
    public int reserveCollectiveTag() {
        return nextCollectiveTag();
    }

    /**
     * Starts a non-blocking collective's algorithm on a thread of its own, once every collective
     * started before it on this communicator has finished: collectives then send in program order on
     * every channel, so their messages are numbered the same way in every run.
     */
    public TaskRequest startCollective(String name, Runnable algorithm) {
        Request previous = lastCollective;
        TaskRequest t = TaskRequest.start(engine, name, () -> {
            awaitQuietly(previous);
            algorithm.run();
        });
        lastCollective = t;
        return t;
    }

    /** Waits until the collectives started on this communicator have finished (before a blocking one). */
    public void awaitCollectives() {
        awaitQuietly(lastCollective);
    }

    private void awaitQuietly(Request r) {
        if (r != null && !r.isComplete()) {
            engine.waitStrategy().await(r);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Communicator creation (collective over this communicator)

    private int agreeContext() {
        MemorySegment v = MemorySegment.ofArray(new int[] {engine.nextContextCandidate()});
        Collectives.allReduce(this, nextCollectiveTag(), null, 0, v, 0, 1, BaseType.INT, PredefinedOp.MAX);
        int agreed = v.get(ValueLayout.JAVA_INT, 0);
        engine.contextAgreed(agreed);
        return agreed;
    }

    public Communicator dup() {
        CommunicatorFactory factory = engine.communicatorFactory();
        if (factory != null) {
            return created(factory.create(this, creations++, 0, rank, null), "'");
        }
        int ctx = agreeContext();
        return new Communicator(engine, ctx, group.clone(), rank, name + "'");
    }

    /**
     * Splits by colour, ordering each new group by key then old rank. A negative colour
     * ({@code UNDEFINED}) takes no part and gets null.
     */
    public Communicator split(int color, int key) {
        CommunicatorFactory factory = engine.communicatorFactory();
        if (factory != null) {
            return created(
                    factory.create(this, creations++, color < 0 ? -1 : color, key, null), "/split(" + color + ")");
        }
        int ctx = agreeContext();
        int n = size();
        int[] mine = {color, key};
        int[] all = new int[2 * n];
        Collectives.allGather(
                this, nextCollectiveTag(), MemorySegment.ofArray(mine), 0, MemorySegment.ofArray(all), 0, 8);
        if (color < 0) {
            return null;
        }
        List<int[]> members = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            if (all[2 * r] == color) {
                members.add(new int[] {all[2 * r + 1], r});
            }
        }
        members.sort(Comparator.<int[]>comparingInt(m -> m[0]).thenComparingInt(m -> m[1]));
        int[] newGroup = new int[members.size()];
        int newRank = -1;
        for (int i = 0; i < newGroup.length; i++) {
            int oldRank = members.get(i)[1];
            newGroup[i] = group[oldRank];
            if (oldRank == rank) {
                newRank = i;
            }
        }
        return new Communicator(engine, ctx, newGroup, newRank, name + "/split(" + color + ")");
    }

    /**
     * Creates a communicator over a subset (given as world ranks); every member of this communicator
     * must call it with the same group. Ranks outside the group get null.
     */
    public Communicator create(int[] groupWorldRanks) {
        CommunicatorFactory factory = engine.communicatorFactory();
        if (factory != null) {
            return created(factory.create(this, creations++, 0, 0, groupWorldRanks.clone()), "/create");
        }
        int ctx = agreeContext();
        int me = -1;
        for (int i = 0; i < groupWorldRanks.length; i++) {
            if (groupWorldRanks[i] == engine.worldRank()) {
                me = i;
            }
        }
        if (me < 0) {
            return null;
        }
        return new Communicator(engine, ctx, groupWorldRanks.clone(), me, name + "/create");
    }

    /** The index of this communicator's next creation (every member counts them alike). */
    long nextCreation() {
        return creations++;
    }

    /**
     * Creates a communicator over {@code groupWorldRanks}, a subset that this rank belongs to, with
     * only the subset's members taking part ({@code MPI_Comm_create_group}). Creations with the same
     * group and tag are numbered apart from the other creations on this communicator, since the
     * other members do not make them.
     */
    public Communicator createFromGroup(int[] groupWorldRanks, int tag) {
        checkUsable();
        CommunicatorFactory factory = engine.communicatorFactory();
        if (factory == null) {
            throw RewindException.of(ErrorClass.OTHER, "creation from a group needs the job's communicator registry");
        }
        String key = tag + ":" + Arrays.toString(groupWorldRanks);
        long occurrence;
        synchronized (subgroupCreations) {
            occurrence = subgroupCreations.merge(key, 1L, Long::sum) - 1;
        }
        return created(factory.createFromGroup(this, groupWorldRanks.clone(), tag, occurrence), "/group");
    }

    /** Creations from a group so far, per group and tag (see {@link #createFromGroup}). */
    private final java.util.Map<String, Long> subgroupCreations = new java.util.HashMap<>();

    private Communicator created(CommunicatorFactory.Created c, String suffix) {
        if (c == null) {
            return null;
        }
        engine.contextAgreed(c.context());
        return new Communicator(engine, c.context(), c.groupWorldRanks(), c.rank(), name + suffix);
    }

    /** Counters of this communicator, for a checkpoint. */
    public CommunicatorState state() {
        synchronized (sendSequence) {
            return new CommunicatorState(
                    context, sendSequence.toArray(), collectiveSendSequence.toArray(), collectiveSequence, creations);
        }
    }

    public void restore(CommunicatorState s) {
        if (s.sendSequence().length != sendSequence.size()) {
            throw RewindException.of(
                    ErrorClass.INTERN,
                    "checkpointed communicator %d has %d members, not %d",
                    context,
                    s.sendSequence().length,
                    sendSequence.size());
        }
        synchronized (sendSequence) {
            sendSequence.setAll(s.sendSequence());
            collectiveSendSequence.setAll(s.collectiveSendSequence());
            collectiveSequence = s.collectiveSequence();
            creations = s.creations();
        }
    }

    @Override
    public String toString() {
        return name + "[rank " + rank + " of " + group.length + ", ctx " + context + ", world "
                + Arrays.toString(group.length <= 8 ? group : Arrays.copyOf(group, 8)) + "]";
    }
}
