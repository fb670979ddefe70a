package io.rewind.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.rewind.engine.Frame;
import io.rewind.engine.StagedPayload;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The records that follow the {@link Handshake} on a connection, always from the connecting side to
 * the accepting one. Big-endian. Every record is {@code int length} (of what follows it, at least 1),
 * {@code byte type}, then:
 *
 * <ul>
 *   <li>{@link #FRAME}: a {@value #FRAME_HEADER_BYTES}-byte header, context (int), source (int),
 *       sourceWorld (int), destinationWorld (int), tag (int), sequence (long), incarnation (int),
 *       patternId (int), iterationId (int), line (int: the newest recovery line the sender had written,
 *       {@link Frame#line()}), digest (int: {@link Frame#digest()}, 0 for none), payload length (long),
 *       then the payload bytes. No field but the digest is negative, and the payload length is exactly
 *       what the record has left after the header.
 *   <li>{@link #REPLAYED_FRAME}: a {@link #FRAME} replayed from its sender's log ({@link
 *       Frame#isReplayed()}).
 *   <li>{@link #CONTROL}: the bytes of the job's {@link io.rewind.engine.ControlCodec}, to the end of
 *       the record.
 *   <li>{@link #PIGGYBACK}: words the next frame carries for the receiving rank's protocol ({@link
 *       Frame#piggyback()}): a count (int), then that many longs, exactly to the end of the record.
 *       Words too many for one record go in several, back to back; the frame follows the last one, in
 *       the same write, and takes them all.
 * </ul>
 *
 * <p>A record is at most {@link #recordBytes(int) recordBytes(maxPayloadBytes)} long; every process of a
 * job must use the same maximum.
 */
final class WireFormat {
    static final byte FRAME = 1;
    static final byte CONTROL = 2;
    /** A {@link #FRAME} of a synchronous send: the receiver acknowledges its match ({@link io.rewind.engine.MatchNotice}). */
    static final byte SYNCHRONOUS_FRAME = 3;
    /** Words for the next frame ({@link Frame#piggyback()}). */
    static final byte PIGGYBACK = 4;
    /** A {@link #FRAME} replayed from its sender's log: its receiver checks it against its digest. */
    static final byte REPLAYED_FRAME = 5;
    /** The most words the frames of one connection may carry: a sender that sends more is refused. */
    static final int MAX_PIGGYBACK_WORDS = 1 << 24;
    /** The length field in front of every record. */
    static final int LENGTH_BYTES = Integer.BYTES;
    /**
     * context, source, sourceWorld, destinationWorld, tag, sequence, incarnation, patternId, iterationId,
     * line, digest, length.
     */
    static final int FRAME_HEADER_BYTES = 5 * Integer.BYTES + Long.BYTES + 5 * Integer.BYTES + Long.BYTES;
    /** The type byte and the frame header: what a frame record holds besides its payload. */
    static final int FRAME_OVERHEAD_BYTES = 1 + FRAME_HEADER_BYTES;

    private WireFormat() {}

    /** The longest record (after its length field) that carries a payload of {@code maxPayloadBytes}. */
    static int recordBytes(int maxPayloadBytes) {
        return Math.addExact(maxPayloadBytes, FRAME_OVERHEAD_BYTES);
    }

    /**
     * Why the frame cannot go on the wire (a negative identity field), or null. The receiver checks the
     * same, so the sender refuses it rather than have the receiver close the connection.
     */
    static String invalid(Frame f) {
        if (f.context() < 0
                || f.source() < 0
                || f.sourceWorld() < 0
                || f.destinationWorld() < 0
                || f.tag() < 0
                || f.sequence() < 0
                || f.incarnation() < 0
                || f.patternId() < 0
                || f.iterationId() < 0
                || f.line() < 0
                || f.lengthBytes() < 0) {
            return "a negative identity field in " + f + " (pattern " + f.patternId() + "/" + f.iterationId()
                    + ", line " + f.line() + ")";
        }
        return null;
    }

    /** The frame as one record, length field included, its payload copied now. */
    static ByteBuf encodeFrame(ByteBufAllocator alloc, Frame f, int maxPayloadBytes) {
        return encodeFrame(alloc, f, maxPayloadBytes, null);
    }

    /**
     * The frame as one record, length field included: with its payload copied now, or, given the
     * payload where the sender already staged it, the header followed by that memory, which the
     * record holds (and releases with itself) instead of a copy.
     *
     * @param staged taken over: released with the record, or at once if encoding fails
     */
    static ByteBuf encodeFrame(ByteBufAllocator alloc, Frame f, int maxPayloadBytes, StagedPayload staged) {
        if (staged == null) {
            return encodeHeaderAndPayload(alloc, f, maxPayloadBytes, true);
        }
        ByteBuf header = null;
        CompositeByteBuf record = null;
        try {
            header = encodeHeaderAndPayload(alloc, f, maxPayloadBytes, false);
            ByteBuffer[] buffers = staged.buffers();
            long stagedBytes = 0;
            for (ByteBuffer b : buffers) {
                stagedBytes += b.remaining();
            }
            if (stagedBytes != f.lengthBytes()) {
                throw new IllegalArgumentException(
                        "a staged payload of " + stagedBytes + " bytes for " + f + " of " + f.lengthBytes());
            }
            record = alloc.compositeDirectBuffer(1 + buffers.length);
            record.addComponent(true, header);
            header = null;
            for (int i = 0; i < buffers.length; i++) {
                // The first piece carries the release: it goes when the record goes.
                record.addComponent(true, new StagedPiece(buffers[i].duplicate(), i == 0 ? staged : null));
                if (i == 0) {
                    staged = null;
                }
            }
            ByteBuf done = record;
            record = null;
            return done;
        } finally {
            if (header != null) {
                header.release();
            }
            if (record != null) {
                record.release();
            }
            if (staged != null) {
                staged.release();
            }
        }
    }

    private static ByteBuf encodeHeaderAndPayload(
            ByteBufAllocator alloc, Frame f, int maxPayloadBytes, boolean withPayload) {
        int payload = Math.toIntExact(f.lengthBytes());
        int record = FRAME_OVERHEAD_BYTES + payload;
        long[] words = f.piggyback();
        int perRecord = piggybackWordsPerRecord(maxPayloadBytes);
        int piggybackBytes = 0;
        if (words != null) {
            if (words.length > MAX_PIGGYBACK_WORDS) {
                throw new IllegalArgumentException(
                        "a frame carrying " + words.length + " protocol words, more than " + MAX_PIGGYBACK_WORDS);
            }
            int records = (words.length + perRecord - 1) / perRecord;
            piggybackBytes = records * (LENGTH_BYTES + 1 + Integer.BYTES) + words.length * Long.BYTES;
        }
        ByteBuf buf = alloc.directBuffer(piggybackBytes + LENGTH_BYTES + (withPayload ? record : FRAME_OVERHEAD_BYTES));
        try {
            if (words != null) {
                for (int from = 0; from < words.length; from += perRecord) {
                    int n = Math.min(perRecord, words.length - from);
                    buf.writeInt(1 + Integer.BYTES + n * Long.BYTES)
                            .writeByte(PIGGYBACK)
                            .writeInt(n);
                    for (int i = from; i < from + n; i++) {
                        buf.writeLong(words[i]);
                    }
                }
            }
            buf.writeInt(record)
                    .writeByte(f.isSynchronous() ? SYNCHRONOUS_FRAME : f.isReplayed() ? REPLAYED_FRAME : FRAME)
                    .writeInt(f.context())
                    .writeInt(f.source())
                    .writeInt(f.sourceWorld())
                    .writeInt(f.destinationWorld())
                    .writeInt(f.tag())
                    .writeLong(f.sequence())
                    .writeInt(f.incarnation())
                    .writeInt(f.patternId())
                    .writeInt(f.iterationId())
                    .writeInt(f.line())
                    .writeInt(f.digest())
                    .writeLong(payload);
            if (withPayload && payload > 0) {
                int at = buf.writerIndex();
                buf.ensureWritable(payload);
                f.copyPayloadTo(window(buf, at, payload), 0); // through the log's tee, if the frame has one
                buf.writerIndex(at + payload);
            }
            return buf;
        } catch (RuntimeException e) {
            buf.release();
            throw e;
        }
    }

    /** As {@link #encodeFrame(ByteBufAllocator, Frame, int)} with the default maximum payload. */
    static ByteBuf encodeFrame(ByteBufAllocator alloc, Frame f) {
        return encodeFrame(alloc, f, 1 << 20);
    }

    /** Piggybacked words one record holds, so that it is no longer than the longest frame record. */
    static int piggybackWordsPerRecord(int maxPayloadBytes) {
        return Math.max(1, (recordBytes(maxPayloadBytes) - 1 - Integer.BYTES) / Long.BYTES);
    }

    /** A control message's codec bytes as one record, length field included. */
    static ByteBuf encodeControl(ByteBufAllocator alloc, byte[] message) {
        int record = 1 + message.length;
        return alloc.buffer(LENGTH_BYTES + record)
                .writeInt(record)
                .writeByte(CONTROL)
                .writeBytes(message);
    }

    /** {@code length} bytes of the buffer's memory from {@code index}, as a segment to copy into. */
    private static MemorySegment window(ByteBuf buf, int index, int length) {
        if (buf.hasArray()) {
            return MemorySegment.ofArray(buf.array()).asSlice(buf.arrayOffset() + index, length);
        }
        if (buf.nioBufferCount() == 1 && buf.isDirect()) {
            return MemorySegment.ofBuffer(buf.nioBuffer(index, length));
        }
        // A buffer in several pieces would give us a copy of itself, and the payload would be lost.
        throw new IllegalStateException("a record buffer must be contiguous: " + buf);
    }

    /** A staged payload's buffer as a piece of a record; the piece that carries the release runs it when freed. */
    private static final class StagedPiece extends UnpooledDirectByteBuf {
        private final StagedPayload release;

        StagedPiece(ByteBuffer buffer, StagedPayload release) {
            super(UnpooledByteBufAllocator.DEFAULT, buffer, buffer.remaining());
            this.release = release;
        }

        @Override
        protected void deallocate() {
            super.deallocate();
            if (release != null) {
                release.release();
            }
        }
    }
}
