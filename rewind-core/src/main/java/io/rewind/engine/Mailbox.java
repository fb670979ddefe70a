package io.rewind.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A rank's matching queues: receives posted before their message (posted queue) and messages that
 * arrived before their receive (unexpected queue), both in arrival order. A message matches the
 * oldest posted receive that accepts it; a receive matches the oldest unexpected message it accepts.
 * Since one sender's frames on one channel arrive in send order, this gives MPI's non-overtaking
 * rule. Besides context, source and tag, a frame and a receive or probe must carry the same
 * communication pattern and iteration ids ({@link PatternState}); outside patterns both are 0.
 *
 * <p>One lock guards both queues. Frames are delivered by the sending thread (in-JVM transport) or
 * a transport thread; the copy into a matched receive buffer happens outside the lock.
 */
public final class Mailbox implements FrameSink {
    private final Object lock = new Object();
    private final ArrayDeque<RecvRequest> posted = new ArrayDeque<>();
    private final UnexpectedQueue unexpected = new UnexpectedQueue();
    private final List<Thread> probers = new ArrayList<>(2);
    /** Frames a matched probe took out of matching and whose receive has not started. */
    private final List<Frame> heldByMatchedProbes = new ArrayList<>(0);

    private volatile boolean closed;
    /** The places of frames their senders withdrew (with arrival tracking only). */
    private final WithdrawnSends withdrawn = new WithdrawnSends();
    /**
     * Frames sent again by a restarted sender whose first copy this rank had withdrawn: they wait here,
     * never matched, for the re-executed cancel to withdraw them again.
     */
    private final List<Frame> withdrawable = new ArrayList<>(0);
    /** Per-channel arrival frontier and early frames; null unless the protocol tracks arrivals. */
    private final ArrivalTracker arrivals;
    /**
     * Per sending world rank, the lowest incarnation whose frames are admitted: a rank heard from in
     * a later incarnation is dead in the earlier ones, and what they still send is dropped. Guarded by
     * the lock.
     */
    private final PeerLongs admittedIncarnation;
    /**
     * The newest recovery line this rank has written or restarted from (0: none). A frame its sender
     * sent before that line that is admitted now was in transit across the line; every frame the rank
     * sends carries it ({@link Frame#line()}). Changed under the lock, in one step with the snapshot;
     * read without it by the rank's sends.
     */
    private volatile int line;
    /** Who keeps the frames in transit across this rank's lines; null: nobody (no checkpoints). */
    private volatile InTransitSink inTransit;
    /** Control messages for the protocol, taken by the rank's progress. */
    private final ConcurrentLinkedQueue<ControlMessage> control = new ConcurrentLinkedQueue<>();
    /** The rank thread, woken when a control message arrives; null outside a job. */
    private volatile Thread owner;
    /**
     * The world rank of source {@code source} of context {@code context}, or -1 if unknown; set by the
     * engine, which knows the communicators. Used only to say whom the rank waits for.
     */
    private java.util.function.IntBinaryOperator sourceWorldOf = (context, source) -> -1;
    /**
     * World ranks a probe looked for and did not find since {@link #acceptsMoreFrom} last asked (a probe
     * of any source, or of a source not resolved, marks them all). Guarded by the lock.
     */
    private final java.util.BitSet probedFor = new java.util.BitSet();

    public Mailbox() {
        this(false, 1);
    }

    public Mailbox(boolean trackArrivals, int worldSize) {
        this.arrivals = trackArrivals ? new ArrivalTracker() : null;
        this.admittedIncarnation = new PeerLongs(worldSize);
    }

    /** The rank's own thread (null outside a job). */
    Thread owner() {
        return owner;
    }

    /** The thread to wake when a control message arrives (the rank's own). */
    void setOwner(Thread thread) {
        this.owner = thread;
    }

    /** The first replayed frame that failed its check, or null. */
    private volatile ReplayMismatch replayMismatch;

    /** The first replayed frame that failed its check (null: none did). */
    public ReplayMismatch replayMismatch() {
        return replayMismatch;
    }

