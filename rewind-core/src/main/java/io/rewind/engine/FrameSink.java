package io.rewind.engine;

/** Where a transport hands inbound frames: the destination rank's matching queues. */
public interface FrameSink {
    void onFrame(Frame frame);

    /** Takes back a frame that has not been matched yet; false if it was matched or is unknown. */
    boolean withdraw(Frame frame);
}
