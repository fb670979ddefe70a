package io.rewind.ft.log;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A logged payload read in place: views of the log's memory that stay valid, whatever the log does
 * meanwhile (truncation, eviction, closing), until {@link #release()}. A transport writes a message
 * from it instead of copying the sender's buffer again ({@link PayloadLog#lease}).
 */
public final class LogLease {
    private final PayloadLog log;
    private final LogEntry entry;
    private final ByteBuffer[] buffers;
    private final AtomicBoolean released = new AtomicBoolean();

    LogLease(PayloadLog log, LogEntry entry, ByteBuffer[] buffers) {
        this.log = log;
        this.entry = entry;
        this.buffers = buffers;
    }

    /** The payload in message order, each buffer positioned at its first byte. */
    public ByteBuffer[] buffers() {
        return buffers;
    }

    /** Lets the log move or free the memory again; only the first call counts. */
    public void release() {
        if (released.compareAndSet(false, true)) {
            log.endLease(entry);
        }
    }
}
