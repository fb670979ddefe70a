package io.rewind.apps.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.engine.ControlMessage;
import io.rewind.engine.Frame;
import io.rewind.engine.FrameSink;
import io.rewind.transport.local.DeliveryJitter;
import io.rewind.transport.local.InJvmTransport;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Delivery jitter of the in-JVM transport: scoped to the jobs a thread starts, and order-keeping per sender. */
class DeliveryJitterTest {
    @Test
    void aTransportTakesTheJitterOfTheThreadThatMadeIt() {
        boolean jvmWide = DeliveryJitter.jvmMaxMicros() > 0;
        assertEquals(jvmWide, new InJvmTransport(2).jittered());
        assertTrue(DeliveryJitter.around(100, () -> new InJvmTransport(2).jittered()));
        assertFalse(DeliveryJitter.around(0, () -> new InJvmTransport(2).jittered()));
        // Nested: the inner setting holds inside, the outer one again after it.
        assertTrue(DeliveryJitter.around(
                100,
                () -> !DeliveryJitter.around(0, () -> new InJvmTransport(2).jittered())
                        && new InJvmTransport(2).jittered()));
        assertEquals(jvmWide, new InJvmTransport(2).jittered());
        assertThrows(IllegalArgumentException.class, () -> DeliveryJitter.around(-1, () -> null));
    }

    /** Three senders, each its own thread, to one receiver: each sender's frames arrive in the order it sent them. */
    @Test
    void eachSendersFramesArriveInTheOrderItSentThem() throws InterruptedException {
        int senders = 3;
        int frames = 300;
        List<long[]> arrived = new ArrayList<>();
        InJvmTransport transport = DeliveryJitter.around(300, () -> new InJvmTransport(senders + 1));
        assertTrue(transport.jittered());
        transport.attach(0, new FrameSink() {
            @Override
            public void onFrame(Frame f) {
                synchronized (arrived) {
                    arrived.add(new long[] {f.source(), f.sequence()});
                }
            }

            @Override
            public void onControl(ControlMessage message) {}

            @Override
            public boolean withdraw(Frame frame) {
                return false;
            }
        });
        List<Thread> threads = new ArrayList<>();
        for (int s = 1; s <= senders; s++) {
            int source = s;
            threads.add(Thread.ofPlatform().name("jitter-test-sender-" + s).start(() -> {
                for (long n = 1; n <= frames; n++) {
                    MemorySegment data = MemorySegment.ofArray(new byte[] {(byte) n});
                    transport.send(0, new Frame(0, source, source, 0, 5, n, 0, data, 0, 1, null));
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(senders * frames, arrived.size());
        long[] last = new long[senders + 1];
        for (long[] a : arrived) {
            int source = (int) a[0];
            assertEquals(last[source] + 1, a[1], "frame of sender " + source + " out of order");
            last[source] = a[1];
        }
    }
}
