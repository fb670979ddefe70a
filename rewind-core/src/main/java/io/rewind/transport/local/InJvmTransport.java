package io.rewind.transport.local;

import io.rewind.engine.ControlMessage;
import io.rewind.engine.Frame;
import io.rewind.engine.FrameSink;
import io.rewind.engine.Transport;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Ranks in one JVM: sending a frame is a call into the destination's matching queues, made by the
 * sending thread. Nothing is serialised and large payloads are borrowed from the sender's buffer
 * until the receiver copies them, so a message is copied exactly once.
 *
 * <p>Endpoints are replaced when a rank is respawned; a frame sent to a rank that has no endpoint
 * (dead, not yet respawned) is dropped, which is what a crashed process does with its inbound traffic.
 *
 * <p>With delivery jitter ({@link DeliveryJitter}: {@code -Drewind.jitter=MAX_MICROS}, or {@link
 * DeliveryJitter#around} for the jobs one thread starts) the sending thread now and then yields or
 * parks for up to that many microseconds before it hands a frame or a control message over. The same
 * thread still delivers its messages one after another, so per-sender order is kept; only the
 * interleaving of senders changes. Off, it costs one null check per message.
 */
public final class InJvmTransport implements Transport {
    private final AtomicReferenceArray<FrameSink> endpoints;
    /** Null when off (the default): taken when the transport is made, see {@link DeliveryJitter}. */
    private final DeliveryJitter jitter;

    public InJvmTransport(int worldSize) {
        this.endpoints = new AtomicReferenceArray<>(worldSize);
        this.jitter = DeliveryJitter.forNewTransport();
    }

    @Override
    public void send(int destinationWorldRank, Frame frame) {
        if (jitter != null) {
            jitter.beforeDelivery(); // before the endpoint is read: a respawn may happen meanwhile
        }
        FrameSink sink = endpoints.get(destinationWorldRank);
        if (sink != null) {
            sink.onFrame(frame);
        } else {
            frame.releaseSender(); // dropped: nobody will ever match it
        }
    }

    @Override
    public void sendControl(int destinationWorldRank, ControlMessage message) {
        if (jitter != null) {
            jitter.beforeDelivery();
        }
        FrameSink sink = endpoints.get(destinationWorldRank);
        if (sink != null) {
            sink.onControl(message);
        }
    }

    /** Whether this transport delays deliveries now and then ({@link DeliveryJitter}). */
    public boolean jittered() {
        return jitter != null;
    }

    @Override
    public boolean sharesMemory() {
        return true;
    }

    @Override
    public void attach(int worldRank, FrameSink sink) {
        endpoints.set(worldRank, sink);
    }

    /** Removes the endpoint if it is still {@code sink} (a later incarnation is left alone). */
    public void detach(int worldRank, FrameSink sink) {
        endpoints.compareAndSet(worldRank, sink, null);
    }

    @Override
    public boolean withdraw(int destinationWorldRank, Frame frame) {
        FrameSink sink = endpoints.get(destinationWorldRank);
        return sink != null && sink.withdraw(frame);
    }

    @Override
    public String name() {
        return "jvm";
    }

    @Override
    public void close() {
        for (int i = 0; i < endpoints.length(); i++) {
            endpoints.set(i, null);
        }
    }
}
