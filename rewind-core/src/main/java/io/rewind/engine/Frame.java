package io.rewind.engine;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One message as it travels from a sender to a receiver's matching queues: its identity and the
 * payload. The identity is the same everywhere (in the engine, the logs and, later, on the wire):
 * matching context, source (communicator rank and world rank), destination world rank, tag,
 * per-channel sequence number, the sender's incarnation (so a receiver can fence what a dead
 * incarnation still sends), and a pattern id and an iteration id for protocols that identify messages
 * by their place in a communication pattern (0 when unused).
 *
 * <p>The payload is either owned (a private copy, for eager messages that arrive before their
 * receive is posted) or borrowed (a view of the sender's buffer, for rendezvous and synchronous
 * sends; the sender's request completes only when the receiver has copied out of it, and only
 * transports that share memory may borrow). A frame with no sending request in this process (an eager
 * send in this JVM, anything a transport received) lends its payload for the delivery only: a receive
 * already posted copies it at once, and a queue that keeps the frame makes it a private copy.
 *
 * <p>Each field has one writer. The identity (up to the pattern, iteration and line) is written by
 * whoever builds the frame, before anyone else sees it: the engine for a frame it sends, a transport
 * or a codec for a frame it rebuilds, a sender's protocol for a replay copy ({@link #rebuilt}). What
 * the sending rank's protocol adds (the piggyback, the tee, its state, the staged payload) is written
 * by that protocol only, before the hand-off, and read by the engine and transports; the engine owns
 * the payload's place and the claim between sender and receiver.
 */
public final class Frame {
    final int context;
    final int source;
    final int sourceWorld;
    final int destinationWorld;
    final int tag;
    final long sequence;
    final int incarnation;
    int patternId;
    int iterationId;
    /**
     * The newest recovery line its sender had written when it sent the frame (0: none). A receiver that
     * has written a later line when the frame arrives holds a message in transit across that line: it
     * keeps a copy with the line ({@link InTransitSink}), since neither side's state at the line has it.
     */
    int line;
    /**
     * What the sending rank's protocol carries on this frame besides the payload (determinants, for a
     * protocol that piggybacks them), read by the receiving rank's protocol when the frame arrives; null for none.
     */
    long[] piggyback;
    /**
     * The digest of the message as its sender first sent it ({@link MessageDigests}; 0: none): set by
     * the sending protocol before the hand-off for a logged message, or by whoever rebuilds a frame
     * that carried one. Its receiver keeps it for replay verification.
     */
    int digest;
    /**
     * A replay from its sender's log (or carried as one on the wire): its receiver checks the payload
     * against {@link #digest} before anything matches it.
     */
    boolean replayed;

    final long lengthBytes;
    MemorySegment data;
    long dataOffset;
    /**
     * Non-null when the sender waits for this frame to be consumed (rendezvous, synchronous and
     * pulled sends); cleared when a pulled frame becomes a private copy, since nobody waits for it
     * then.
     */
    SendRequest sender;
    /**
     * A logged send the receiver copies itself when its receive is already posted, while the sender
     * copies the payload into its log: the two copies of a logged message then run on two cores. If
     * no receive is posted, the frame waits in the receiver's queue still borrowed, while its sender
     * logs it: a receive that comes meanwhile copies it once, from the sender's buffer; otherwise the
     * sender replaces it by a private copy ({@link #detach}) and completes. Shorter eager
     * sends become private copies at once: borrowing them would make each send wait for its receiver.
     */
    boolean pull;
    /** A synchronous send: it completes only once a receive has matched the frame. */
    boolean synchronous;
    /**
     * The place of a cancelled send in its channel's numbering ({@link SendCancellation.Withdrawn}):
     * admitted in order, never matched, no payload.
     */
    boolean withdrawn;
    /**
     * Who owns a borrowed frame waiting in a queue: nobody yet ({@link #QUEUED}), the receiving side
     * (a receive took it, or it was withdrawn or dropped), or its sender, which replaces the payload
     * by a private copy ({@link #DETACHING}, then {@link #DETACHED}). Claimed by compare-and-set, so
     * exactly one side copies out of the sender's buffer after the frame was queued.
     */
    @SuppressWarnings("unused") // accessed through CLAIM
    private volatile int claim;

    static final int QUEUED = 0;
    static final int TAKEN = 1;
    static final int DETACHING = 2;
    static final int DETACHED = 3;