    /**
     * A replayed frame's payload against the digest it was first sent with (outside the lock: it reads
     * the whole payload). One that fails is dropped, and the rank's next runtime call ends it.
     */
    private boolean passesReplayCheck(Frame frame) {
        if (!frame.replayed || frame.digest == 0) {
            return true;
        }
        int actual = MessageDigests.of(frame);
        if (actual == frame.digest) {
            return true;
        }
        if (replayMismatch == null) {
            replayMismatch = new ReplayMismatch(
                    true,
                    frame.context,
                    frame.sourceWorld,
                    frame.destinationWorld,
                    frame.sequence,
                    frame.digest,
                    actual);
        }
        frame.releaseSender();
        return false;
    }

    @Override
    public void onFrame(Frame frame) {
        if (!passesReplayCheck(frame)) {
            return;
        }
        if (arrivals != null) {
            onTrackedFrame(frame);
            return;
        }
        RecvRequest match;
        synchronized (lock) {
            if (isDropped(frame)) {
                return; // the receiving incarnation is gone, or the sending one
            }
            readPiggyback(frame);
            match = matchOrQueue(frame);
        }
        if (match != null) {
            match.deliverOrOffer(frame);
        }
    }

    /** With arrival tracking: admit frames strictly in sequence order per channel. */
    private void onTrackedFrame(Frame frame) {
        RecvRequest match = null;
        boolean inOrder;
        synchronized (lock) {
            if (isDropped(frame)) {
                return;
            }
            readPiggyback(frame);
            inOrder = arrivals.admitNext(frame);
            if (inOrder) {
                match = admitToMatching(frame);
            }
        }
        if (!inOrder) {
            onFrameOutOfOrder(frame); // admission decided again under the lock
        } else if (match != null) {
            match.deliverOrOffer(frame);
        }
    }

    /** A frame that is early, a duplicate, or closes a gap behind which frames are held. */
    private void onFrameOutOfOrder(Frame frame) {
        List<RecvRequest> receives = null;
        List<Frame> frames = null;
        SendRequest release = null;
        Frame held;
        boolean acknowledge = false;
        synchronized (lock) {
            if (isDropped(frame)) {
                return;
            }
            if (arrivals.isDuplicate(frame)) {
                if (frame.withdrawn) {
                    // the place of a cancelled send, replayed again: nothing to do
                } else if (withdrawn.contains(frame.channelKey(), frame.sequence)) {
                    keepWithdrawable(frame);
                } else if (frame.sender == null && frame.synchronous) {
                    // A restarted sender in another process waits for the match of a message this rank
                    // has: the first copy's match tells it, or, if that copy was matched already, this.
                    acknowledge = !queuedUnmatched(frame);
                } else {
                    release = adoptDuplicate(frame);
                }
            } else if ((held = arrivals.heldCopyOf(frame)) != null) {
                release = adoptHeld(held, frame);
            } else {
                List<Frame> admitted = arrivals.admit(frame);
                for (Frame f : admitted) {
                    RecvRequest r = admitToMatching(f);
                    if (r != null) {
                        if (receives == null) {
                            receives = new ArrayList<>(admitted.size());
                            frames = new ArrayList<>(admitted.size());
                        }
                        receives.add(r);
                        frames.add(f);
                    }
                }
            }
        }
        if (release != null) {
            release.completeSent();
        }
        if (acknowledge) {
            matchAcknowledger.accept(frame);
        }
        if (receives != null) {
            for (int i = 0; i < receives.size(); i++) {
                receives.get(i).deliverOrOffer(frames.get(i));
            }
        }
    }

    /**
     * Under the lock: an admitted frame enters matching, unless it is the place of a withdrawn send (a
     * replayed cancellation, or a frame whose cancel came first), which is recorded and goes no further.
     */
    private RecvRequest admitToMatching(Frame frame) {
        if (frame.line < line) {
            keepInTransit(frame);
        }
        if (frame.withdrawn || withdrawn.contains(frame.channelKey(), frame.sequence)) {
            withdrawn.add(frame.channelKey(), frame.sequence);
            return null;
        }
        return matchOrQueue(frame);
    }

    /**
     * Under the lock: the frame was sent before its sender's line {@code frame.line + 1} and arrives
     * after this rank wrote that line: a copy goes with the line. The only cost on the path of frames
     * that cross no line is the comparison in {@link #admitToMatching}.
     */
    private void keepInTransit(Frame frame) {
        InTransitSink sink = inTransit;
        if (sink != null) {
            sink.crossed(frame.inTransitCopy(), line);
        }
    }

