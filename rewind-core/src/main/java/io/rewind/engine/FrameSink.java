package io.rewind.engine;

/** Where a transport hands inbound frames: the destination rank's matching queues. */
public interface FrameSink {
    void onFrame(Frame frame);

    /** A control message for the rank's protocol: queued for the rank's own progress. */
    void onControl(ControlMessage message);

    /** Takes back a frame that has not been matched yet; false if it was matched or is unknown. */
    boolean withdraw(Frame frame);
}
