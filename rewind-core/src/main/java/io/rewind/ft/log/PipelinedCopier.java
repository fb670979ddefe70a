package io.rewind.ft.log;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The transfer-side half of {@link CopyMethod#PIPELINED}: moves a message to its transfer
 * destination chunk by chunk and, right after each chunk, copies the same chunk into the log.
 * Reading the source once per chunk while it is still in cache is what makes the second copy
 * cheap; cutting the message into chunks is what lets the receiver start on the first chunk while
 * later ones are still being logged (the convertor pipeline idea of "Dodging the cost of
 * unavoidable memory copies in message logging protocols").
 *
 * <p>The in-JVM transport calls {@link #transferAndLog} where it would otherwise copy the send
 * buffer into the receive buffer (or into a frame). A transport that sends frames of its own calls
 * {@link LogEntry#copyNextChunk(long)} after each frame instead.
 */
public final class PipelinedCopier {

    private PipelinedCopier() {}

    /**
     * Copies {@code lengthBytes} of {@code source} from {@code sourceOffset} to {@code transferTarget}
     * at {@code transferOffset} in chunks of {@code chunkBytes}, logging each chunk into {@code entry}
     * right after it is transferred. The source range must be the one the entry was appended with.
     * If the entry is not pipelined, or its copy is done, partly made or under way on another thread,
     * only the transfer happens, so the engine can call this for every message. A failure of the log
     * copy does not stop the transfer: it marks the entry failed, for its sender to report.
     */
    public static void transferAndLog(
            MemorySegment source,
            long sourceOffset,
            MemorySegment transferTarget,
            long transferOffset,
            long lengthBytes,
            LogEntry entry,
            long chunkBytes) {
        Objects.requireNonNull(entry, "entry");
        requirePositive(chunkBytes);
        if (entry.lengthBytes() != lengthBytes) {
            throw new IllegalArgumentException("transfer of " + lengthBytes + " bytes does not match " + entry + " ("
                    + entry.lengthBytes() + " bytes)");
        }
        // The claim is held for the whole transfer: the sender's awaitCopy waits for it rather than copy
        // the same bytes. Without it (the copy done, partly made, or under way on the sending thread),
        // only the transfer happens here.
        boolean logChunks = entry.claimWholeCopy();
        try {
            for (long done = 0; done < lengthBytes; ) {
                long n = Math.min(chunkBytes, lengthBytes - done);
                MemorySegment.copy(source, sourceOffset + done, transferTarget, transferOffset + done, n);
                if (logChunks) {
                    try {
                        entry.copyClaimedChunk(n, false);
                    } catch (PayloadLogException e) {
                        // The log copy failed (the sender's log closed under it, say: its rank crashed):
                        // the entry is marked failed, and its sender's awaitCopy reports that. The
                        // receiver still gets the message.
                        logChunks = false;
                    }
                }
                done += n;
            }
        } finally {
            if (logChunks) {
                entry.releaseClaim(); // a transfer cut short: the sender's awaitCopy copies the rest
            }
        }
    }

    /**
     * Copies {@code lengthBytes} of {@code source} into two destinations, chunk by chunk, each chunk
     * to the first then the second: the building block of the pipelined copy, for callers that log
     * into memory of their own.
     */
    public static void copyToBoth(
            MemorySegment source,
            long sourceOffset,
            MemorySegment first,
            long firstOffset,
            MemorySegment second,
            long secondOffset,
            long lengthBytes,
            long chunkBytes) {
        requirePositive(chunkBytes);
        Objects.checkFromIndexSize(sourceOffset, lengthBytes, source.byteSize());
        Objects.checkFromIndexSize(firstOffset, lengthBytes, first.byteSize());
        Objects.checkFromIndexSize(secondOffset, lengthBytes, second.byteSize());
        for (long done = 0; done < lengthBytes; ) {
            long n = Math.min(chunkBytes, lengthBytes - done);
            MemorySegment.copy(source, sourceOffset + done, first, firstOffset + done, n);
            MemorySegment.copy(source, sourceOffset + done, second, secondOffset + done, n);
            done += n;
        }
    }

    private static void requirePositive(long chunkBytes) {
        if (chunkBytes <= 0) {
            throw new IllegalArgumentException("chunkBytes must be > 0, got " + chunkBytes);
        }
    }
}
