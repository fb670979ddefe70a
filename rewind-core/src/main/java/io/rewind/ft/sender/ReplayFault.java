package io.rewind.ft.sender;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A protocol fault injected on purpose into the next replay batch of any rank in this JVM, once: the
 * tests of replay verification use it to show that a replay that is not what was sent is caught and
 * named. Nothing sets one outside those tests.
 */
public enum ReplayFault {
    /** The payloads of the first two frames of one channel in a batch trade places. */
    SWAP_TWO_MESSAGES,
    /** One byte of the first non-empty payload in a batch is changed, as if the log had changed it. */
    ALTER_A_PAYLOAD;

    private static final AtomicReference<ReplayFault> ARMED = new AtomicReference<>();

    /** Arms this fault for the next replay batch that can show it. */
    public void arm() {
        ARMED.set(this);
    }

    /** Disarms any fault still armed. */
    public static void disarm() {
        ARMED.set(null);
    }

    /** Whether the armed fault has been spent. */
    public static boolean spent() {
        return ARMED.get() == null;
    }

    /** {@code batch}, with the armed fault applied if it can be (and then disarmed). */
    static List<ReplayServer.Replayed> applyTo(List<ReplayServer.Replayed> batch) {
        ReplayFault fault = ARMED.get();
        if (fault == null) {
            return batch;
        }
        List<ReplayServer.Replayed> out = new ArrayList<>(batch);
        switch (fault) {
            case SWAP_TWO_MESSAGES -> {
                for (int i = 0; i < out.size(); i++) {
                    for (int j = i + 1; j < out.size(); j++) {
                        ReplayServer.Replayed a = out.get(i);
                        ReplayServer.Replayed b = out.get(j);
                        if (a.payload() != null
                                && b.payload() != null
                                && a.context() == b.context()
                                && !java.util.Arrays.equals(a.payload(), b.payload())
                                && ARMED.compareAndSet(fault, null)) {
                            out.set(i, a.withPayload(b.payload()));
                            out.set(j, b.withPayload(a.payload()));
                            return out;
                        }
                    }
                }
            }
            case ALTER_A_PAYLOAD -> {
                for (int i = 0; i < out.size(); i++) {
                    ReplayServer.Replayed a = out.get(i);
                    if (a.payload() != null && a.payload().length > 0 && ARMED.compareAndSet(fault, null)) {
                        byte[] altered = a.payload().clone();
                        altered[altered.length / 2] ^= 0x5A;
                        out.set(i, a.withPayload(altered));
                        return out;
                    }
                }
            }
        }
        return batch;
    }
}
