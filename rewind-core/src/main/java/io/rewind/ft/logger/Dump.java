package io.rewind.ft.logger;

import io.rewind.ft.log.LogEntry;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One dump in flight: the oldest entries of a rank's log on their way to one logger (two with
 * replicas). The rank goes on computing meanwhile; the entries stay in its log until the dump is
 * done, then the rank takes the result in ({@link LoggerClient#takeIn}).
 */
public final class Dump {
    final List<LogEntry> entries;
    /** Per entry, its dumped form; an entry that left the log meanwhile gets no placement. */
    final DumpedPayload[] payloads;

    final long bytes;
    final long startedNanos;
    private final CountDownLatch remaining;

    Dump(List<LogEntry> entries, DumpedPayload[] payloads, long bytes, int parts) {
        this.entries = List.copyOf(entries);
        this.payloads = payloads;
        this.bytes = bytes;
        this.startedNanos = System.nanoTime();
        this.remaining = new CountDownLatch(parts);
    }

    /** The log entries the dump carries, oldest first. */
    public List<LogEntry> entries() {
        return entries;
    }

    /** Payload bytes the dump carries. */
    public long bytes() {
        return bytes;
    }

    public boolean isDone() {
        return remaining.getCount() == 0;
    }

    /** Waits at most {@code nanos} for every logger to finish; whether they did. */
    public boolean await(long nanos) {
        try {
            return remaining.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** One logger finished its part (stored it, or died before). */
    public void partDone() {
        remaining.countDown();
    }
}
