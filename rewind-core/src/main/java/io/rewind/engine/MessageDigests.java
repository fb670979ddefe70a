package io.rewind.engine;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The short digest of a message that replay verification compares: a CRC-32C of its identity
 * (context, source, sending and receiving world ranks, tag, per-channel sequence number) and of its
 * payload. A sender-logging protocol takes it when a logged message is first sent; the message
 * carries it to its receiver, which keeps it ({@link ReceivedDigests}), and the sender's log keeps it
 * beside the payload. A replayed message is checked against it on arrival, and a send that a
 * restarted rank re-executes and skips (its receiver already holds it) against the receiver's copy:
 * a re-execution that differs from the original, or a log that changed, is found where it happens
 * instead of showing later as a wrong result.
 *
 * <p>CRC-32C because the JDK computes it with the processor's CRC instructions, at several bytes per
 * cycle: the digest costs one read of the payload. It finds every change of up to three bits and any
 * burst of up to 32, and other changes but for one in four billion; it is a check against protocol
 * faults, not against an adversary. The value 0 means "no digest", so a digest that comes out 0 is
 * taken as 1.
 */
public final class MessageDigests {
    /** Payloads in heap arrays of other types than bytes go through a scratch buffer this long. */
    private static final int SCRATCH_BYTES = 16 << 10;

    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[SCRATCH_BYTES]);

    /** Where a message's identity is laid out to be digested, one per thread: a send allocates nothing here. */
    private static final ThreadLocal<ByteBuffer> IDENTITY =
            ThreadLocal.withInitial(() -> ByteBuffer.allocate(5 * Integer.BYTES + Long.BYTES));

    private MessageDigests() {}

    /** The digest of {@code frame} as it is now: its identity and its payload. */
    public static int of(Frame frame) {
        return of(
                frame.context,
                frame.source,
                frame.sourceWorld,
                frame.destinationWorld,
                frame.tag,
                frame.sequence,
                frame.data,
                frame.dataOffset,
                frame.lengthBytes);
    }

    /** The digest of a message with this identity whose payload is {@code length} bytes of {@code data} at {@code offset}. */
    public static int of(
            int context,
            int source,
            int sourceWorld,
            int destinationWorld,
            int tag,
            long sequence,
            MemorySegment data,
            long offset,
            long length) {
        CRC32C crc = new CRC32C();
        ByteBuffer identity = IDENTITY.get().clear();
        identity.putInt(context)
                .putInt(source)
                .putInt(sourceWorld)
                .putInt(destinationWorld)
                .putInt(tag)
                .putLong(sequence)
                .flip();
        crc.update(identity);
        if (length > 0) {
            update(crc, data, offset, length);
        }
        int digest = (int) crc.getValue();
        return digest == 0 ? 1 : digest;
    }

    private static void update(CRC32C crc, MemorySegment data, long offset, long length) {
        if (data.isNative() || data.isMapped()) {
            long done = 0;
            while (done < length) {
                // A ByteBuffer view holds at most 2 GiB.
                int n = (int) Math.min(length - done, Integer.MAX_VALUE);
                crc.update(data.asSlice(offset + done, n).asByteBuffer());
                done += n;
            }
            return;
        }
        Object base = data.heapBase().orElse(null);
        if (base instanceof byte[] bytes && data.address() + offset + length <= bytes.length) {
            crc.update(bytes, (int) (data.address() + offset), (int) length);
            return;
        }
        // An array of ints, doubles, ...: its bytes as the segment lays them out, a piece at a time.
        byte[] scratch = SCRATCH.get();
        MemorySegment window = MemorySegment.ofArray(scratch);
        long done = 0;
        while (done < length) {
            int n = (int) Math.min(length - done, scratch.length);
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, offset + done, window, ValueLayout.JAVA_BYTE, 0, n);
            crc.update(scratch, 0, n);
            done += n;
        }
    }
}
