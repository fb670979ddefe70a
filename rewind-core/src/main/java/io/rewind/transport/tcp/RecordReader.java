package io.rewind.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import io.rewind.engine.ControlCodec;
import io.rewind.engine.ControlMessage;
import io.rewind.engine.Frame;
import java.lang.foreign.MemorySegment;
import java.util.function.IntFunction;

/**
 * Reads the records ({@link WireFormat}) of one authenticated inbound connection, each cut out of the
 * stream with the length field stripped (by a {@link RecordStream} for a connection taken over from
 * Netty, or by a {@link LengthFieldBasedFrameDecoder} in a Netty pipeline), and hands frames and
 * control messages to the {@link InboundDispatcher}. Every length is checked against the record that
 * carries it before anything is allocated, so a sender can never make this side allocate more than it
 * has actually sent. A record that breaks the format (an unknown type, a payload length that disagrees
 * with the record, a negative field, a destination that is not this rank, a source that is not the
 * authenticated peer, a control message that does not decode) is refused: one logged line, the connection closed, the other
 * connections untouched. Nothing is thrown out of the pipeline.
 *
 * <p>Frames and control messages of an incarnation older than the newest heard of for their rank are
 * dropped (fenced), logged once per connection.
 */
final class RecordReader extends ChannelInboundHandlerAdapter {
    private final int worldRank;
    private final PeerIdentity peer;
    private final ControlCodec codec;
    private final InboundDispatcher inbound;
    private final Notices notices;
    /**
     * Allocates the bytes of received control messages (tests watch the sizes it is asked for; frame
     * payloads are lent to the sink, not allocated).
     */
    private final IntFunction<byte[]> payloads;

    private boolean refused;
    private boolean fenceLogged;
    /** Words the next frame carries, gathered from the piggyback records before it (null: none). */
    private long[] piggyback;

    RecordReader(
            int worldRank,
            PeerIdentity peer,
            ControlCodec codec,
            InboundDispatcher inbound,
            Notices notices,
            IntFunction<byte[]> payloads) {
        this.worldRank = worldRank;
        this.peer = peer;
        this.codec = codec;
        this.inbound = inbound;
        this.notices = notices;
        this.payloads = payloads;
    }

    PeerIdentity peer() {
        return peer;
    }

    /** Adds the record decoder and {@code reader} at the end of the pipeline. */
    static void install(ChannelPipeline pipeline, int maxPayloadBytes, RecordReader reader) {
        int maxRecord = WireFormat.recordBytes(maxPayloadBytes);
        pipeline.addLast(
                "records",
                new LengthFieldBasedFrameDecoder(
                        WireFormat.LENGTH_BYTES + maxRecord,
                        0,
                        WireFormat.LENGTH_BYTES,
                        0,
                        WireFormat.LENGTH_BYTES,
                        true)); // fail fast: refuse an over-long record when its length is read, not after it
        pipeline.addLast("reader", reader);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf record = (ByteBuf) msg;
        try {
            if (!refused) {
                String refusal = read(record);
                if (refusal != null) {
                    refuse(ctx, refusal);
                }
            }
        } finally {
            record.release();
        }
    }

    /** Reads one record (its length field stripped); returns why it is refused, or null. */
    String read(ByteBuf record) {
        if (!record.isReadable()) {
            return "an empty record";
        }
        byte type = record.readByte();
        return switch (type) {
            case WireFormat.FRAME -> readFrame(record, false, false);
            case WireFormat.SYNCHRONOUS_FRAME -> readFrame(record, true, false);
            case WireFormat.REPLAYED_FRAME -> readFrame(record, false, true);
            case WireFormat.CONTROL -> piggyback != null
                    ? "a control record after words for a frame"
                    : readControl(record);
            case WireFormat.PIGGYBACK -> readPiggyback(record);
            default -> "unknown record type " + type;
        };
    }

    private String readPiggyback(ByteBuf in) {
        if (in.readableBytes() < Integer.BYTES) {
            return "a piggyback record of " + in.readableBytes() + " bytes after its type";
        }
        int n = in.readInt();
        if (n < 1 || (long) n * Long.BYTES != in.readableBytes()) {
            return n + " piggybacked words in a record of " + in.readableBytes() + " bytes";
        }
        int have = piggyback == null ? 0 : piggyback.length;
        if ((long) have + n > WireFormat.MAX_PIGGYBACK_WORDS) {
            return "more than " + WireFormat.MAX_PIGGYBACK_WORDS + " piggybacked words for one frame";
        }
        long[] words = piggyback == null ? new long[n] : java.util.Arrays.copyOf(piggyback, have + n);
        for (int i = have; i < have + n; i++) {
            words[i] = in.readLong();
        }
        piggyback = words;
        return null;
    }

