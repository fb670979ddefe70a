package io.rewind.engine;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** A posted receive: what it matches and where the payload goes. */
public final class RecvRequest extends Request {
    final int context;
    final int source;
    final int tag;
    /** The pattern and iteration ids active when the receive was posted; only frames with the same match. */
    final int patternId;

    final int iterationId;
    final MemorySegment buffer;
    final long offset;
    final long capacityBytes;
    private final Mailbox mailbox;
    /** Program-order index of a wildcard-source receive (its determinant key), or -1. */
    long wildcardIndex = -1;
    /** During replay, the only sequence number this receive may match, or -1. */
    long requiredSequence = -1;
    /** A matched pulled frame not copied yet; whoever takes it (receiver or sender) copies it. */
    @SuppressWarnings("unused") // accessed through OFFERED
    private volatile Frame offered;

    private static final VarHandle OFFERED;

    static {
        try {
            OFFERED = MethodHandles.lookup().findVarHandle(RecvRequest.class, "offered", Frame.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** @param patternStamp the pattern and iteration ids, packed as by {@link PatternState#pack} */
    RecvRequest(
            RankEngine engine,
            Mailbox mailbox,
            int context,
            int source,
            int tag,
            long patternStamp,
            MemorySegment buffer,
            long offset,
            long capacityBytes) {
        super(engine);
        this.mailbox = mailbox;
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.patternId = PatternState.patternOf(patternStamp);
        this.iterationId = PatternState.iterationOf(patternStamp);
        this.buffer = buffer;
        this.offset = offset;
        this.capacityBytes = capacityBytes;
    }

    /**
     * The frame matched this receive: copies it now, or for a pulled frame offers it to the receiving
     * thread (woken if parked), which copies it on its own core while the sender logs it. The sender
     * takes the copy back if the receiver has not started it by the time the sender waits.
     */
    void deliverOrOffer(Frame frame) {
        if (!frame.pull || frame.sender == null) {
            deliver(frame);
            return;
        }
        frame.sender.pullFrom(this);
        OFFERED.setVolatile(this, frame);
        wakeWaiter();
    }

    /** Copies an offered frame if nobody has taken it yet. */
    void takeOffered() {
        Frame f = (Frame) OFFERED.getVolatile(this);
        if (f != null && OFFERED.compareAndSet(this, f, null)) {
            deliver(f);
        }
    }

    @Override
    protected void helpProgress() {
        takeOffered();
    }

    /** Copies the frame's payload in and completes; a message longer than the buffer is a truncation error. */
    void deliver(Frame frame) {
        if (wildcardIndex >= 0) {
            // Told before the program can act on the outcome, so that a protocol may make it stable first.
            engine.faultTolerance().onWildcardMatch(wildcardIndex, frame);
        }
        long n = Math.min(frame.lengthBytes, capacityBytes);
        frame.copyPayload(buffer, offset, n);
        RewindException error = null;
        if (frame.lengthBytes > capacityBytes) {
            error = RewindException.of(
                    ErrorClass.TRUNCATE,
                    "message truncated: %d bytes arrived from rank %d (tag %d) for a receive buffer of %d bytes",
                    frame.lengthBytes,
                    frame.source,
                    frame.tag,
                    capacityBytes);
        }
        complete(frame.source, frame.tag, n, error);
        if (frame.sender != null) {
            frame.sender.completeSent();
        } else if (frame.synchronous) {
            engine.acknowledgeMatch(frame); // its sender is in another process and waits for this
        }
    }

    boolean matches(Frame f) {
        return f.matches(context, source, tag, patternId, iterationId)
                && (requiredSequence < 0 || f.sequence == requiredSequence);
    }

    /** Takes the receive out of matching for a failure; false if a message matched it already. */
    boolean withdrawForFailure() {
        return mailbox.removePosted(this);
    }

    void completeWithFailure(RewindException error) {
        complete(source, tag, 0, error);
    }

    @Override
    public void cancel() {
        if (mailbox.removePosted(this)) {
            completeCancelled();
        }
    }
}
