package io.rewind.transport.tcp;

import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;

/**
 * Cuts the byte stream of one inbound connection into records ({@link WireFormat}) and hands each,
 * length field stripped, to its {@link RecordReader}. The stream is read straight into one direct
 * buffer, which holds the unread bytes and grows, by doubling and only when full, up to the longest
 * record: it never holds more than twice what was sent, a record longer than the maximum is refused as
 * soon as its length is read, and the reader allocates a payload only for a complete record. Once grown
 * it stays (up to {@value #KEEP_MAX_BYTES} bytes), so long messages are read without copying the
 * buffered part again.
 *
 * <p>Used by one thread at a time (the {@link IoPoller}'s reading guard).
 */
final class RecordStream {
    static final int INITIAL_BYTES = 64 << 10;
    /** A buffer grown beyond this is let go once the record that needed it is read. */
    static final int KEEP_MAX_BYTES = 16 << 20;

    private final int maxRecordBytes;
    private final RecordReader reader;
    /** In write mode: {@code [0, position)} holds bytes received and not yet read as records. */
    private ByteBuffer buffer;

    RecordStream(int maxPayloadBytes, RecordReader reader) {
        this.maxRecordBytes = WireFormat.recordBytes(maxPayloadBytes);
        this.reader = reader;
        this.buffer = ByteBuffer.allocateDirect(INITIAL_BYTES);
    }

    RecordReader reader() {
        return reader;
    }

    /** Where to put received bytes: the buffer in write mode, with room for at least one byte. */
    ByteBuffer writable() {
        if (!buffer.hasRemaining()) {
            ByteBuffer grown = ByteBuffer.allocateDirect(
                    (int) Math.min((long) WireFormat.LENGTH_BYTES + maxRecordBytes, 2L * buffer.capacity()));
            buffer.flip();
            grown.put(buffer);
            buffer = grown;
        }
        return buffer;
    }

    /** Copies {@code bytes} in, as if received (what a handshake decoder had read beyond the handshake). */
    void append(ByteBuffer bytes) {
        while (bytes.hasRemaining()) {
            ByteBuffer to = writable();
            int n = Math.min(to.remaining(), bytes.remaining());
            to.put(bytes.slice(bytes.position(), n));
            bytes.position(bytes.position() + n);
        }
    }

    /**
     * Hands every complete record received on to the reader.
     *
     * @return why the connection is refused (a record longer than the maximum, or the reader's reason),
     *     or null
     */
    String drain() {
        buffer.flip();
        int at = 0;
        String refusal = null;
        int end = buffer.limit();
        while (end - at >= WireFormat.LENGTH_BYTES) {
            long length = Integer.toUnsignedLong(buffer.getInt(at));
            if (length > maxRecordBytes) {
                refusal = "a record longer than the maximum (" + length + " > " + maxRecordBytes + " bytes)";
                break;
            }
            if (end - at - WireFormat.LENGTH_BYTES < length) {
                break;
            }
            ByteBuffer record = buffer.slice(at + WireFormat.LENGTH_BYTES, (int) length);
            at += WireFormat.LENGTH_BYTES + (int) length;
            refusal = reader.read(Unpooled.wrappedBuffer(record));
            if (refusal != null) {
                break;
            }
        }
        if (refusal != null) {
            buffer.clear();
            return refusal;
        }
        if (at == 0) {
            // Nothing read: back to write mode without moving the bytes (a long record arriving in many
            // reads would otherwise be moved once per read).
            buffer.position(end).limit(buffer.capacity());
        } else if (at == end && buffer.capacity() > KEEP_MAX_BYTES) {
            buffer = ByteBuffer.allocateDirect(INITIAL_BYTES);
        } else {
            buffer.position(at);
            buffer.compact();
        }
        return null;
    }

    /** The buffer's size (tests check it never grows beyond twice what was received). */
    int capacity() {
        return buffer.capacity();
    }

    /** Bytes received and not read as records yet (tests). */
    int buffered() {
        return buffer.position();
    }
}