    private String readFrame(ByteBuf in, boolean synchronous, boolean replayed) {
        long[] words = piggyback;
        piggyback = null;
        if (in.readableBytes() < WireFormat.FRAME_HEADER_BYTES) {
            return "a frame record of " + in.readableBytes() + " bytes after its type, shorter than a frame header";
        }
        int context = in.readInt();
        int source = in.readInt();
        int sourceWorld = in.readInt();
        int destinationWorld = in.readInt();
        int tag = in.readInt();
        long sequence = in.readLong();
        int incarnation = in.readInt();
        int patternId = in.readInt();
        int iterationId = in.readInt();
        int line = in.readInt();
        int digest = in.readInt();
        long length = in.readLong();
        if (length != in.readableBytes()) {
            return "a payload length of " + length + " in a record that holds " + in.readableBytes()
                    + " bytes of payload";
        }
        if (context < 0
                || source < 0
                || sourceWorld < 0
                || destinationWorld < 0
                || tag < 0
                || sequence < 0
                || incarnation < 0
                || patternId < 0
                || iterationId < 0
                || line < 0) {
            return "a negative field in a frame header";
        }
        if (sourceWorld != peer.worldRank()) {
            return "a frame of rank " + sourceWorld + " on the connection of rank " + peer.worldRank();
        }
        if (destinationWorld != worldRank) {
            return "a frame for rank " + destinationWorld + " at rank " + worldRank;
        }
        if (!admitted(sourceWorld, incarnation)) {
            return null;
        }
        // The payload is lent, not copied: a view of the record, valid while the sink takes the frame
        // (a receive already posted copies it straight into its buffer; a frame that waits is copied
        // by the mailbox), so a matched message is copied once after the socket read, not twice.
        MemorySegment payload =
                length == 0 ? MemorySegment.NULL : MemorySegment.ofBuffer(in.nioBuffer(in.readerIndex(), (int) length));
        in.skipBytes((int) length);
        Frame f = new Frame(
                context, source, sourceWorld, destinationWorld, tag, sequence, incarnation, payload, 0, length, null);
        f.setPattern(patternId, iterationId);
        f.setLine(line);
        f.setDigest(digest);
        f.setPiggyback(words);
        if (synchronous) {
            f.markSynchronous();
        }
        if (replayed) {
            f.markReplayed();
        }
        inbound.frame(f);
        return null;
    }

    private String readControl(ByteBuf in) {
        byte[] bytes = payloads.apply(in.readableBytes());
        in.readBytes(bytes);
        ControlMessage m;
        try {
            m = codec.decode(bytes);
        } catch (IllegalArgumentException e) {
            return "a control message that does not decode: " + e.getMessage();
        }
        if (m.sourceWorld() != peer.worldRank()) {
            return "a control message of rank " + m.sourceWorld() + " on the connection of rank " + peer.worldRank();
        }
        if (admitted(m.sourceWorld(), m.incarnation())) {
            inbound.control(m);
        }
        return null;
    }

    /** Whether the incarnation may still send; a fenced one is logged the first time on this connection. */
    private boolean admitted(int rank, int incarnation) {
        if (inbound.admit(rank, incarnation)) {
            return true;
        }
        if (!fenceLogged) {
            fenceLogged = true;
            notices.note("dropping what incarnation " + incarnation + " of rank " + rank + " sends to rank " + worldRank
                    + ": incarnation " + inbound.newest(rank) + " is alive");
        }
        return false;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // The record decoder's refusals (a record longer than the maximum; the length field is read
        // unsigned, so a negative one is a very long record) and
        // anything a sink throws end here: only this connection is closed.
        refuse(
                ctx,
                cause instanceof TooLongFrameException
                        ? "a record longer than the maximum (" + cause.getMessage() + ")"
                        : String.valueOf(cause));
    }

    private void refuse(ChannelHandlerContext ctx, String reason) {
        if (refused) {
            return;
        }
        refused = true;
        notices.refused("a record of rank " + peer.worldRank(), ctx.channel().remoteAddress(), reason);
        ctx.close();
    }
}
