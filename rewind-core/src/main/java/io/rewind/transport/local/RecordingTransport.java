package io.rewind.transport.local;

import io.rewind.engine.ControlMessage;
import io.rewind.engine.Frame;
import io.rewind.engine.FrameSink;
import io.rewind.engine.Transport;
import java.util.ArrayList;
import java.util.List;

/**
 * A transport that delivers nothing: it counts the frames handed to it and, if asked to, keeps
 * them. For exercising a fault-tolerance protocol's send path on its own, in tests and benchmarks,
 * without a receiver. Not thread-safe.
 */
public final class RecordingTransport implements Transport {
    private final boolean keep;
    private final List<Frame> kept = new ArrayList<>();
    private final List<ControlMessage> controls = new ArrayList<>();
    private long handedOff;

    /** @param keep whether to keep the frames (a benchmark sending millions does not) */
    public RecordingTransport(boolean keep) {
        this.keep = keep;
    }

    @Override
    public void send(int destinationWorldRank, Frame frame) {
        handedOff++;
        if (keep) {
            kept.add(frame);
        }
    }

    /** Control messages handed off so far (kept whether or not frames are). */
    public List<ControlMessage> controls() {
        return List.copyOf(controls);
    }

    @Override
    public void sendControl(int destinationWorldRank, ControlMessage message) {
        controls.add(message);
    }

    /** Frames handed off so far, in order (empty unless they are kept). */
    public List<Frame> frames() {
        return List.copyOf(kept);
    }

    public long handedOff() {
        return handedOff;
    }

    @Override
    public boolean sharesMemory() {
        return false;
    }

    @Override
    public void attach(int worldRank, FrameSink sink) {
        // nothing is delivered, so nobody needs to be reachable
    }

    @Override
    public boolean withdraw(int destinationWorldRank, Frame frame) {
        return false;
    }

    @Override
    public String name() {
        return "recording";
    }

    @Override
    public void close() {
        kept.clear();
        controls.clear();
    }
}