    private static final VarHandle CLAIM;

    static {
        try {
            CLAIM = MethodHandles.lookup().findVarHandle(Frame.class, "claim", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /**
     * Non-null when the payload must move through the sender's log (pipelined copy). The sending
     * protocol's ({@link #setTee}); the engine only reads it, and records in {@link #teeSpent} that the
     * payload went through it.
     */
    PayloadTee tee;
    /** The engine's: the payload went through the tee into a private copy; later copies do not use it. */
    private boolean teeSpent;
    /** Where the frame stands in its receiver's arrival order while it waits unmatched ({@link UnexpectedQueue}). */
    long arrival;
    /** Protocol state attached by the sending protocol (its log entry), or null; only that protocol writes it. */
    Object protocolState;
    /** The payload as the sender's protocol already staged it (its log entry), or null; never copied with the frame. */
    private StagedPayload staged;

    public Frame(
            int context,
            int source,
            int sourceWorld,
            int destinationWorld,
            int tag,
            long sequence,
            int incarnation,
            MemorySegment data,
            long dataOffset,
            long lengthBytes,
            SendRequest sender) {
        this.context = context;
        this.source = source;
        this.sourceWorld = sourceWorld;
        this.destinationWorld = destinationWorld;
        this.tag = tag;
        this.sequence = sequence;
        this.incarnation = incarnation;
        this.data = data;
        this.dataOffset = dataOffset;
        this.lengthBytes = lengthBytes;
        this.sender = sender;
    }

    public int context() {
        return context;
    }

    public int source() {
        return source;
    }

    public int sourceWorld() {
        return sourceWorld;
    }

    public int destinationWorld() {
        return destinationWorld;
    }

    public int tag() {
        return tag;
    }

    /** The incarnation of the sender that sent this frame (0 for its first). */
    public int incarnation() {
        return incarnation;
    }

    public int patternId() {
        return patternId;
    }

    public int iterationId() {
        return iterationId;
    }

    /** The newest recovery line the sender had written when it sent the frame (0: none). */
    public int line() {
        return line;
    }

    /**
     * Sets {@link #line()}: by whoever builds the frame, before anyone else sees it (the engine when it
     * sends one, a transport or codec that rebuilds one); a protocol's replay copy gets it at
     * construction ({@link #rebuilt}).
     */
    public void setLine(int line) {
        this.line = line;
    }

    /** Places the frame in a communication pattern: by whoever builds the frame, as {@link #setLine}. */
    public void setPattern(int patternId, int iterationId) {
        this.patternId = patternId;
        this.iterationId = iterationId;
    }

    /** The digest of the message as first sent ({@link MessageDigests}), or 0 for none. */
    public int digest() {
        return digest;
    }

    /**
     * Sets {@link #digest()}: the sending protocol, before the hand-off, or whoever rebuilds a frame
     * from the wire, before anyone else sees it.
     */
    public void setDigest(int digest) {
        this.digest = digest;
    }

    /** Whether the frame is a replay from its sender's log (its payload is checked against its digest). */
    public boolean isReplayed() {
        return replayed;
    }

    /** Marks a frame as a replay: by whoever builds it (the sender's protocol, or a codec), before anyone sees it. */
    public void markReplayed() {
        this.replayed = true;
    }

    /** The protocol words carried on this frame, or null (see {@link FaultTolerance#onPiggyback}). */
    public long[] piggyback() {
        return piggyback;
    }

    /**
     * Carries {@code words} on this frame (null: nothing): the sending rank's protocol's, set before the
     * frame is handed off. A frame rebuilt from the wire gets its words at construction ({@link
     * #rebuilt}) or from its transport, which builds it.
     */
    public void setPiggyback(long[] words) {
        this.piggyback = words;
    }

    /** Whether this is the message numbered {@code sequence} by {@code sourceWorld} on {@code context}. */
    boolean is(int sourceWorld, int context, long sequence) {
        return this.sequence == sequence && this.context == context && this.sourceWorld == sourceWorld;
    }

    public long sequence() {
        return sequence;
    }

    public long lengthBytes() {
        return lengthBytes;
    }

    /** Replaces a borrowed payload by a private copy, so the sender may reuse its buffer at once. */
    void materialize() {
        if (lengthBytes == 0) {
            data = MemorySegment.NULL;
            dataOffset = 0;
            return;
        }
        byte[] copy = new byte[Math.toIntExact(lengthBytes)];
        MemorySegment owned = MemorySegment.ofArray(copy);
        copyPayload(owned, 0, lengthBytes);
        data = owned;
        dataOffset = 0;
        teeSpent = true;
    }

    /** Copies the first {@code n} payload bytes to {@code target}, through the tee if there is one. */
    void copyPayload(MemorySegment target, long targetOffset, long n) {
        PayloadTee t = teeSpent ? null : tee;
        if (t != null && n == lengthBytes) {
            t.transfer(data, dataOffset, target, targetOffset, n);
        } else if (n > 0) {
            MemorySegment.copy(data, dataOffset, target, targetOffset, n);
        }
    }

    /**
     * Copies the whole payload to {@code target}, through the sender's log tee if the frame has one: a
     * transport that copies the payload at send time (into a socket's record) calls this, so the log
     * copy rides on that copy while the data is in cache.
     */
    public void copyPayloadTo(MemorySegment target, long targetOffset) {
        copyPayload(target, targetOffset, lengthBytes);
    }

    /**
     * The frame will never be matched (its receiver is gone): a sender waiting for the match is let go.
     * Under a logging protocol the message reaches the receiver's next incarnation by replay.
     */
    public void releaseSender() {
        if (sender != null) {
            sender.completeSent();
        }
    }

    /**
     * Whether the receiver, not the sender, copies this frame's payload when its receive is posted
     * (the sender meanwhile copies it into its log; it must then not set a tee).
     */
    public boolean isPulled() {
        return pull;
    }

    /**
     * Marks a frame that arrived from another process as synchronous: its sender waits for a {@link
     * MatchNotice}, sent when a receive matches it.
     */
    public void markSynchronous() {
        this.synchronous = true;
    }

    /** Whether the sender waits for a receive to match this frame (a synchronous send). */
    public boolean isSynchronous() {
        return synchronous;
    }

    /** Queued unmatched: a pulled frame becomes a private copy and its sender is let go. */
    void materializeAndReleaseSender() {
        materialize();
        SendRequest s = sender;
        sender = null;
        if (s != null) {
            s.completeSent();
        }
    }

    /** The receiving side takes the frame; false if its sender is detaching (or detached) it. */
    boolean claimForReceiver() {
        return CLAIM.compareAndSet(this, QUEUED, TAKEN);
    }

    /**
     * Called by the sender of a pulled frame still waiting unmatched in a queue, once its log copy is
     * done: replaces the borrowed payload by a private copy so the send may complete. Runs without the
     * queue's lock; a receive that matches the frame meanwhile waits for the copy ({@link
     * #awaitStable()}).
     *
     * @return false if a receive took the frame first: it copies from the sender's buffer and
     *     completes the send itself
     */
    boolean detach() {
        if (!CLAIM.compareAndSet(this, QUEUED, DETACHING)) {
            return false;
        }
        materialize();
        sender = null;
        CLAIM.setVolatile(this, DETACHED); // publishes the private copy to a receive waiting for it
        return true;
    }

    /**
     * Waits while the sender is replacing the payload by a private copy (one memory copy, which that
     * thread makes without taking any lock), so the payload fields are stable when this returns.
     */
    void awaitStable() {
        while ((int) CLAIM.getVolatile(this) == DETACHING) {
            Thread.onSpinWait();
        }
    }

    public void setTee(PayloadTee tee) {
        this.tee = tee;
    }

    public Object protocolState() {
        return protocolState;
    }

    /**
     * Offers the transport the payload where the protocol already copied it ({@link StagedPayload});
     * only for a transport that {@link Transport#stagesPayload stages payloads}, which takes it.
     */
    public void setStaged(StagedPayload staged) {
        this.staged = staged;
    }

    /** The staged payload, now the caller's to release, or null; the frame no longer holds it. */
    public StagedPayload takeStaged() {
        StagedPayload s = staged;
        staged = null;
        return s;
    }

    public void setProtocolState(Object state) {
        this.protocolState = state;
    }

    /** The payload (only valid while the frame is being sent or is held as a private copy). */
    public MemorySegment data() {
        return data;
    }

    public long dataOffset() {
        return dataOffset;
    }

    /** A private copy of this frame (for replay queues and checkpoints). */
    public Frame copy() {
        Frame f = rebuilt(
                context,
                source,
                sourceWorld,
                destinationWorld,
                tag,
                sequence,
                incarnation,
                patternId,
                iterationId,
                line,
                data,
                dataOffset,
                lengthBytes);
        f.piggyback = piggyback;
        f.withdrawn = withdrawn;
        f.digest = digest;
        f.materialize();
        return f;
    }

    /**
     * A private copy for the channel state of a recovery line, taken under the receiver's mailbox lock
     * as the frame is admitted. The payload is read straight from where it is (a sender's buffer stays
     * valid until the frame is consumed), never through a tee: the tee moves the payload into the
     * sender's log once, for the receive.
     */
    Frame inTransitCopy() {
        awaitStable();
        Frame f = rebuilt(
                context,
                source,
                sourceWorld,
                destinationWorld,
                tag,
                sequence,
                incarnation,
                patternId,
                iterationId,
                line,
                null,
                0,
                lengthBytes);
        f.withdrawn = withdrawn;
        f.digest = digest;
        if (withdrawn || lengthBytes == 0) {
            f.data = MemorySegment.NULL;
        } else {
            byte[] copy = new byte[Math.toIntExact(lengthBytes)];
            MemorySegment.copy(data, dataOffset, MemorySegment.ofArray(copy), 0, lengthBytes);
            f.data = MemorySegment.ofArray(copy);
        }
        return f;
    }

    /**
     * A private copy that keeps the synchronous mark: what a receiving side holds of a frame whose
     * payload was only lent to it (a frame to itself, one queued before the rank's sink attached); a
     * synchronous one is acknowledged when its receive matches it, as any other.
     */
    public Frame receivedCopy() {
        Frame own = copy();
        own.synchronous = synchronous;
        return own;
    }

    /**
     * Channel key of the arrival tracking: the context (a communicator's point-to-point or collective
     * traffic, numbered apart) and the sending world rank.
     */
    /** Whether this is the place of a withdrawn (cancelled) send rather than a message. */
    public boolean isWithdrawn() {
        return withdrawn;
    }

    /**
     * A frame rebuilt with the identity it was sent with (a replay from a sender's log): pattern,
     * iteration and line given at construction, so nobody sets them on a frame someone else built. The
     * payload is the frame's own.
     */
    public static Frame rebuilt(
            int context,
            int source,
            int sourceWorld,
            int destinationWorld,
            int tag,
            long sequence,
            int incarnation,
            int patternId,
            int iterationId,
            int line,
            MemorySegment data,
            long dataOffset,
            long lengthBytes) {
        Frame f = new Frame(
                context,
                source,
                sourceWorld,
                destinationWorld,
                tag,
                sequence,
                incarnation,
                data,
                dataOffset,
                lengthBytes,
                null);
        f.patternId = patternId;
        f.iterationId = iterationId;
        f.line = line;
        return f;
    }

    /** The place of frame {@code sequence} of {@code sourceWorld} on {@code context}, withdrawn by its sender. */
    public static Frame withdrawnPlace(
            int context, int sourceWorld, int destinationWorld, long sequence, int incarnation) {
        Frame f = new Frame(
                context, 0, sourceWorld, destinationWorld, 0, sequence, incarnation, MemorySegment.NULL, 0, 0, null);
        f.withdrawn = true;
        return f;
    }

    long channelKey() {
        return ChannelKey.of(context, sourceWorld);
    }

    /**
     * Whether a receive or probe posted with this envelope accepts the frame: same context, source and
     * tag (or wildcards), and the same pattern and iteration ids, which have no wildcard, so that a
     * message of one iteration of a pattern is never taken by a receive of another (see {@link
     * PatternState}).
     */
    boolean matches(int wantContext, int wantSource, int wantTag, int wantPattern, int wantIteration) {
        return context == wantContext
                && patternId == wantPattern
                && iterationId == wantIteration
                && (wantSource == Constants.ANY_SOURCE || wantSource == source)
                && (wantTag == Constants.ANY_TAG || wantTag == tag);
    }

    @Override
    public String toString() {
        return "Frame[ctx=" + context + " src=" + source + "/" + sourceWorld + "." + incarnation + " dst="
                + destinationWorld + " tag=" + tag + " seq=" + sequence
                + (patternId != 0 || iterationId != 0 ? " pattern=" + patternId + "." + iterationId : "")
                + (line != 0 ? " line=" + line : "")
                + " bytes=" + lengthBytes + (sender != null ? " rendezvous" : "") + "]";
    }
}
