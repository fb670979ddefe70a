package io.rewind.ft.log;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

/**
 * One logged message: its envelope, where its payload lives, and the state of the copy that fills
 * it. Returned by {@link PayloadLog#append}; this handle is also the copy's completion, which the
 * engine must observe ({@link #awaitCopy()} or {@link #isCopyDone()}) before it completes the send
 * request, because until then the log may still read the application's buffer.
 *
 * <p>A {@link CopyMethod#PIPELINED} entry is filled by whoever transfers the message, chunk by
 * chunk ({@link #copyNextChunk(long)} or {@link PipelinedCopier}), and finished by the sender's
 * {@link #awaitCopy()}. Two threads may reach it at once: a receive that matches a queued frame
 * transfers it (and its tee logs it) on the receiving thread while the sender awaits the copy on
 * its own. Each step therefore claims the entry first ({@code PENDING} to {@code CLAIMED}) and
 * releases it after; a thread that finds it claimed transfers without logging, or waits for the
 * claimer. A {@link CopyMethod#HELPER_THREAD} entry is filled by the log's copier thread, or by the
 * thread that awaits it first if the copier has not started on it yet.
 */
public final class LogEntry implements StoredPayload {

    private static final int PENDING = 0;
    private static final int CLAIMED = 1;
    private static final int LOGGED = 2;
    private static final int FAILED = 3;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(LogEntry.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final PayloadLog log;
    private final MessageKey key;
    private final long lengthBytes;
    private final CopyMethod copyMethod;
    /*
     * Where the payload lies. Most payloads lie in one fragment, kept in these two fields; a payload
     * split across blocks has its other fragments in moreExtents. A log of short messages holds
     * millions of entries between two checkpoints, and the collector traces and copies every one of
     * them: an entry makes one object, not three.
     */
    private final StorageBlock firstBlock;
    private final long firstOffsetBytes;
    /** The fragments after the first, in message order; null when the payload lies in one. */
    private final Extent[] moreExtents;

    final boolean retained;

    /**
     * The copy's working state: null for a short pack copy made under the log lock before the entry
     * is returned (the common case), unless that copy failed.
     */
    private Copy copy;

    private volatile int state;

    /** Guarded by the log's lock. */
    boolean truncated;
    /** Whether the entry holds use counts on its blocks until its copy finishes. Set under the lock. */
    boolean holdsBlocks;

    /** What a copy that outlives {@link PayloadLog#append} works with. */
    private static final class Copy {
        final CountDownLatch helperDone;
        MemorySegment source;
        final long sourceOffset;
        /** Bytes of a pipelined copy done so far; only the thread holding the claim writes it. */
        long copiedBytes;

        Throwable failure;

        Copy(MemorySegment source, long sourceOffset, CopyMethod method) {
            this.source = source;
            this.sourceOffset = sourceOffset;
            this.helperDone = method == CopyMethod.HELPER_THREAD ? new CountDownLatch(1) : null;
        }
    }

    /**
     * An entry whose copy is made later, by {@link #copyAllAndThrow}, the transfer (pipelined) or the
     * copier (helper thread): {@code source} stays reachable until it is done.
     */
    LogEntry(
            PayloadLog log,
            MessageKey key,
            long lengthBytes,
            CopyMethod copyMethod,
            Extent[] extents,
            boolean retained,
            MemorySegment source,
            long sourceOffset) {
        this(log, key, lengthBytes, copyMethod, extents, retained);
        this.copy = new Copy(source, sourceOffset, copyMethod);
    }

    /** An entry whose pack copy is made at once under the log lock ({@link #copyUnderLock}). */
    LogEntry(
            PayloadLog log,
            MessageKey key,
            long lengthBytes,
            CopyMethod copyMethod,
            Extent[] extents,
            boolean retained) {
        this.log = log;
        this.key = key;
        this.lengthBytes = lengthBytes;
        this.copyMethod = copyMethod;
        this.firstBlock = extents[0].block();
        this.firstOffsetBytes = extents[0].offsetBytes();
        this.moreExtents = extents.length == 1 ? null : Arrays.copyOfRange(extents, 1, extents.length);
        this.retained = retained;
    }

    /** How many fragments the payload lies in (at least one). */
    int extentCount() {
        return moreExtents == null ? 1 : 1 + moreExtents.length;
    }

    /** The block of fragment {@code i}, without making an {@link Extent}. */
    StorageBlock block(int i) {
        return i == 0 ? firstBlock : moreExtents[i - 1].block();
    }

    /** Fragment {@code i} of the payload, in message order. */
    Extent extent(int i) {
        if (i > 0) {
            return moreExtents[i - 1];
        }
        long firstLength = moreExtents == null ? lengthBytes : moreExtents[0].messageOffsetBytes();
        return new Extent(firstBlock, firstOffsetBytes, firstLength, 0);
    }

    /**
     * Where the payload went when it left the log for a logger node (null: it did not). Set and read
     * under the lock of the protocol that owns the log, which also decides the move.
     */
    private StoredPayload movedTo;

    /** Where the payload went when it left the log for a logger node, or null. */
    public StoredPayload movedTo() {
        return movedTo;
    }

    /** The payload now lives at {@code where} (a logger node); this entry leaves the log. */
    public void movedTo(StoredPayload where) {
        this.movedTo = where;
    }

    /** Whether the entry is still in its log (not truncated, not evicted, log open). */
    public boolean isLive() {
        return log.isLive(this);
    }

    /** The log this entry belongs to. */
    PayloadLog log() {
        return log;
    }

    @Override
    public MessageKey key() {
        return key;
    }

    @Override
    public long lengthBytes() {
        return lengthBytes;
    }

    /** The method actually used (a helper-thread request falls back to pack for a source confined to the sending thread). */
    public CopyMethod copyMethod() {
        return copyMethod;
    }

    /** True once the payload is in the log, or the copy failed ({@link #awaitCopy()} then throws). */
    public boolean isCopyDone() {
        int s = state;
        return s == LOGGED || s == FAILED;
    }

    /**
     * Returns once the payload is in the log; after that the application may reuse its buffer. For a
     * helper-thread copy not yet started, the calling thread makes the copy itself rather than wait
     * for the copier to be scheduled; for a pipelined copy it copies whatever the transfer has not.
     *
     * @throws PayloadLogException ({@code COPY_FAILED}) if the copy failed
     */
    public void awaitCopy() {
        if (copyMethod == CopyMethod.PIPELINED) {
            copyNextChunk(Long.MAX_VALUE); // whatever no transfer has copied, or wait for one under way
        } else if (copyMethod == CopyMethod.HELPER_THREAD && STATE.compareAndSet(this, PENDING, CLAIMED)) {
            copyAll();
        }
        Copy c = copy;
        if (c != null && c.helperDone != null) {
            awaitUninterruptibly(c.helperDone);
        }
        if (state == FAILED) {
            Throwable failure = copy.failure;
            throw new PayloadLogException(
                    PayloadLogException.Reason.COPY_FAILED,
                    "copying the payload of " + key + " (" + lengthBytes + " bytes) into the log failed: " + failure,
                    failure);
        }
    }

    /**
     * Waits, from a thread other than the one making it, until the copy is done or failed: a pack or
     * pipelined copy is made by the sending thread, which finishes it without help.
     *
     * @return false if it was not done within {@code timeoutNanos}
     */
    public boolean awaitCopyDone(long timeoutNanos) {
        if (isCopyDone()) {
            return true;
        }
        if (copyMethod == CopyMethod.HELPER_THREAD) {
            awaitCopy();
            return true;
        }
        long deadline = System.nanoTime() + timeoutNanos;
        while (!isCopyDone()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.yield();
        }
        return true;
    }

    /**
     * Copies the next at most {@code maxBytes} of a pipelined entry's payload into the log. If another
     * thread is copying into the entry (a receive's tee), waits until it has finished its step first.
     *
     * @return bytes copied; 0 once everything is copied (by this thread or another)
     * @throws IllegalStateException if the entry is not {@link CopyMethod#PIPELINED}
     * @throws PayloadLogException ({@code COPY_FAILED}) if the copy failed
     */
    public long copyNextChunk(long maxBytes) {
        if (copyMethod != CopyMethod.PIPELINED) {
            throw new IllegalStateException(key + " is logged with " + copyMethod + ", not PIPELINED");
        }
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must be >= 0, got " + maxBytes);
        }
        while (true) {
            int s = state;
            if (s == LOGGED || s == FAILED) {
                return 0;
            }
            if (s == PENDING && STATE.compareAndSet(this, PENDING, CLAIMED)) {
                return copyClaimedChunk(maxBytes, true);
            }
            awaitClaimer(); // another thread (a receive's tee) copies: a bounded memory copy, no lock held
        }
    }

