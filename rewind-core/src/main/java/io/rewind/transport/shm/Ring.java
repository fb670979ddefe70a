package io.rewind.transport.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;

/**
 * One directed pair of rank incarnations on a host: a single-producer, single-consumer ring of records
 * over the file {@code ring-S.J-R.K} (sender S incarnation J, receiver R incarnation K). The producer is
 * the sender's process (its threads take turns under the sender's lock), the consumer the receiver's
 * (its rank thread and poller take turns under the receiver's read guard).
 *
 * <p>Layout: the producer's position (a long, bytes written since the ring was made) on a cache line of
 * its own, the consumer's position on the next, then the data, a power of two of bytes. A record is an
 * 8-byte header (int length of what follows, int type) and its bytes, padded to 8; a record that would
 * not fit before the end of the data is preceded by a padding record to the end. The producer writes a
 * record whole, then publishes its new position (release); the consumer reads up to the position it
 * sees (acquire), then publishes its own. Nothing is zeroed, and a sender killed while it wrote a record
 * leaves nothing the receiver reads: its position never moved. The ring belongs to that one pair of
 * incarnations, and the receiver drops it when it hears of the sender's next incarnation, which gets
 * rings of its own.
 *
 * <p>The consumer checks each header it reads against the ring (a length that runs past what was
 * published, an unknown padding) and reports a broken ring rather than read past it.
 */
final class Ring {
    static final int HEADER_BYTES = 8;
    static final int PADDING = -1;
    /** A record claimed and then given up: read and ignored. */
    static final int SKIP = -2;

    private static final long PRODUCER = 0;
    private static final long CONSUMER = 128;
    private static final long DATA = 256;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    /** The whole file, kept so that its mapping lives as long as this ring. */
    @SuppressWarnings("unused")
    private final MappedByteBuffer mapped;

    private final MemorySegment file;
    /** The data part. */
    private final MemorySegment data;

    private final int capacity;
    private final int mask;
    /** The producer's position and the consumer's position last seen (producer side). */
    private long tail;

    private long headSeen;
    /** The consumer's position and the producer's position last seen (consumer side). */
    private long head;

    private long tailSeen;

    Ring(MappedByteBuffer mapped) {
        this.mapped = mapped;
        this.file = MemorySegment.ofBuffer(mapped);
        long bytes = file.byteSize() - DATA;
        if (bytes < 1024 || Long.bitCount(bytes) != 1 || bytes > (1 << 30)) {
            throw new IllegalStateException(
                    "a ring file of " + file.byteSize() + " bytes (data must be a power of two)");
        }
        this.capacity = (int) bytes;
        this.mask = capacity - 1;
        this.data = file.asSlice(DATA, capacity);
        this.tail = (long) LONG.getAcquire(file, PRODUCER);
        this.headSeen = (long) LONG.getAcquire(file, CONSUMER);
        this.head = headSeen;
        this.tailSeen = tail;
    }

    static String fileName(int sender, int senderIncarnation, int receiver, int receiverIncarnation) {
        return "ring-" + sender + "." + senderIncarnation + "-" + receiver + "." + receiverIncarnation;
    }

    /** The file length of a ring of {@code capacity} bytes of data (a power of two). */
    static int fileBytes(int capacity) {
        return (int) DATA + capacity;
    }

    /** The longest record's bytes (after its header): an eighth of the ring. */
    int maxRecord() {
        return capacity / 8 - HEADER_BYTES;
    }

    /** The data: a record's bytes are at the offset {@link #claim} or the reader hands out. */
    MemorySegment data() {
        return data;
    }

    // --- the sender's side (one thread at a time) --------------------------------------------------

    /**
     * Room for a record of {@code length} bytes ({@link #maxRecord} at most): the offset in {@link #data}
     * where its bytes go, or -1 if there is no room now. The record is seen by the receiver once {@link
     * #commit commit} publishes it; until then another claim must not be made.
     */
    int claim(int type, int length) {
        int record = align(HEADER_BYTES + length);
        int index = (int) tail & mask;
        int toEnd = capacity - index;
        int needed = record <= toEnd ? record : record + toEnd;
        if (capacity - (tail - headSeen) < needed) {
            headSeen = (long) LONG.getAcquire(file, CONSUMER);
            if (capacity - (tail - headSeen) < needed) {
                return -1;
            }
        }
        if (record > toEnd) {
            data.set(ValueLayout.JAVA_INT, index, toEnd - HEADER_BYTES);
            data.set(ValueLayout.JAVA_INT, index + 4, PADDING);
            tail += toEnd;
            index = 0;
        }
        data.set(ValueLayout.JAVA_INT, index, length);
        data.set(ValueLayout.JAVA_INT, index + 4, type);
        pending = record;
        pendingIndex = index;
        return index + HEADER_BYTES;
    }

    /** The claimed record's length with its header and padding, and where it starts. */
    private int pending;

    private int pendingIndex;

    /** Publishes the record claimed last (and the padding before it, if any). */
    void commit() {
        tail += pending;
        pending = 0;
        LONG.setRelease(file, PRODUCER, tail);
    }

    /** Gives up the record claimed last: it is published as one the receiver skips. */
    void abort() {
        data.set(ValueLayout.JAVA_INT, pendingIndex + 4, SKIP);
        commit();
    }

    /** How far the receiver has read (bytes since the ring was made): progress, for the stall timeout. */
    long consumed() {
        return (long) LONG.getAcquire(file, CONSUMER);
    }

    // --- the receiver's side (one thread at a time) ------------------------------------------------

    /** What the reader does with each record. */
    interface Reader {
        /**
         * One record: {@code type}, and {@code length} bytes at {@code offset} in {@link #data}.
         *
         * @return false to stop reading this ring (it is refused); the record counts as read
         */
        boolean record(int type, int offset, int length);
    }

    /** Whether a published record waits. */
    boolean hasRecord() {
        return (long) LONG.getAcquire(file, PRODUCER) != head;
    }

    /**
     * Hands at most {@code limit} records to {@code reader}, then publishes how far it read.
     *
     * @return how many records were read, or -1 if the ring is broken (a header that does not fit) or
     *     the reader refused it
     */
    int read(Reader reader, int limit) {
        long t = tailSeen;
        if (t == head) {
            t = (long) LONG.getAcquire(file, PRODUCER);
            if (t == head) {
                return 0;
            }
            tailSeen = t;
        }
        int n = 0;
        boolean ok = true;
        try {
            while (head < t && n < limit) {
                int index = (int) head & mask;
                int length = data.get(ValueLayout.JAVA_INT, index);
                int type = data.get(ValueLayout.JAVA_INT, index + 4);
                int record = length < 0 || length > capacity ? -1 : align(HEADER_BYTES + length);
                if (record < 0 || index + record > capacity || head + record > t) {
                    return -1; // a header that runs past the ring or past what was published
                }
                head += record;
                if (type == PADDING) {
                    if (index + record != capacity) {
                        return -1; // padding only ever runs to the end of the data
                    }
                    continue;
                }
                if (type == SKIP) {
                    continue;
                }
                n++;
                if (!reader.record(type, index + HEADER_BYTES, length)) {
                    ok = false;
                    break;
                }
            }
        } finally {
            LONG.setRelease(file, CONSUMER, head);
        }
        return ok ? n : -1;
    }

    private static int align(int bytes) {
        return (bytes + 7) & ~7;
    }
}
