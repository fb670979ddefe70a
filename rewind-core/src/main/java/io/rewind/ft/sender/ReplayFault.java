package io.rewind.ft.sender;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A protocol fault injected on purpose into the next replay batch of a rank of this JVM started after
 * the fault was armed, once: the tests of replay verification use it to show that a replay that is not
 * what was sent is caught and named. A rank started before (of a job an earlier test left behind, say)
 * cannot spend it on the job the test runs next. Nothing sets one outside those tests.
 */
public enum ReplayFault {
    /** The payloads of the first two frames of one channel in a batch trade places. */
    SWAP_TWO_MESSAGES,
    /** One byte of the first non-empty payload in a batch is changed, as if the log had changed it. */
    ALTER_A_PAYLOAD;

    /** A fault armed, and which arming of this JVM it was (from 1). */
    private record Armed(ReplayFault fault, long number) {}

    private static final AtomicLong ARMINGS = new AtomicLong();
    private static final AtomicReference<Armed> ARMED = new AtomicReference<>();

    /** Arms this fault for the next replay batch that can show it, of a rank started from now on. */
    public void arm() {
        ARMED.set(new Armed(this, ARMINGS.incrementAndGet()));
    }

    /** How many faults were armed so far: a rank's replay layer made now can spend only those. */
    static long armings() {
        return ARMINGS.get();
    }

    /** Disarms any fault still armed. */
    public static void disarm() {
        ARMED.set(null);
    }

    /** Whether the armed fault has been spent. */
    public static boolean spent() {
        return ARMED.get() == null;
    }

    /**
     * {@code batch}, with the armed fault applied if it can be (and then disarmed), by a replay layer
     * made when {@code armingsBefore} faults had been armed: one armed later is not its to spend.
     */
    static List<ReplayServer.Replayed> applyTo(List<ReplayServer.Replayed> batch, long armingsBefore) {
        Armed armed = ARMED.get();
        if (armed == null || armed.number() > armingsBefore) {
            return batch;
        }
        ReplayFault fault = armed.fault();
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
                                && ARMED.compareAndSet(armed, null)) {
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
                    if (a.payload() != null && a.payload().length > 0 && ARMED.compareAndSet(armed, null)) {
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