    /**
     * Claims a pipelined entry that no chunk has been copied into yet, for a transfer that logs every
     * chunk it moves ({@link PipelinedCopier}); the claimer then calls {@link #copyClaimedChunk} per
     * chunk. False if the copy is done, under way on another thread, or partly made: the caller then
     * only transfers, and the sender's {@link #awaitCopy()} makes or waits for the log copy.
     */
    boolean claimWholeCopy() {
        if (copyMethod != CopyMethod.PIPELINED || state != PENDING) {
            return false;
        }
        if (!STATE.compareAndSet(this, PENDING, CLAIMED)) {
            return false;
        }
        if (copy.copiedBytes != 0) {
            STATE.setVolatile(this, PENDING);
            return false;
        }
        return true;
    }

    /**
     * With the claim held: copies the next at most {@code maxBytes} into the log, then finishes the
     * entry if that was the last byte, or else gives the claim back if {@code release}.
     */
    long copyClaimedChunk(long maxBytes, boolean release) {
        Copy c = copy;
        long from = c.copiedBytes;
        long n = Math.min(maxBytes, lengthBytes - from);
        try {
            copyIntoExtents(c.source, c.sourceOffset, from, n);
        } catch (RuntimeException | InternalError e) {
            finish(e);
            throw new PayloadLogException(
                    PayloadLogException.Reason.COPY_FAILED,
                    "copying bytes [" + from + ", " + (from + n) + ") of " + key + " failed: " + e,
                    e);
        }
        c.copiedBytes = from + n;
        if (c.copiedBytes == lengthBytes) {
            finish(null);
        } else if (release) {
            STATE.setVolatile(this, PENDING);
        }
        return n;
    }

