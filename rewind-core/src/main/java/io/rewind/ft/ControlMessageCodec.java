package io.rewind.ft;

import io.rewind.engine.ControlCodec;
import io.rewind.engine.ControlMessage;
import io.rewind.engine.IncarnationNotice;
import io.rewind.engine.MatchNotice;
import io.rewind.engine.SendCancellation;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * The wire form of every control message a job sends: the engine's incarnation and match notices and
 * its send cancellations ({@link SendCancellation}), and the recovery messages of {@link
 * RecoveryMessages}. Big-endian: a type byte, the sender's world rank and
 * incarnation, then the fields of the type; a map is a count followed by (int key, long value) pairs; the answer to a rollback request ends with
 * the determinants it returns and the digests it kept, each a count followed by that many longs.
 */
public final class ControlMessageCodec implements ControlCodec {
    public static final ControlMessageCodec INSTANCE = new ControlMessageCodec();

    private static final byte INCARNATION_NOTICE = 1;
    private static final byte ROLLBACK_REQUEST = 2;
    private static final byte LAST_MESSAGES = 3;
    private static final byte REPLAY_BATCH = 4;
    private static final byte REPLAY_ACK = 5;
    private static final byte MATCH_NOTICE = 6;
    private static final byte CANCEL_REQUEST = 7;
    private static final byte CANCEL_ANSWER = 8;
    private static final byte WITHDRAWN = 9;
    /** Bytes of one map entry: an int key and a long value. */
    private static final int ENTRY_BYTES = Integer.BYTES + Long.BYTES;
    /** Type, world rank, incarnation. */
    private static final int HEADER_BYTES = 1 + 2 * Integer.BYTES;

    private ControlMessageCodec() {}

    @Override
    public byte[] encode(ControlMessage message) {
        return switch (message) {
            case IncarnationNotice m -> header(INCARNATION_NOTICE, m, 0).array();
            case RecoveryMessages.RollbackRequest m -> withMap(ROLLBACK_REQUEST, m, m.held());
            case RecoveryMessages.LastMessages m -> lastMessages(m);
            case RecoveryMessages.ReplayBatch m -> header(REPLAY_BATCH, m, 2 * Integer.BYTES)
                    .putInt(m.batch())
                    .putInt(m.frames())
                    .array();
            case MatchNotice m -> header(MATCH_NOTICE, m, Integer.BYTES + Long.BYTES)
                    .putInt(m.context())
                    .putLong(m.sequence())
                    .array();
            case SendCancellation.Request m -> header(CANCEL_REQUEST, m, Integer.BYTES + Long.BYTES)
                    .putInt(m.context())
                    .putLong(m.sequence())
                    .array();
            case SendCancellation.Answer m -> header(CANCEL_ANSWER, m, Integer.BYTES + Long.BYTES + 1)
                    .putInt(m.context())
                    .putLong(m.sequence())
                    .put((byte) (m.withdrawn() ? 1 : 0))
                    .array();
            case SendCancellation.Withdrawn m -> header(WITHDRAWN, m, Integer.BYTES + Long.BYTES)
                    .putInt(m.context())
                    .putLong(m.sequence())
                    .array();
            case RecoveryMessages.ReplayAck m -> header(REPLAY_ACK, m, Integer.BYTES)
                    .putInt(m.batch())
                    .array();
            default -> throw new IllegalArgumentException(
                    "no wire form for " + message.getClass().getName());
        };
    }

    @Override
    public ControlMessage decode(byte[] bytes) {
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            byte type = in.get();
            int source = in.getInt();
            int incarnation = in.getInt();
            if (source < 0 || incarnation < 0) {
                throw new IllegalArgumentException("negative rank or incarnation in a control message");
            }
            ControlMessage m =
                    switch (type) {
                        case INCARNATION_NOTICE -> new IncarnationNotice(source, incarnation);
                        case ROLLBACK_REQUEST -> new RecoveryMessages.RollbackRequest(source, incarnation, readMap(in));
                        case LAST_MESSAGES -> new RecoveryMessages.LastMessages(
                                source, incarnation, readMap(in), readWords(in), readWords(in));
                        case REPLAY_BATCH -> new RecoveryMessages.ReplayBatch(
                                source, incarnation, in.getInt(), in.getInt());
                        case REPLAY_ACK -> new RecoveryMessages.ReplayAck(source, incarnation, in.getInt());
                        case MATCH_NOTICE -> new MatchNotice(source, incarnation, in.getInt(), in.getLong());
                        case CANCEL_REQUEST -> new SendCancellation.Request(
                                source, incarnation, in.getInt(), in.getLong());
                        case CANCEL_ANSWER -> new SendCancellation.Answer(
                                source, incarnation, in.getInt(), in.getLong(), flag(in.get()));
                        case WITHDRAWN -> new SendCancellation.Withdrawn(
                                source, incarnation, in.getInt(), in.getLong());
                        default -> throw new IllegalArgumentException("unknown control message type " + type);
                    };
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " bytes after a control message");
            }
            return m;
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated control message", e);
        }
    }

    private static boolean flag(byte b) {
        if (b != 0 && b != 1) {
            throw new IllegalArgumentException("a flag byte of " + b + " in a control message");
        }
        return b == 1;
    }

    private static ByteBuffer header(byte type, ControlMessage m, int bodyBytes) {
        return ByteBuffer.allocate(HEADER_BYTES + bodyBytes)
                .put(type)
                .putInt(m.sourceWorld())
                .putInt(m.incarnation());
    }

    private static byte[] withMap(byte type, ControlMessage m, Map<Integer, Long> map) {
        ByteBuffer out = header(type, m, Integer.BYTES + map.size() * ENTRY_BYTES);
        out.putInt(map.size());
        for (Map.Entry<Integer, Long> e : map.entrySet()) {
            out.putInt(e.getKey()).putLong(e.getValue());
        }
        return out.array();
    }

    /** The map, then the outcomes and the digests: each a count and that many longs. */
    private static byte[] lastMessages(RecoveryMessages.LastMessages m) {
        long[] outcomes = m.outcomes();
        long[] digests = m.digests();
        Map<Integer, Long> map = m.arrived();
        ByteBuffer out = header(
                LAST_MESSAGES,
                m,
                Integer.BYTES
                        + map.size() * ENTRY_BYTES
                        + 2 * Integer.BYTES
                        + (outcomes.length + digests.length) * Long.BYTES);
        out.putInt(map.size());
        for (Map.Entry<Integer, Long> e : map.entrySet()) {
            out.putInt(e.getKey()).putLong(e.getValue());
        }
        for (long[] words : new long[][] {outcomes, digests}) {
            out.putInt(words.length);
            for (long w : words) {
                out.putLong(w);
            }
        }
        return out.array();
    }

    private static long[] readWords(ByteBuffer in) {
        int count = in.getInt();
        if (count < 0 || (long) count * Long.BYTES > in.remaining()) {
            throw new IllegalArgumentException(count + " words in " + in.remaining() + " bytes");
        }
        long[] words = new long[count];
        in.asLongBuffer().get(words);
        in.position(in.position() + count * Long.BYTES);
        return words;
    }

    private static Map<Integer, Long> readMap(ByteBuffer in) {
        int count = in.getInt();
        if (count < 0 || (long) count * ENTRY_BYTES > in.remaining()) {
            throw new IllegalArgumentException("a map of " + count + " entries in " + in.remaining() + " bytes");
        }
        Map<Integer, Long> map = new HashMap<>(count * 2);
        for (int i = 0; i < count; i++) {
            map.put(in.getInt(), in.getLong());
        }
        return map;
    }
}