    /** The newest recovery line this rank has written or restarted from (0: none). */
    int line() {
        return line;
    }

    /** Who keeps the frames in transit across this rank's recovery lines. */
    public void keepInTransitWith(InTransitSink sink) {
        this.inTransit = sink;
    }

    /**
     * Under the lock: a restarted sender sent again a frame this rank had withdrawn. The first copy was
     * cancelled before any receive took it, so this one is not matched either: it waits, its send not
     * complete, for the re-executed cancel (a synchronous send elsewhere is not acknowledged).
     */
    private void keepWithdrawable(Frame frame) {
        if (frame.sender != null) {
            frame.pull = false; // its sender must not complete it by detaching: only the cancel ends it
            frame.sender.setPending(frame);
        } else {
            frame.materialize(); // its payload was only lent for the delivery
        }
        withdrawable.add(frame);
    }

    /**
     * Under the lock: a frame this rank already has, sent again by a restarted sender. Its sender is
     * returned, to be let go at once (null: nobody waits), unless the send is synchronous and the first copy still waits
     * unmatched here: a synchronous send completes only once its receive has started, so the new
     * sender then waits on the first copy, as the crashed one did.
     */
    private SendRequest adoptDuplicate(Frame frame) {
        SendRequest sender = frame.sender;
        if (sender == null || !frame.synchronous) {
            return sender;
        }
        Frame first = unexpected.find(frame.sourceWorld, frame.context, frame.sequence);
        return first == null ? sender : adoptBy(first, frame);
    }

    /**
     * Under the lock: the first copy {@code first} of {@code frame}'s place, still waiting here, takes
     * on its sender. Returned, to be let go at once (null: nobody waits), unless the send is synchronous:
     * it then waits on the first copy, as the crashed sender did, until that copy's receive starts.
     */
    private SendRequest adoptBy(Frame first, Frame frame) {
        SendRequest sender = frame.sender;
        if (sender == null || !frame.synchronous) {
            return sender;
        }
        first.sender = sender;
        sender.setPending(first);
        return null;
    }

    /**
     * Under the lock: a restarted sender sent again a frame whose first copy waits here beyond a gap.
     * The first copy stays, as a duplicate's does; the new sender is adopted by it as {@link
     * #adoptDuplicate} has a queued copy adopt it. A synchronous sender in another process hears of
     * the match as the first copy's did: by the place, which both copies share.
     */
    private SendRequest adoptHeld(Frame held, Frame frame) {
        if (frame.sender != null && frame.synchronous) {
            held.pull = false; // its payload is the held copy's, not the new sender's to lend
        }
        return adoptBy(held, frame);
    }

    /** Under the lock: whether a copy of the frame waits unmatched in the unexpected queue. */
    private boolean queuedUnmatched(Frame frame) {
        return unexpected.find(frame.sourceWorld, frame.context, frame.sequence) != null;
    }

    /** Who tells a sender in another process that its synchronous frame was matched. */
    private java.util.function.Consumer<Frame> matchAcknowledger = f -> {};

    void acknowledgeMatchesWith(java.util.function.Consumer<Frame> acknowledger) {
        this.matchAcknowledger = acknowledger;
    }

    /** Under the lock: what the frame carries for this rank's protocol, read once, when it arrives. */
    private void readPiggyback(Frame frame) {
        if (frame.piggyback != null && piggybackReader != null) {
            piggybackReader.accept(frame);
        }
    }

    /** Who reads the protocol words frames carry (null: nobody, the words are ignored). */
    private java.util.function.Consumer<Frame> piggybackReader;

    void readPiggybacksWith(java.util.function.Consumer<Frame> reader) {
        this.piggybackReader = reader;
    }

    /**
     * Under the lock: whether the frame is dropped, because this mailbox is closed (its rank crashed
     * or finished) or because it comes from an incarnation of its sender known to be dead. A dropped
     * frame's sender is let go, as {@link #close} lets go of the senders of the frames it discards: a
     * synchronous send that reaches a crashed receiver completes as sent (its message reaches the
     * next incarnation by replay), and does not wait forever for a match that cannot come.
     */
    private boolean isDropped(Frame frame) {
        if (closed) {
            frame.releaseSender();
            return true;
        }
        return isFenced(frame);
    }

