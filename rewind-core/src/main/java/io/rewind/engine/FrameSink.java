package io.rewind.engine;

/** Where a transport hands inbound frames: the destination rank's matching queues. */
public interface FrameSink {
    /**
     * Takes a frame. A frame without a sending request in this process lends its payload only for the
     * duration of this call (a transport hands a view of its receive buffer, a sender in this JVM its
     * own buffer): whatever keeps the frame beyond the call keeps a private copy.
     */
    void onFrame(Frame frame);

    /** A control message for the rank's protocol: queued for the rank's own progress. */
    void onControl(ControlMessage message);

    /** Takes back a frame that has not been matched yet; false if it was matched or is unknown. */
    boolean withdraw(Frame frame);
}
