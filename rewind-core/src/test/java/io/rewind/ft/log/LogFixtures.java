package io.rewind.ft.log;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.SplittableRandom;

/** Shared helpers: small blocks and windows so that tests cross block boundaries cheaply. */
final class LogFixtures {

    static final long SMALL_BLOCK_BYTES = 4096;
    static final long SMALL_WINDOW_BYTES = 16 * 1024;

    private LogFixtures() {}

    static PayloadLogConfig.Builder small(StorageBackend backend, Path dir) {
        return PayloadLogConfig.builder(backend)
                .blockBytes(SMALL_BLOCK_BYTES)
                .mappedWindowBytes(SMALL_WINDOW_BYTES)
                .mappedDirectory(dir)
                .pipelineChunkBytes(1000);
    }

    static byte[] randomBytes(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    static MessageKey key(int destination, long sequence) {
        return new MessageKey(7, 0, destination, 42, sequence, 1);
    }

    /**
     * What the engine does for one send: append, transfer (pipelined through the copier), wait for
     * the log copy. Returns the entry; {@code transferTarget} receives the message.
     */
    static LogEntry send(
            PayloadLog log, MessageKey key, MemorySegment source, long offset, long length, CopyMethod method) {
        LogEntry entry = log.append(key, source, offset, length, method);
        byte[] transferTarget = new byte[(int) length];
        PipelinedCopier.transferAndLog(source, offset, MemorySegment.ofArray(transferTarget), 0, length, entry, 1000);
        entry.awaitCopy();
        return entry;
    }

    static LogEntry send(PayloadLog log, MessageKey key, byte[] payload, CopyMethod method) {
        return send(log, key, MemorySegment.ofArray(payload), 0, payload.length, method);
    }
}
