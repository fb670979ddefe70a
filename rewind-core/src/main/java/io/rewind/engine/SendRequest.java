package io.rewind.engine;

/**
 * A send. Eager sends complete as soon as the payload is copied out of the user's buffer; rendezvous
 * and synchronous sends complete when the receiver has matched (and copied) the frame.
 */
public final class SendRequest extends Request {
    private final Transport transport;
    private final int destinationWorld;
    private volatile Frame pending;
    /** The receive that matched this send's pulled frame and may still have to copy it. */
    private volatile RecvRequest pullFrom;

    SendRequest(RankEngine engine, Transport transport, int destinationWorld) {
        super(engine);
        this.transport = transport;
        this.destinationWorld = destinationWorld;
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

    /** Waiting for a pulled frame the receiver has not taken yet: copy it from here. */
    @Override
    protected void helpProgress() {
        RecvRequest r = pullFrom;
        if (r != null) {
            r.takeOffered();
        }
    }

    void setPending(Frame frame) {
        this.pending = frame;
    }

    /** A send can be cancelled while its frame still waits, unmatched, in the receiver's queue. */
    @Override
    public void cancel() {
        Frame f = pending;
        if (f != null && transport != null && transport.withdraw(destinationWorld, f)) {
            pending = null;
            completeCancelled();
        }
    }
}