    /** Gives up a claim held across a transfer, unless the copy finished (or failed) meanwhile. */
    void releaseClaim() {
        STATE.compareAndSet(this, CLAIMED, PENDING);
    }

    /**
     * One turn of waiting for the thread that holds the claim. It may share the core with this one
     * (ranks outnumber cores), so the wait gives the core away rather than spin.
     */
    private static void awaitClaimer() {
        Thread.yield();
    }

    /** Bytes of the payload already in the log (all of them once the copy is done). */
    public long copiedBytes() {
        int s = state;
        if (s == LOGGED) {
            return lengthBytes;
        }
        return copyMethod == CopyMethod.PIPELINED ? copy.copiedBytes : 0;
    }

    /**
     * Copies the logged payload into {@code destination} at {@code destinationOffset}. Waits for a
     * helper-thread copy still in flight; a pack or pipelined copy must have been finished by its
     * sender (or an {@link IllegalStateException} says so). Safe from any thread of the rank while
     * the entry is live; a concurrent truncation frees the memory only after the read.
     *
     * @throws PayloadLogException ({@code PAYLOAD_UNAVAILABLE}) if the entry was truncated or the
     *     backend keeps no payloads, ({@code MAPPING_FAILED}) if a retired window cannot be mapped
     */
    public void readPayload(MemorySegment destination, long destinationOffset) {
        Objects.requireNonNull(destination, "destination");
        Objects.checkFromIndexSize(destinationOffset, lengthBytes, destination.byteSize());
        if (!isCopyDone() && copyMethod != CopyMethod.HELPER_THREAD) {
            // Pack and pipelined copies run on the sending thread; another thread cannot finish them.
            throw new IllegalStateException(
                    "the payload of " + key + " is still being copied by its sender (" + copyMethod + ")");
        }
        awaitCopy();
        log.readInto(this, destination, destinationOffset);
    }

