package io.rewind.transport;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition another thread brings about, failing the test if it does not come in time. */
public final class Await {
    private Await() {}

    public static void until(BooleanSupplier condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("not within " + timeout.toMillis() + " ms: " + what);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }
}
