package io.rewind.engine;

/**
 * A send. Eager sends complete as soon as the payload is copied out of the user's buffer; rendezvous
 * and synchronous sends complete when the receiver has matched (and copied) the frame.
 */
public final class SendRequest extends Request {
    private final Transport transport;
    private final int destinationWorld;
    /**
     * How long a pulled frame waits, borrowed, for its receive once its sender waits for it: a
     * receiver on its way (in a ping-pong, one finishing its own logging) then copies it straight
     * from this rank's buffer. About what the private copy would cost, so a sender whose receiver is
     * not coming loses at most that much.
     */
    static long detachGraceNanos(long lengthBytes) {
        return DETACH_GRACE_BASE_NS + lengthBytes / DETACH_GRACE_BYTES_PER_NS;
    }

    static final long DETACH_GRACE_BASE_NS = 2_000;
    private static final long DETACH_GRACE_BYTES_PER_NS = 8;

    private volatile Frame pending;
    /** When the owner first found its pulled frame still unmatched (0: not yet); owner thread only. */
    private long waitingSince;
    /** The receive that matched this send's pulled frame and may still have to copy it. */
    private volatile RecvRequest pullFrom;

    SendRequest(RankEngine engine, Transport transport, int destinationWorld) {
        super(engine);
        this.transport = transport;
        this.destinationWorld = destinationWorld;
    }

    /** The communicator the send is on and the incarnation of its destination then (failure checks). */
    private Communicator communicator;

    private int destinationIncarnation;

    void target(Communicator c, int incarnation) {
        this.communicator = c;
        this.destinationIncarnation = incarnation;
    }

    int destinationWorld() {
        return destinationWorld;
    }

    int destinationIncarnation() {
        return destinationIncarnation;
    }

    Communicator communicator() {
        return communicator;
    }

    /** Fails the send if it has not completed: its destination failed, so nobody will match it. */
    synchronized void failIfPending(RewindException error) {
        if (!isCompleteNow()) {
            completeFailed(error);
        }
    }

    void completeSent() {
        pending = null;
        pullFrom = null;
        complete(Constants.ANY_SOURCE, Constants.ANY_TAG, 0, null);
    }

    void completeFailed(RewindException error) {
        pending = null;
        complete(Constants.ANY_SOURCE, Constants.ANY_TAG, 0, error);
    }

    void pullFrom(RecvRequest receive) {
        this.pullFrom = receive;
    }

    /**
     * Waiting for a pulled frame: if its receive matched it but has not started copying, copy it from
     * here. If no receive has matched it yet, give the receiver a moment to come
     * (it then copies from this rank's buffer, and nothing more is copied) before leaving a private
     * copy in its queue and completing: a logged send never waits long for its receive, as an eager
     * send does not.
     */
    @Override
    protected void helpProgress() {
        RecvRequest r = pullFrom;
        if (r != null) {
            r.takeOffered();
            return;
        }
        Frame f = pending;
        if (f != null && f.pull) {
            long now = System.nanoTime();
            if (waitingSince == 0) {
                waitingSince = now; // the grace counts from the sender's first look, after its log copy
            } else if (now - waitingSince > detachGraceNanos(f.lengthBytes)) {
                detach(f);
            }
        }
    }

    /** About to park: a frame nobody has taken is detached now rather than at the next wake-up. */
    @Override
    protected void beforePark() {
        Frame f = pending;
        if (f != null && f.pull) {
            detach(f);
        }
    }

    private void detach(Frame f) {
        pending = null;
        if (f.detach()) {
            completeSent();
        }
    }

    void setPending(Frame frame) {
        this.pending = frame;
    }

    /**
     * A synchronous send to another process: it waits for its receiver's match notice, and a cancel
     * asks that receiver to withdraw frame {@code sequence} on {@code context}.
     */
    void awaitsRemoteMatch(int context, long sequence) {
        this.remoteContext = context;
        this.remoteSequence = sequence;
    }

    private int remoteContext;
    /** The sequence number of a synchronous send to another process (-1: not one). */
    private long remoteSequence = -1;
    /** Whether the receiver in another process was asked to withdraw the frame (once is enough). */
    private volatile boolean withdrawalAsked;

    /**
     * A send can be cancelled while its frame still waits, unmatched, in the receiver's queue. In this
     * process's memory the frame is taken back at once; in another process the receiver is asked
     * ({@link SendCancellation}), and its answer completes the send cancelled or, if a receive had
     * taken the frame, its match notice completes it as sent. Either way, wait for the completion.
     */
    @Override
    public void cancel() {
        Frame f = pending;
        if (!protocolMayCancel(f)) {
            letGoAsSent(f);
            return;
        }
        if (f != null && transport != null && transport.withdraw(destinationWorld, f)) {
            pending = null;
            completeWithdrawn(f.context, f.sequence);
            return;
        }
        if (remoteSequence >= 0 && !withdrawalAsked && !isComplete()) {
            withdrawalAsked = true;
            engine.askToWithdraw(destinationWorld, remoteContext, remoteSequence);
        }
    }

    /** Whether the protocol lets this send be withdrawn ({@link FaultTolerance#mayCancel}). */
    private boolean protocolMayCancel(Frame f) {
        if (!engine.interposed()) {
            return true;
        }
        if (f != null) {
            return engine.faultTolerance().mayCancel(f.context, destinationWorld, f.sequence);
        }
        return remoteSequence < 0 || engine.faultTolerance().mayCancel(remoteContext, destinationWorld, remoteSequence);
    }

    /**
     * A cancel that fails although no receive may have taken the frame yet: the send completes as sent
     * and the frame stays for its receiver, as a private copy (the user may reuse the buffer). If a
     * receive took the frame first, or its match notice came, that completes the send instead.
     */
    private void letGoAsSent(Frame f) {
        if (f != null) {
            pending = null;
            if (f.detach()) {
                completeSent();
            }
        } else if (remoteSequence >= 0
                && engine.mailbox().stopAwaitingMatch(destinationWorld, remoteContext, remoteSequence)) {
            completeSent();
        }
    }

    /**
     * The frame was withdrawn before any receive took it: the send completes cancelled, and the
     * protocol learns of it (a logged send is then replayed as withdrawn, not as a message).
     */
    void completeWithdrawn(int context, long sequence) {
        pending = null;
        pullFrom = null;
        if (engine.interposed()) {
            engine.faultTolerance().onSendCancelled(context, destinationWorld, sequence);
        }
        completeCancelled();
    }
}
