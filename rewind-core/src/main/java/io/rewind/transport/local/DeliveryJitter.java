package io.rewind.transport.local;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Delivery jitter for the in-JVM transport, a stress facility that is off unless asked for: before a
 * frame or a control message is handed to its destination, the sending thread now and then yields or
 * parks for a random short time, so that interleavings a fast machine never produces (a message
 * overtaken by the one its peer sends next, a control message late behind a frame) show up in tests.
 *
 * <p>Per-sender order is kept: the sending thread itself waits and then delivers, so its messages
 * still arrive in the order it sent them. Only the interleaving between senders changes.
 *
 * <p>Switched on for a whole JVM by {@code -Drewind.jitter=MAX_MICROS} (read once, when this class is
 * loaded), or for the jobs one thread starts by {@link #around}, which the sweep campaign uses to run
 * jobs with and without jitter side by side in one JVM. A transport takes its jitter when it is made
 * and keeps it; one without jitter holds null and pays a null check per message.
 */
public final class DeliveryJitter {
    /** The JVM-wide setting, in microseconds (0: off). */
    private static final int JVM_MAX_MICROS = Integer.getInteger("rewind.jitter", 0);

    /** One message in this many is held back; the rest go at once, so a run is disturbed but not slowed to a crawl. */
    private static final int ONE_IN = 4;

    /** The setting for transports this thread makes (null: the JVM-wide one). */
    private static final ThreadLocal<Integer> FOR_THIS_THREAD = new ThreadLocal<>();

    private final int maxMicros;

    private DeliveryJitter(int maxMicros) {
        this.maxMicros = maxMicros;
    }

    /** The jitter a transport made now on this thread takes: null when off. */
    static DeliveryJitter forNewTransport() {
        Integer mine = FOR_THIS_THREAD.get();
        int micros = mine != null ? mine : JVM_MAX_MICROS;
        return micros > 0 ? new DeliveryJitter(micros) : null;
    }

    /**
     * Runs {@code body} with the in-JVM transports it makes on this thread (a {@code Job.run} makes
     * its job's before it starts the ranks) delaying deliveries by up to {@code maxMicros}; 0 makes
     * them deliver without jitter whatever {@code -Drewind.jitter} says.
     */
    public static <T> T around(int maxMicros, Supplier<T> body) {
        if (maxMicros < 0) {
            throw new IllegalArgumentException("jitter must be >= 0 microseconds, was " + maxMicros);
        }
        Integer before = FOR_THIS_THREAD.get();
        FOR_THIS_THREAD.set(maxMicros);
        try {
            return body.get();
        } finally {
            if (before == null) {
                FOR_THIS_THREAD.remove();
            } else {
                FOR_THIS_THREAD.set(before);
            }
        }
    }

    /** The JVM-wide setting ({@code -Drewind.jitter}), in microseconds; 0 when off. */
    public static int jvmMaxMicros() {
        return JVM_MAX_MICROS;
    }

    /** Called by the sending thread just before it hands a message over. */
    void beforeDelivery() {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        if (rnd.nextInt(ONE_IN) != 0) {
            return;
        }
        if (rnd.nextBoolean()) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(1_000L * (1 + rnd.nextInt(maxMicros)));
        }
    }
}
