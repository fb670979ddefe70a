package io.rewind.engine;

import java.nio.ByteBuffer;

/**
 * A frame's payload already copied, by the sending rank's protocol, into native memory that stays put
 * until {@link #release()}: the sender's log entry. A transport that stages a payload before writing
 * it ({@link Transport#stagesPayload}) writes from these buffers instead of copying the sender's
 * buffer a second time, so a logged message costs the copies an unlogged one does.
 *
 * <p>Whoever takes it from the frame ({@link Frame#takeStaged()}) owns it and must release it: after the last byte was written, or when the frame is dropped.
 */
public interface StagedPayload {

    /** The payload in order; the buffers' remaining bytes add up to the frame's length. */
    ByteBuffer[] buffers();

    /** The memory may move again: the transport is done with it. Only the first call counts. */
    void release();
}
