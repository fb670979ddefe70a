package io.rewind.launch.liveness;

import java.time.Duration;
import java.util.function.LongSupplier;

/** A nanosecond clock that moves only when a test moves it. */
final class FakeClock implements LongSupplier {
    private long now = 1_000_000_000L;

    @Override
    public long getAsLong() {
        return now;
    }

    void advance(Duration d) {
        now += d.toNanos();
    }

    void advanceMillis(long millis) {
        now += millis * 1_000_000L;
    }
}
