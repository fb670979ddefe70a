package io.rewind.ft.sender;

import io.rewind.engine.StagedPayload;
import io.rewind.ft.log.LogLease;
import java.nio.ByteBuffer;

/** A frame's payload as its log entry holds it, offered to a transport that writes from it. */
record LeasedPayload(LogLease lease) implements StagedPayload {

    @Override
    public ByteBuffer[] buffers() {
        return lease.buffers();
    }

    @Override
    public void release() {
        lease.release();
    }
}
