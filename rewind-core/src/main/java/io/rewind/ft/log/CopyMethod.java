package io.rewind.ft.log;

/**
 * How the payload gets from the application's send buffer into the log. All three finish before
 * the send request may complete; they differ in when the copy runs relative to the transfer.
 */
public enum CopyMethod {
    /** One synchronous copy inside {@link PayloadLog#append}: cheapest bookkeeping, best for short messages. */
    PACK,
    /**
     * The copy is cut into chunks that the transport interleaves with its own transfer of the same
     * bytes ({@link PipelinedCopier}), so each chunk is read from memory once and hit in cache the
     * second time.
     */
    PIPELINED,
    /**
     * The rank's helper copier thread makes the copy while the transport transfers; the engine waits
     * for {@link LogEntry#awaitCopy()} (or polls {@link LogEntry#isCopyDone()}) before it completes
     * the send request. Pays a thread hand-off, so it only wins for long messages.
     */
    HELPER_THREAD
}
