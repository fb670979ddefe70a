package io.rewind.ft.log;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Layout of one storage block: an off-heap block or one window of the mapped file. A block is
 * self-describing so that it can be handed whole to a logger node, saved with a checkpoint, or
 * scanned to rebuild an index, without the on-heap index that normally describes it.
 *
 * <pre>
 *  block (capacity C, a multiple of 4096 bytes)
 *  +----------+-----------+----------+-----------+-----+----------+-----------+-----+-------------+
 *  | header 0 | payload 0 | header 1 | payload 1 | ... | header n | payload n | END | unused tail |
 *  +----------+-----------+----------+-----------+-----+----------+-----------+-----+-------------+
 *  0          56          ^ every header starts on an 8-byte boundary; payloads are zero..7 bytes
 *                           short of the next one (padding, contents unspecified)
 *  END is a 4-byte zero written after the last record whenever room remains: a reused block may
 *  still contain older records beyond it.
 *
 *  fragment header (56 bytes, little-endian, so blocks read the same on any host)
 *   off  size  field
 *     0     4  magic 0x4C505752 ("RWPL" in memory order)
 *     4     4  flags: bit 0 first fragment of the message, bit 1 last fragment
 *     8     4  communicator context id
 *    12     4  source rank
 *    16     4  destination rank
 *    20     4  tag
 *    24     8  per-channel sequence number
 *    32     4  sender incarnation
 *    36     4  fragment length in bytes (payload bytes that follow this header)
 *    40     8  message length in bytes
 *    48     8  offset of this fragment within the message
 *    56        payload fragment
 * </pre>
 *
 * A message longer than the space left in a block is split into fragments, one per block, each
 * with its own header; a zero-length message is one header with no payload. A record only starts
 * in a block with room for its header and 8 payload bytes, so fragments are never tiny.
 */
public final class LogBlockFormat {

    /** Bytes of one fragment header. */
    public static final int HEADER_BYTES = 56;
    /** Marks a record; zero marks the end of the records of a block. */
    public static final int MAGIC = 0x4C505752;
    /** Flag: this fragment starts the message. */
    public static final int FLAG_FIRST = 1;
    /** Flag: this fragment ends the message. */
    public static final int FLAG_LAST = 2;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final int[] END = {0};

    private static final int HEADER_WORDS = HEADER_BYTES / Long.BYTES;

    private LogBlockFormat() {}

    /** Two little-endian ints as the word that holds {@code low} at its lower address. */
    private static long pack(int low, int high) {
        return (low & 0xffffffffL) | ((long) high << 32);
    }

    /**
     * One decoded fragment header.
     *
     * @param key envelope of the message
     * @param flags {@link #FLAG_FIRST} and {@link #FLAG_LAST}
     * @param payloadOffsetInBlock where the fragment's payload starts in the block
     * @param fragmentLengthBytes payload bytes of this fragment
     * @param messageLengthBytes payload bytes of the whole message
     * @param fragmentOffsetBytes offset of this fragment within the message
     */
    public record Fragment(
            MessageKey key,
            int flags,
            long payloadOffsetInBlock,
            long fragmentLengthBytes,
            long messageLengthBytes,
            long fragmentOffsetBytes) {

        public boolean isFirst() {
            return (flags & FLAG_FIRST) != 0;
        }

        public boolean isLast() {
            return (flags & FLAG_LAST) != 0;
        }
    }

    /** Rounds up to the next multiple of 8, the record alignment. */
    static long align8(long bytes) {
        return (bytes + 7) & ~7L;
    }

    static void writeHeader(
            MemorySegment block,
            long at,
            MessageKey key,
            int flags,
            long fragmentLengthBytes,
            long messageLengthBytes,
            long fragmentOffsetBytes) {
        // Packed into words and written by one bulk copy: eleven field writes each pay the segment's
        // checks (liveness, bounds, alignment), which on a log of many short messages was a third of
        // what an entry cost. Little-endian words hold their lower-addressed int in the low half.
        long[] words = {
            pack(MAGIC, flags),
            pack(key.contextId(), key.source()),
            pack(key.destination(), key.tag()),
            key.sequence(),
            pack(key.incarnation(), Math.toIntExact(fragmentLengthBytes)),
            messageLengthBytes,
            fragmentOffsetBytes
        };
        MemorySegment.copy(words, 0, block, LONG, at, HEADER_WORDS);
    }

    /** Bytes one whole message of {@code payloadBytes} takes as a record (header, payload, padding). */
    public static long recordBytes(long payloadBytes) {
        return HEADER_BYTES + align8(payloadBytes);
    }

    /**
     * Writes the header of a whole message (one fragment, first and last) at {@code at}; its payload goes
     * at {@code at + HEADER_BYTES}. For blocks assembled outside the log, such as dumps to a logger node.
     */
    public static void writeWholeMessageHeader(MemorySegment block, long at, MessageKey key, long lengthBytes) {
        writeHeader(block, at, key, FLAG_FIRST | FLAG_LAST, lengthBytes, lengthBytes, 0);
    }

    /**
     * The integrity check of a block that leaves the log (CRC-32C of its bytes): written by whoever
     * sends it, verified by whoever reads it back.
     */
    public static int checksum(MemorySegment block) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(block.asByteBuffer());
        return (int) crc.getValue();
    }

    /** Marks the end of the records at {@code at} (when room remains). */
    public static void writeEnd(MemorySegment block, long at) {
        if (at + 4 <= block.byteSize()) {
            MemorySegment.copy(END, 0, block, INT, at, 1); // a bulk copy: see writeHeader
        }
    }

    /**
     * Decodes the records of one block, in the order they were appended.
     *
     * @throws IllegalArgumentException if the block is malformed (bad magic, a record running past
     *     the end of the block)
     */
    public static List<Fragment> scan(MemorySegment block) {
        List<Fragment> out = new ArrayList<>();
        long at = 0;
        long size = block.byteSize();
        while (at + 4 <= size) {
            int magic = block.get(INT, at);
            if (magic == 0) {
                break;
            }
            if (magic != MAGIC || at + HEADER_BYTES > size) {
                throw new IllegalArgumentException("malformed payload log block: bad record at offset " + at);
            }
            MessageKey key = new MessageKey(
                    block.get(INT, at + 8),
                    block.get(INT, at + 12),
                    block.get(INT, at + 16),
                    block.get(INT, at + 20),
                    block.get(LONG, at + 24),
                    block.get(INT, at + 32));
            int flags = block.get(INT, at + 4);
            long fragmentLength = block.get(INT, at + 36);
            long messageLength = block.get(LONG, at + 40);
            long fragmentOffset = block.get(LONG, at + 48);
            long payloadAt = at + HEADER_BYTES;
            if (fragmentLength < 0 || payloadAt + fragmentLength > size) {
                throw new IllegalArgumentException(
                        "malformed payload log block: record at offset " + at + " runs past the block end");
            }
            out.add(new Fragment(key, flags, payloadAt, fragmentLength, messageLength, fragmentOffset));
            at = payloadAt + align8(fragmentLength);
        }
        return out;
    }
}
