package io.rewind.transport.shm;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Settings of a {@link ShmTransport}.
 *
 * @param ringBytes the capacity of each ring this transport makes (a power of two, 64 KiB to 64 MiB);
 *     a ring the peer made first keeps the peer's capacity
 * @param maxPayloadBytes the largest payload of one message (as the TCP transport's)
 * @param stallTimeout how long a sender waits for a ring whose receiver reads nothing before its send
 *     fails
 * @param log where the transport's one-line notices go
 */
public record ShmOptions(int ringBytes, int maxPayloadBytes, Duration stallTimeout, Consumer<String> log) {
    public static final int MIN_RING_BYTES = 64 << 10;
    public static final int MAX_RING_BYTES = 64 << 20;
    /** What the rings of one host may take together, at most, when {@link #forRanksOnHost} sizes them. */
    static final long HOST_BUDGET_BYTES = 256L << 20;

    public ShmOptions {
        Objects.requireNonNull(stallTimeout, "stallTimeout");
        Objects.requireNonNull(log, "log");
        if (Integer.bitCount(ringBytes) != 1 || ringBytes < MIN_RING_BYTES || ringBytes > MAX_RING_BYTES) {
            throw new IllegalArgumentException("ringBytes must be a power of two from 64 KiB to 64 MiB: " + ringBytes);
        }
        if (maxPayloadBytes < 0) {
            throw new IllegalArgumentException("maxPayloadBytes out of range: " + maxPayloadBytes);
        }
        if (stallTimeout.isNegative() || stallTimeout.isZero()) {
            throw new IllegalArgumentException("stallTimeout must be positive: " + stallTimeout);
        }
    }

    /** 2 MiB rings, 256 MiB messages, 60 s for a receiver that reads nothing, notices on System.err. */
    public static ShmOptions defaults() {
        return new ShmOptions(2 << 20, 256 << 20, Duration.ofSeconds(60), System.err::println);
    }

    /**
     * Rings sized for {@code ranks} rank processes on one host: one ring per ordered pair, n(n-1) of them,
     * within 256 MiB together, each 2 MiB at most and 64 KiB at least (2 to 8 ranks: 2 MiB; 16: 1 MiB; 64:
     * 64 KiB).
     */
    public static ShmOptions forRanksOnHost(int ranks) {
        long pairs = Math.max(1L, (long) ranks * (ranks - 1));
        long each = Long.highestOneBit(Math.max(1, HOST_BUDGET_BYTES / pairs));
        int bytes = (int) Math.max(MIN_RING_BYTES, Math.min(2 << 20, each));
        return defaults().withRingBytes(bytes);
    }

    public ShmOptions withRingBytes(int bytes) {
        return new ShmOptions(bytes, maxPayloadBytes, stallTimeout, log);
    }

    public ShmOptions withStallTimeout(Duration timeout) {
        return new ShmOptions(ringBytes, maxPayloadBytes, timeout, log);
    }

    public ShmOptions withLog(Consumer<String> sink) {
        return new ShmOptions(ringBytes, maxPayloadBytes, stallTimeout, sink);
    }
}