    /** Under the lock: whether the frame comes from an incarnation of its sender known to be dead. */
    private boolean isFenced(Frame frame) {
        int from = frame.sourceWorld;
        if (from >= 0 && from < admittedIncarnation.size() && frame.incarnation < admittedIncarnation.get(from)) {
            frame.releaseSender();
            return true;
        }
        return false;
    }

    /**
     * Rank {@code world} is alive in {@code incarnation}: frames of its earlier incarnations are
     * dropped from now on. Frames that arrived before stay: they were sent before the crash.
     */
    public void fence(int world, int incarnation) {
        synchronized (lock) {
            if (world >= 0 && world < admittedIncarnation.size()) {
                admittedIncarnation.raise(world, incarnation);
            }
        }
    }

    /** A synchronous send to another process, waiting for its receiver's match notice. */
    private record AwaitedMatch(int destinationWorld, int context, long sequence) {}

    private final java.util.concurrent.ConcurrentHashMap<AwaitedMatch, SendRequest> awaitingMatch =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Registers a synchronous send whose receiver is in another process: it completes when that
     * receiver's {@link MatchNotice} arrives, or when the receiver restarts (a new incarnation's
     * notice: the message reaches it again by replay or re-execution, as a crashed receiver's queue
     * releases its waiting senders).
     */
    void awaitMatch(int destinationWorld, int context, long sequence, SendRequest sender) {
        awaitingMatch.put(new AwaitedMatch(destinationWorld, context, sequence), sender);
    }

    /**
     * Takes a registration back (the frame was not sent after all, or its send is let go): whether it
     * was still there, so that only one of this and the match notice completes the send.
     */
    boolean stopAwaitingMatch(int destinationWorld, int context, long sequence) {
        return awaitingMatch.remove(new AwaitedMatch(destinationWorld, context, sequence)) != null;
    }

    @Override
    public void onControl(ControlMessage message) {
        fence(message.sourceWorld(), message.incarnation());
        switch (message) {
            case MatchNotice m -> {
                SendRequest s = awaitingMatch.remove(new AwaitedMatch(m.sourceWorld(), m.context(), m.sequence()));
                if (s != null) {
                    s.completeSent();
                }
            }
            case SendCancellation.Request r -> {
                boolean done = !closed && withdrawRemote(r.sourceWorld(), r.context(), r.sequence());
                cancelAnswerer.accept(r, done);
            }
            case SendCancellation.Answer a -> onCancelAnswer(a);
            case SendCancellation.Withdrawn w -> {
                if (arrivals != null) {
                    onFrame(Frame.withdrawnPlace(w.context(), w.sourceWorld(), 0, w.sequence(), w.incarnation()));
                }
            }
            case IncarnationNotice n -> {
                // A notice fences; a restarted receiver also lets go of the synchronous sends waiting for it.
                if (n.incarnation() > 0) {
                    awaitingMatch.entrySet().removeIf(e -> {
                        if (e.getKey().destinationWorld() == n.sourceWorld()) {
                            e.getValue().completeSent();
                            return true;
                        }
                        return false;
                    });
                }
            }
            default -> {
                if (!closed) {
                    control.add(message); // the protocol's
                    Thread t = owner;
                    if (t != null) {
                        LockSupport.unpark(t);
                    }
                }
            }
        }
    }

    /**
     * The receiver of a synchronous send this rank cancelled answered. Withdrawn: the send completes
     * cancelled, unless the answer comes from an incarnation of the receiver that has since been
     * replaced (it may have withdrawn the frame and then crashed; the message then reaches its new
     * incarnation by replay or re-execution, and the send completes as sent). Not withdrawn: it was
     * matched, and its match notice completes the send.
     */
    private void onCancelAnswer(SendCancellation.Answer a) {
        if (!a.withdrawn()) {
            return;
        }
        synchronized (lock) {
            int from = a.sourceWorld();
            if (from >= 0 && from < admittedIncarnation.size() && a.incarnation() < admittedIncarnation.get(from)) {
                return;
            }
        }
        SendRequest s = awaitingMatch.remove(new AwaitedMatch(a.sourceWorld(), a.context(), a.sequence()));
        if (s != null) {
            s.completeWithdrawn(a.context(), a.sequence());
        }
    }

    /** Who answers a sender in another process that cancels a send (see {@link SendCancellation}). */
    private java.util.function.BiConsumer<SendCancellation.Request, Boolean> cancelAnswerer = (r, done) -> {};

    void answerCancellationsWith(java.util.function.BiConsumer<SendCancellation.Request, Boolean> answerer) {
        this.cancelAnswerer = answerer;
    }

    /** Whether a control message waits for the protocol. */
    boolean hasControl() {
        return !control.isEmpty();
    }

    /** The next control message for the protocol, or null. */
    ControlMessage pollControl() {
        return control.poll();
    }

    /** Under the lock: the oldest posted receive the frame matches (removed), or null after queueing it. */
    private RecvRequest matchOrQueue(Frame frame) {
        for (Iterator<RecvRequest> it = posted.iterator(); it.hasNext(); ) {
            RecvRequest r = it.next();
            if (r.matches(frame)) {
                it.remove();
                return r;
            }
        }
        if (frame.sender == null) {
            frame.materialize();
        } else {
            // Rendezvous and synchronous frames wait for their receive. A pulled frame waits too, still
            // borrowed, while its sender copies it into its log; the sender then detaches it (a private
            // copy) unless a receive has taken it meanwhile, which then copies from the sender's buffer.
            frame.sender.setPending(frame);
        }
        unexpected.add(frame);
        for (Thread t : probers) {
            LockSupport.unpark(t);
        }
        return null;
    }

    /**
     * The digests kept of the frames admitted from {@code sourceWorld}, as words (see {@link
     * io.rewind.engine.ReceivedDigests}): per context, the context, the first sequence number, the
     * count, the digests. Empty if untracked.
     */
    public long[] digestsFrom(int sourceWorld) {
        if (arrivals == null) {
            return new long[0];
        }
        synchronized (lock) {
            return arrivals.digestsFrom(sourceWorld);
        }
    }

    /** By context, the highest sequence number that arrived from {@code sourceWorld} (empty if untracked). */
    public Map<Integer, Long> arrivedFrom(int sourceWorld) {
        if (arrivals == null) {
            return Map.of();
        }
        synchronized (lock) {
            return arrivals.frontiersFrom(sourceWorld);
        }
    }

    /**
     * A consistent copy of the queues for a checkpoint: arrival frontiers and private copies of the
     * frames that arrived but were not received yet (in arrival order).
     */
    public MailboxSnapshot snapshot() {
        synchronized (lock) {
            return snapshotHeld();
        }
    }

    /**
     * A snapshot for recovery line {@code newLine}, which the rank writes now: from this moment on a
     * frame sent before its sender's line {@code newLine} is in transit across it (taken in one step with
     * the snapshot, so each frame is either in the snapshot or kept as in transit).
     */
    public MailboxSnapshot snapshotForLine(int newLine) {
        synchronized (lock) {
            MailboxSnapshot s = snapshotHeld();
            line = newLine;
            return s;
        }
    }

    /** Under the lock: see {@link #snapshot}. */
    private MailboxSnapshot snapshotHeld() {
        if (arrivals == null) {
            throw new IllegalStateException("arrivals are not tracked");
        }
        if (!posted.isEmpty()) {
            throw RewindException.of(
                    ErrorClass.PENDING,
                    "checkpoint with %d receive(s) still posted: a "
                            + "checkpoint point must be a place where the rank has no request outstanding",
                    posted.size());
        }
        if (!heldByMatchedProbes.isEmpty()) {
            throw RewindException.of(
                    ErrorClass.PENDING,
                    "checkpoint with %d message(s) taken by a matched probe and not received yet: a "
                            + "checkpoint point must be a place where the rank holds no message",
                    heldByMatchedProbes.size());
        }
        List<Frame> copies = new ArrayList<>(unexpected.size());
        for (Frame f : unexpected.inArrivalOrder()) {
            f.awaitStable();
            copies.add(f.copy());
        }
        return new MailboxSnapshot(arrivals.frontiers(), copies, arrivals.heldCopies(), withdrawn.toPairs());
    }

    /**
     * Replaces the queues by the content of line {@code restoredLine}'s snapshot, in which the frames in
     * transit across the line are already (a restarted rank restoring its checkpoint).
     */
    public void restore(MailboxSnapshot snapshot, int restoredLine) {
        restore(snapshot);
        synchronized (lock) {
            line = restoredLine;
        }
    }

    /** Replaces the queues by a snapshot's content (a restarted rank restoring its checkpoint). */
    public void restore(MailboxSnapshot snapshot) {
        List<SendRequest> waiting;
        synchronized (lock) {
            // Anything queued before the restore is superseded by the snapshot (and by replay from the
            // senders' logs); senders still waiting on such a frame are let go.
            waiting = dropUnexpected();
            arrivals.reset(snapshot.frontiers());
            withdrawn.reset(snapshot.withdrawn());
            for (Frame f : snapshot.unexpected()) {
                unexpected.add(f);
            }
        }
        for (SendRequest w : waiting) {
            w.completeSent();
        }
        // Frames held beyond a gap at checkpoint time go through admission again.
        for (Frame f : snapshot.held()) {
            onFrame(f);
        }
    }

    /** Matches the receive against the unexpected queue, or posts it. */
    void post(RecvRequest recv) {
        Frame match = null;
        synchronized (lock) {
            match = unexpected.removeFirst(
                    recv.context, recv.source, recv.tag, recv.patternId, recv.iterationId, recv.requiredSequence);
            if (match != null) {
                match.claimForReceiver(); // fails only if the sender is detaching it: then wait below
            } else {
                posted.addLast(recv);
            }
        }
        if (match != null) {
            match.awaitStable();
            recv.deliver(match);
        }
    }

    /**
     * The oldest unexpected frame the envelope matches, without removing it; null if none. {@code
     * patternStamp} is the probe's pattern and iteration ids, packed as by {@link PatternState#pack}.
     */
    Frame peek(int context, int source, int tag, long patternStamp) {
        synchronized (lock) {
            Frame f = firstMatching(context, source, tag, patternStamp);
            if (f == null) {
                noteMiss(context, source);
            }
            return f;
        }
    }

    /** Under the lock: the oldest unexpected frame the envelope matches, or null. */
    private Frame firstMatching(int context, int source, int tag, long patternStamp) {
        return unexpected.first(
                context, source, tag, PatternState.patternOf(patternStamp), PatternState.iterationOf(patternStamp), -1);
    }

    /**
     * Takes the oldest unexpected frame the envelope matches (with {@code requiredSequence} >= 0, only
     * that frame) out of matching for a matched probe, or returns null. The frame is held until {@link
     * #releaseMatched} (its receive); meanwhile no checkpoint may be taken and a closing mailbox lets
     * its sender go.
     */
    Frame takeMatched(int context, int source, int tag, long patternStamp, long requiredSequence) {
        Frame match = null;
        synchronized (lock) {
            match = removeMatching(context, source, tag, patternStamp, requiredSequence);
            if (match == null) {
                noteMiss(context, source);
            }
        }
        if (match != null) {
            match.awaitStable();
        }
        return match;
    }

    /** Blocks until {@link #takeMatched} finds a frame, and returns it. */
    Frame awaitMatched(RankEngine engine, int context, int source, int tag, long patternStamp, long requiredSequence) {
        Frame match = awaitUnexpected(
                engine, context, source, () -> removeMatching(context, source, tag, patternStamp, requiredSequence));
        match.awaitStable();
        return match;
    }

    /** Under the lock: removes the matching frame from the unexpected queue into the held ones. */
    private Frame removeMatching(int context, int source, int tag, long patternStamp, long requiredSequence) {
        Frame f = unexpected.removeFirst(
                context,
                source,
                tag,
                PatternState.patternOf(patternStamp),
                PatternState.iterationOf(patternStamp),
                requiredSequence);
        if (f != null) {
            f.claimForReceiver(); // fails only if the sender is detaching it: the caller then waits
            heldByMatchedProbes.add(f);
        }
        return f;
    }

    /** The matched frame is being received: it is no longer held. */
    void releaseMatched(Frame frame) {
        synchronized (lock) {
            heldByMatchedProbes.remove(frame);
        }
    }

    /** Blocks until a frame matching the envelope is in the unexpected queue. */
    Frame awaitProbe(RankEngine engine, int context, int source, int tag, long patternStamp) {
        return awaitUnexpected(engine, context, source, () -> firstMatching(context, source, tag, patternStamp));
    }

    /**
     * Blocks until {@code find}, run under the lock, returns a frame; between tries the caller is
     * registered as a prober, woken when a frame is queued, and checks that the rank is still alive.
     */
    private Frame awaitUnexpected(RankEngine engine, int context, int source, java.util.function.Supplier<Frame> find) {
        Thread me = Thread.currentThread();
        boolean parked = false;
        try {
            while (true) {
                synchronized (lock) {
                    Frame f = find.get();
                    if (f != null) {
                        probers.remove(me);
                        return f;
                    }
                    noteMiss(context, source);
                    if (!probers.contains(me)) {
                        probers.add(me);
                    }
                }
                try {
                    engine.checkAlive();
                    engine.peerFailures().checkProbe(context, source);
                } catch (RuntimeException | Error e) {
                    synchronized (lock) {
                        probers.remove(me);
                    }
                    throw e;
                }
                if (!parked) {
                    parked = true;
                    engine.enterBlockingWait();
                    engine.peerFailures().waiting(me);
                }
                ParkedWaits.park(this);
            }
        } finally {
            if (parked) {
                engine.peerFailures().doneWaiting(me);
                engine.leaveBlockingWait();
            }
        }
    }

    /** Under the lock: a probe of {@code source} on {@code context} found nothing. */
    private void noteMiss(int context, int source) {
        int world = source == Constants.ANY_SOURCE ? -1 : sourceWorldOf.applyAsInt(context, source);
        if (world >= 0) {
            probedFor.set(world);
        } else {
            probedFor.set(0, admittedIncarnation.size());
        }
    }

    /** How to tell the world rank of a communicator's source (see {@link #acceptsMoreFrom}). */
    void resolveSourcesWith(java.util.function.IntBinaryOperator sourceWorldOf) {
        this.sourceWorldOf = sourceWorldOf;
    }

    /**
     * Whether world rank {@code sourceWorld} may send this rank more of a paced stream (a replay):
     * fewer than {@code frameLimit} of its frames and fewer than {@code byteLimit} of its payload
     * bytes wait for their receive, or the rank waits for a message that rank may send (a posted
     * receive accepts it, by its source or any source, or a probe looked for it and found nothing
     * since the last call; that mark is taken by this call). One lock acquisition for the whole
     * answer: a replaying peer asks it for every pending batch at every progress call.
     */
    public boolean acceptsMoreFrom(int sourceWorld, int frameLimit, long byteLimit) {
        synchronized (lock) {
            boolean probed = probedFor.get(sourceWorld);
            probedFor.clear(sourceWorld);
            return probed
                    || (unexpected.framesFrom(sourceWorld) < frameLimit
                            && unexpected.bytesFrom(sourceWorld) < byteLimit)
                    || postedAccepts(sourceWorld);
        }
    }

    /** Under the lock: whether a posted receive accepts a message from world rank {@code sourceWorld}. */
    private boolean postedAccepts(int sourceWorld) {
        for (RecvRequest r : posted) {
            if (r.source == Constants.ANY_SOURCE) {
                return true;
            }
            int world = sourceWorldOf.applyAsInt(r.context, r.source);
            if (world < 0 || world == sourceWorld) {
                return true;
            }
        }
        return false;
    }

    /** The most frames that waited for their receive at once in this mailbox. */
    public int peakUnexpectedCount() {
        synchronized (lock) {
            return unexpected.peakSize();
        }
    }

    /** The most payload bytes that waited for their receive at once in this mailbox. */
    public long peakUnexpectedBytes() {
        synchronized (lock) {
            return unexpected.peakBytes();
        }
    }

    boolean removePosted(RecvRequest recv) {
        synchronized (lock) {
            return posted.remove(recv);
        }
    }

    @Override
    public boolean withdraw(Frame frame) {
        synchronized (lock) {
            if (withdrawable.remove(frame)) {
                return true;
            }
            if (arrivals != null && arrivals.holds(frame)) {
                // Early, behind a gap (replay still coming): when admitted, its place is skipped.
                withdrawn.add(frame.channelKey(), frame.sequence);
                return true;
            }
            // A frame its sender is detaching stays: the send completes by itself.
            if (!unexpected.contains(frame) || (frame.sender != null && !frame.claimForReceiver())) {
                return false;
            }
            unexpected.remove(frame);
            recordWithdrawn(frame.channelKey(), frame.sequence);
            return true;
        }
    }

    /**
     * A sender in another process cancels its frame {@code sequence} on {@code context}: withdrawn if no
     * receive or matched probe took it. A frame that has not arrived yet (with arrival tracking) is
     * withdrawn in advance: when it comes, it is not matched.
     */
    private boolean withdrawRemote(int sourceWorld, int context, long sequence) {
        synchronized (lock) {
            for (Iterator<Frame> it = withdrawable.iterator(); it.hasNext(); ) {
                Frame f = it.next();
                if (f.is(sourceWorld, context, sequence)) {
                    it.remove();
                    return true;
                }
            }
            Frame queued = unexpected.find(sourceWorld, context, sequence);
            if (queued != null) {
                unexpected.remove(queued);
                recordWithdrawn(queued.channelKey(), sequence);
                return true;
            }
            long key = ChannelKey.of(context, sourceWorld);
            if (arrivals != null && sequence > arrivals.arrivedUpTo(key)) {
                withdrawn.add(key, sequence);
                return true;
            }
            return false;
        }
    }

    /** Under the lock: with arrival tracking, the place stays withdrawn (see {@link WithdrawnSends}). */
    private void recordWithdrawn(long channelKey, long sequence) {
        if (arrivals != null) {
            withdrawn.add(channelKey, sequence);
        }
    }

    /**
     * Stops accepting frames (the owner crashed or finished); returns how many were discarded.
     * Senders still waiting for a discarded frame to be matched (synchronous sends) are released:
     * under a logging protocol the message is in their log and reaches the restarted rank by replay;
     * otherwise the job is being aborted or rolled back anyway.
     */
    public int close() {
        List<SendRequest> waiting;
        int n;
        synchronized (lock) {
            closed = true;
            n = unexpected.size();
            waiting = dropUnexpected();
            posted.clear();
        }
        for (SendRequest s : waiting) {
            s.completeSent();
        }
        return n;
    }

    /**
     * Under the lock: empties the unexpected queue and returns the senders still waiting on a
     * discarded frame, to be let go outside the lock (a sender detaching its frame completes by
     * itself).
     */
    private List<SendRequest> dropUnexpected() {
        List<SendRequest> waiting = new ArrayList<>();
        for (Frame f : unexpected.inArrivalOrder()) {
            if (f.sender != null && f.claimForReceiver()) {
                waiting.add(f.sender);
            }
        }
        for (Frame f : heldByMatchedProbes) {
            if (f.sender != null) {
                waiting.add(f.sender);
            }
        }
        for (Frame f : withdrawable) {
            if (f.sender != null) {
                waiting.add(f.sender);
            }
        }
        if (arrivals != null) {
            arrivals.addHeldSenders(waiting); // held beyond a gap: dropped with the rest
        }
        unexpected.clear();
        heldByMatchedProbes.clear();
        withdrawable.clear();
        return waiting;
    }

    /**
     * The envelopes waiting to match, for a report of where a rank is stuck: each posted receive
     * (context, source, tag, sequence required) and each queued frame (context, source, tag, sequence),
     * at most {@code max} of each.
     */
    public String describeQueues(int max) {
        StringBuilder b = new StringBuilder();
        synchronized (lock) {
            appendAtMost(
                    b,
                    posted,
                    max,
                    r -> " posted(ctx " + r.context + ", src " + r.source + ", tag " + r.tag
                            + (r.requiredSequence >= 0 ? ", seq " + r.requiredSequence : "") + ")");
            appendAtMost(
                    b,
                    unexpected.inArrivalOrder(),
                    max,
                    f -> " queued(ctx " + f.context + ", src " + f.source + ", tag " + f.tag + ", seq " + f.sequence
                            + ")");
        }
        return b.toString();
    }

    private static <T> void appendAtMost(
            StringBuilder b, Iterable<T> items, int max, java.util.function.Function<T, String> describe) {
        int n = 0;
        for (T item : items) {
            if (n++ == max) {
                b.append(" ...");
                return;
            }
            b.append(describe.apply(item));
        }
    }

    public int unexpectedCount() {
        synchronized (lock) {
            return unexpected.size();
        }
    }

    public int postedCount() {
        synchronized (lock) {
            return posted.size();
        }
    }

    public long unexpectedBytes() {
        synchronized (lock) {
            return unexpected.bytes();
        }
    }
}