    /** The logged payload as a new array (for messages shorter than 2 GiB). */
    public byte[] payloadToArray() {
        byte[] out = new byte[Math.toIntExact(lengthBytes)];
        readPayload(MemorySegment.ofArray(out), 0);
        return out;
    }

    // ---- called by PayloadLog and the copier --------------------------------------------------

    /** Runs on the copier thread; skips entries a waiting sender already copied itself. */
    void runOnHelper() {
        if (STATE.compareAndSet(this, PENDING, CLAIMED)) {
            copyAll();
        }
    }

    /** Copies everything now; used by pack and by a claimed helper-thread copy. */
    private void copyAll() {
        Throwable failed = null;
        try {
            copyIntoExtents(copy.source, copy.sourceOffset, 0, lengthBytes);
        } catch (RuntimeException | InternalError e) {
            // InternalError is how the JVM reports a fault on a mapped page the file system cannot back.
            failed = e;
        }
        finish(failed);
    }

    /** Pack: copy now and report a failure to the appending thread. */
    void copyAllAndThrow() {
        copyAll();
        if (state == FAILED) {
            awaitCopy();
        }
    }

    /** Pack of a short message while the log lock is held: no block use counts were taken. */
    void copyUnderLock(MemorySegment source, long sourceOffset) {
        try {
            copyIntoExtents(source, sourceOffset, 0, lengthBytes);
            state = LOGGED;
        } catch (RuntimeException | InternalError e) {
            Copy failed = new Copy(null, sourceOffset, CopyMethod.PACK);
            failed.failure = e;
            copy = failed;
            state = FAILED;
        }
    }

    boolean copyFailed() {
        return state == FAILED;
    }

    private void copyIntoExtents(MemorySegment source, long sourceOffset, long fromMessageOffset, long lengthToCopy) {
        long end = fromMessageOffset + lengthToCopy;
        long firstLength = moreExtents == null ? lengthBytes : moreExtents[0].messageOffsetBytes();
        copyIntoFragment(source, sourceOffset, fromMessageOffset, end, firstBlock, firstOffsetBytes, 0, firstLength);
        if (moreExtents != null) {
            for (Extent extent : moreExtents) {
                copyIntoFragment(
                        source,
                        sourceOffset,
                        fromMessageOffset,
                        end,
                        extent.block(),
                        extent.offsetBytes(),
                        extent.messageOffsetBytes(),
                        extent.lengthBytes());
            }
        }
    }

    /** Copies the part of message bytes [from, end) that falls in one fragment. */
    private void copyIntoFragment(
            MemorySegment source,
            long sourceOffset,
            long fromMessageOffset,
            long end,
            StorageBlock block,
            long blockOffset,
            long fragmentStart,
            long fragmentLength) {
        long from = Math.max(fromMessageOffset, fragmentStart);
        long to = Math.min(end, fragmentStart + fragmentLength);
        if (from >= to) {
            return;
        }
        MemorySegment target = block.segment;
        if (target == null) {
            throw new PayloadLogException(
                    PayloadLogException.Reason.CLOSED, "the log was closed before " + key + " was copied");
        }
        MemorySegment.copy(source, sourceOffset + from, target, blockOffset + (from - fragmentStart), to - from);
    }

    private void finish(Throwable failed) {
        Copy c = copy;
        c.failure = failed;
        c.source = null; // the application's buffer must not stay reachable from the log
        log.onCopyFinished(this);
        state = failed == null ? LOGGED : FAILED;
        if (c.helperDone != null) {
            c.helperDone.countDown();
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "LogEntry[" + key + ", " + lengthBytes + " bytes, " + copyMethod + "]";
    }
}
