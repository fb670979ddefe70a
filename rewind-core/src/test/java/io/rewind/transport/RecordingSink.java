package io.rewind.transport;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.rewind.engine.ControlMessage;
import io.rewind.engine.Frame;
import io.rewind.engine.FrameSink;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A rank's endpoint for transport tests: keeps what arrives, in order, with a snapshot of each
 * payload taken on arrival (a transport that shares memory hands over the sender's buffer).
 */
public final class RecordingSink implements FrameSink {
    /** One frame as it arrived, and its payload bytes at that moment. */
    public record Arrival(Frame frame, byte[] payload) {}

    private final BlockingQueue<Arrival> frames = new LinkedBlockingQueue<>();
    private final BlockingQueue<ControlMessage> controls = new LinkedBlockingQueue<>();

    @Override
    public void onFrame(Frame frame) {
        byte[] payload = new byte[Math.toIntExact(frame.lengthBytes())];
        if (payload.length > 0) {
            MemorySegment.copy(frame.data(), frame.dataOffset(), MemorySegment.ofArray(payload), 0, payload.length);
        }
        frames.add(new Arrival(frame, payload));
    }

    @Override
    public void onControl(ControlMessage message) {
        controls.add(message);
    }

    @Override
    public boolean withdraw(Frame frame) {
        return false;
    }

    /** The next frame, waiting up to 10 s for it (the test fails if none comes). */
    public Arrival nextFrame() throws InterruptedException {
        Arrival a = frames.poll(10, TimeUnit.SECONDS);
        assertNotNull(a, "no frame arrived within 10 s");
        return a;
    }

    /** The next control message, waiting up to 10 s for it. */
    public ControlMessage nextControl() throws InterruptedException {
        ControlMessage m = controls.poll(10, TimeUnit.SECONDS);
        assertNotNull(m, "no control message arrived within 10 s");
        return m;
    }

    /** Frames that arrived and were not taken yet. */
    public int framesWaiting() {
        return frames.size();
    }

    public int controlsWaiting() {
        return controls.size();
    }
}
