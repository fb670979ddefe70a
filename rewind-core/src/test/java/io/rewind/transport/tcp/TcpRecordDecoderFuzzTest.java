package io.rewind.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.rewind.engine.ControlMessage;
import io.rewind.engine.Frame;
import io.rewind.engine.IncarnationNotice;
import io.rewind.ft.ControlMessageCodec;
import io.rewind.ft.RecoveryMessages;
import io.rewind.transport.RecordingSink;
import io.rewind.transport.TransportConformanceSuite;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * The inbound record decoders (the length-field decoder and {@link RecordReader} in an embedded
 * channel, and the {@link RecordStream} of connections taken over from Netty), fed random bytes, mutated valid records, and valid records cut at random places: nothing is
 * ever thrown out of the pipeline, no payload is allocated larger than the bytes that were sent, what
 * reaches the sink is always well-formed, and valid records decode to exactly what was encoded.
 */
class TcpRecordDecoderFuzzTest {
    private static final int MAX_PAYLOAD = 4096;
    private static final int OWN_RANK = 1;
    private static final PeerIdentity PEER = new PeerIdentity(0, 0);

    /**
     * One inbound connection's decoder, and what it did: the Netty pipeline (length-field decoder and
     * reader), or the {@link RecordStream} that reads connections once they left Netty.
     */
    private static final class Harness {
        final EmbeddedChannel channel = new EmbeddedChannel();
        final RecordingSink sink = new RecordingSink();
        final List<Integer> allocations = new ArrayList<>();
        final List<String> notices = new ArrayList<>();
        final RecordStream stream;
        boolean streamRefused;
        long fed;

        Harness(boolean asStream) {
            InboundDispatcher inbound = new InboundDispatcher(4);
            inbound.attach(sink);
            RecordReader reader = new RecordReader(
                    OWN_RANK, PEER, ControlMessageCodec.INSTANCE, inbound, new Notices(notices::add), n -> {
                        allocations.add(n);
                        return new byte[n];
                    });
            if (asStream) {
                stream = new RecordStream(MAX_PAYLOAD, reader);
            } else {
                stream = null;
                RecordReader.install(channel.pipeline(), MAX_PAYLOAD, reader);
            }
        }

        boolean isOpen() {
            return stream != null ? !streamRefused : channel.isOpen();
        }

        /**
         * Feeds {@code bytes} in chunks while the connection is open, then closes it. Embedded
         * channels rethrow whatever reaches the end of the pipeline, so this throws if the decoder lets
         * anything escape.
         */
        void feed(byte[] bytes, int chunk) {
            for (int at = 0; at < bytes.length && isOpen(); at += chunk) {
                int n = Math.min(chunk, bytes.length - at);
                fed += n;
                if (stream != null) {
                    stream.append(ByteBuffer.wrap(bytes, at, n));
                    String refusal = stream.drain();
                    if (refusal != null) {
                        notices.add("refused: " + refusal);
                        streamRefused = true;
                    }
                    assertTrue(
                            stream.capacity() <= Math.max(RecordStream.INITIAL_BYTES, 2 * fed),
                            "buffer grew beyond twice what was sent");
                } else {
                    channel.writeInbound(Unpooled.wrappedBuffer(bytes, at, n));
                }
            }
            channel.checkException();
        }

        void finish() {
            channel.finishAndReleaseAll();
        }

        /** No allocation larger than the bytes sent, nor than the longest record. */
        void assertBounded() {
            for (int a : allocations) {
                assertTrue(a <= fed, a + " bytes allocated after " + fed + " bytes sent");
                assertTrue(a <= WireFormat.recordBytes(MAX_PAYLOAD), a + " bytes allocated");
            }
        }

        /** Whatever got through is a frame this connection may carry. */
        void assertOnlyWellFormedDelivered() throws InterruptedException {
            while (sink.framesWaiting() > 0) {
                RecordingSink.Arrival a = sink.nextFrame();
                Frame f = a.frame();
                assertEquals(PEER.worldRank(), f.sourceWorld());
                assertEquals(OWN_RANK, f.destinationWorld());
                assertEquals(a.payload().length, f.lengthBytes());
                assertTrue(f.context() >= 0 && f.tag() >= 0 && f.sequence() >= 0 && f.incarnation() >= 0);
                assertTrue(f.patternId() >= 0 && f.iterationId() >= 0 && f.line() >= 0, f.toString());
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Valid records

    sealed interface Message permits FrameSpec, ControlSpec {
        int incarnation();

        Message atIncarnation(int incarnation);
    }

    record FrameSpec(
            int context,
            int source,
            int tag,
            long sequence,
            int incarnation,
            int pattern,
            int iteration,
            int line,
            byte[] payload)
            implements Message {
        Frame frame() {
            Frame f = new Frame(
                    context,
                    source,
                    PEER.worldRank(),
                    OWN_RANK,
                    tag,
                    sequence,
                    incarnation,
                    MemorySegment.ofArray(payload),
                    0,
                    payload.length,
                    null);
            f.setPattern(pattern, iteration);
            f.setLine(line);
            return f;
        }

        @Override
        public Message atIncarnation(int i) {
            return new FrameSpec(context, source, tag, sequence, i, pattern, iteration, line, payload);
        }

        FrameSpec atLine(int l) {
            return new FrameSpec(context, source, tag, sequence, incarnation, pattern, iteration, l, payload);
        }
    }

    record ControlSpec(ControlMessage message) implements Message {
        @Override
        public int incarnation() {
            return message.incarnation();
        }

        @Override
        public Message atIncarnation(int i) {
            return new ControlSpec(
                    switch (message) {
                        case IncarnationNotice m -> new IncarnationNotice(m.sourceWorld(), i);
                        case RecoveryMessages.RollbackRequest m -> new RecoveryMessages.RollbackRequest(
                                m.sourceWorld(), i, m.held());
                        case RecoveryMessages.LastMessages m -> new RecoveryMessages.LastMessages(
                                m.sourceWorld(), i, m.arrived());
                        case RecoveryMessages.ReplayBatch m -> new RecoveryMessages.ReplayBatch(
                                m.sourceWorld(), i, m.batch(), m.frames());
                        case RecoveryMessages.ReplayAck m -> new RecoveryMessages.ReplayAck(
                                m.sourceWorld(), i, m.batch());
                        default -> throw new IllegalStateException(message.toString());
                    });
        }
    }

    @Provide
    Arbitrary<List<Message>> messages() {
        Arbitrary<Integer> nonNegative = Arbitraries.integers().between(0, Integer.MAX_VALUE);
        Arbitrary<Integer> incarnation = Arbitraries.integers().between(0, 3);
        // Combinators take at most eight values: the recovery line is added to the rest afterwards.
        Arbitrary<FrameSpec> withoutLine = Combinators.combine(
                        nonNegative,
                        nonNegative,
                        nonNegative,
                        Arbitraries.longs().between(0, Long.MAX_VALUE),
                        incarnation,
                        nonNegative,
                        nonNegative,
                        Arbitraries.bytes().array(byte[].class).ofMaxSize(300))
                .as((context, source, tag, sequence, inc, pattern, iteration, payload) ->
                        new FrameSpec(context, source, tag, sequence, inc, pattern, iteration, 0, payload));
        Arbitrary<Message> frame = Combinators.combine(withoutLine, nonNegative).as(FrameSpec::atLine);
        int peer = PEER.worldRank();
        Arbitrary<ControlMessage> control = Arbitraries.oneOf(
                incarnation.map(i -> new IncarnationNotice(peer, i)),
                Combinators.combine(incarnation, held()).as((i, m) -> new RecoveryMessages.RollbackRequest(peer, i, m)),
                Combinators.combine(incarnation, held()).as((i, m) -> new RecoveryMessages.LastMessages(peer, i, m)),
                Combinators.combine(incarnation, Arbitraries.integers(), Arbitraries.integers())
                        .as((i, b, n) -> new RecoveryMessages.ReplayBatch(peer, i, b, n)),
                Combinators.combine(incarnation, Arbitraries.integers())
                        .as((i, b) -> new RecoveryMessages.ReplayAck(peer, i, b)));
        return Arbitraries.frequencyOf(Tuple.of(3, frame), Tuple.of(1, control.map(ControlSpec::new)))
                .list()
                .ofMaxSize(8)
                .map(TcpRecordDecoderFuzzTest::neverOlder);
    }

    private static Arbitrary<Map<Integer, Long>> held() {
        return Arbitraries.maps(Arbitraries.integers(), Arbitraries.longs()).ofMaxSize(6);
    }

    /** Incarnations never go down along the list: an older one after a newer one would be fenced. */
    private static List<Message> neverOlder(List<Message> list) {
        List<Message> out = new ArrayList<>();
        int newest = 0;
        for (Message m : list) {
            newest = Math.max(newest, m.incarnation());
            out.add(m.atIncarnation(newest));
        }
        return out;
    }

    private static byte[] encode(List<Message> messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Message m : messages) {
            ByteBuf b =
                    switch (m) {
                        case FrameSpec f -> WireFormat.encodeFrame(UnpooledByteBufAllocator.DEFAULT, f.frame());
                        case ControlSpec c -> WireFormat.encodeControl(
                                UnpooledByteBufAllocator.DEFAULT, ControlMessageCodec.INSTANCE.encode(c.message()));
                    };
            out.writeBytes(RawPeer.bytesOf(b));
        }
        return out.toByteArray();
    }

    @Property(tries = 300)
    void validRecordsDecodeToWhatWasEncoded(
            @ForAll("messages") List<Message> messages,
            @ForAll @IntRange(min = 1, max = 700) int chunk,
            @ForAll boolean asStream)
            throws InterruptedException {
        Harness h = new Harness(asStream);
        h.feed(encode(messages), chunk);
        assertTrue(h.isOpen(), "closed: " + h.notices);
        assertEquals(List.of(), h.notices);
        for (Message m : messages) {
            switch (m) {
                case FrameSpec spec -> TransportConformanceSuite.assertSameFrame(
                        spec.frame(), spec.payload(), h.sink.nextFrame());
                case ControlSpec c -> assertEquals(c.message(), h.sink.nextControl());
            }
        }
        assertEquals(0, h.sink.framesWaiting());
        assertEquals(0, h.sink.controlsWaiting());
        h.assertBounded();
        h.finish();
    }

    // ---------------------------------------------------------------------------------------------
    // Mutated records and noise

    sealed interface Mutation permits Flip, Truncate, Insert, OverwriteInt {
        byte[] apply(byte[] bytes);
    }

    record Flip(int at, byte mask) implements Mutation {
        @Override
        public byte[] apply(byte[] b) {
            if (b.length > 0) {
                b[at % b.length] ^= mask;
            }
            return b;
        }
    }

    record Truncate(int keep) implements Mutation {
        @Override
        public byte[] apply(byte[] b) {
            return Arrays.copyOf(b, Math.min(keep, b.length));
        }
    }

    record Insert(int at, byte[] bytes) implements Mutation {
        @Override
        public byte[] apply(byte[] b) {
            int p = b.length == 0 ? 0 : at % (b.length + 1);
            byte[] out = new byte[b.length + bytes.length];
            System.arraycopy(b, 0, out, 0, p);
            System.arraycopy(bytes, 0, out, p, bytes.length);
            System.arraycopy(b, p, out, p + bytes.length, b.length - p);
            return out;
        }
    }

    /** An int or a long field's half set to an extreme value (lengths, counts, ranks). */
    record OverwriteInt(int at, int value) implements Mutation {
        @Override
        public byte[] apply(byte[] b) {
            if (b.length >= 4) {
                ByteBuffer.wrap(b).putInt(at % (b.length - 3), value);
            }
            return b;
        }
    }

    @Provide
    Arbitrary<List<Mutation>> mutations() {
        Arbitrary<Integer> at = Arbitraries.integers().between(0, Integer.MAX_VALUE);
        Arbitrary<Mutation> one = Arbitraries.oneOf(
                Combinators.combine(at, Arbitraries.bytes().filter(b -> b != 0)).as(Flip::new),
                Arbitraries.integers().between(0, 2000).map(Truncate::new),
                Combinators.combine(
                                at,
                                Arbitraries.bytes()
                                        .array(byte[].class)
                                        .ofMinSize(1)
                                        .ofMaxSize(60))
                        .as(Insert::new),
                Combinators.combine(
                                at,
                                Arbitraries.oneOf(
                                        Arbitraries.of(
                                                Integer.MIN_VALUE,
                                                -1,
                                                0,
                                                1,
                                                WireFormat.FRAME_HEADER_BYTES,
                                                WireFormat.FRAME_OVERHEAD_BYTES,
                                                WireFormat.recordBytes(MAX_PAYLOAD),
                                                WireFormat.recordBytes(MAX_PAYLOAD) + 1,
                                                Integer.MAX_VALUE),
                                        Arbitraries.integers()))
                        .as(OverwriteInt::new));
        return one.list().ofMinSize(1).ofMaxSize(4);
    }

    @Property(tries = 400)
    void mutatedRecordsNeverEscapeNorOverAllocate(
            @ForAll("messages") List<Message> messages,
            @ForAll("mutations") List<Mutation> mutations,
            @ForAll @IntRange(min = 1, max = 300) int chunk,
            @ForAll boolean asStream)
            throws InterruptedException {
        byte[] bytes = encode(messages);
        for (Mutation m : mutations) {
            bytes = m.apply(bytes);
        }
        Harness h = new Harness(asStream);
        h.feed(bytes, chunk);
        h.assertBounded();
        h.assertOnlyWellFormedDelivered();
        h.finish();
    }

    @Provide
    Arbitrary<byte[]> noise() {
        Arbitrary<byte[]> raw = Arbitraries.bytes().array(byte[].class).ofMaxSize(400);
        // Noise that looks like a record: a plausible or extreme length, a known type or not, a header
        // of random fields, some bytes.
        Arbitrary<byte[]> recordLike = Combinators.combine(
                        Arbitraries.oneOf(
                                Arbitraries.integers().between(0, 400),
                                Arbitraries.of(
                                        Integer.MIN_VALUE,
                                        -1,
                                        WireFormat.recordBytes(MAX_PAYLOAD),
                                        WireFormat.recordBytes(MAX_PAYLOAD) + 1,
                                        1 << 20,
                                        Integer.MAX_VALUE)),
                        Arbitraries.oneOf(Arbitraries.of((byte) 1, (byte) 2), Arbitraries.bytes()),
                        Arbitraries.bytes().array(byte[].class).ofSize(WireFormat.FRAME_HEADER_BYTES),
                        Arbitraries.bytes().array(byte[].class).ofMaxSize(350))
                .as((length, type, header, rest) -> ByteBuffer.allocate(5 + header.length + rest.length)
                        .putInt(length)
                        .put(type)
                        .put(header)
                        .put(rest)
                        .array());
        return Arbitraries.oneOf(raw, recordLike);
    }

    @Property(tries = 400)
    void randomBytesNeverEscapeNorOverAllocate(
            @ForAll("noise") byte[] bytes, @ForAll @IntRange(min = 1, max = 300) int chunk, @ForAll boolean asStream)
            throws InterruptedException {
        Harness h = new Harness(asStream);
        h.feed(bytes, chunk);
        h.assertBounded();
        h.assertOnlyWellFormedDelivered();
        h.finish();
    }

    @Property(tries = 100)
    void aFrameRecordWhosePayloadLengthLiesAllocatesNothing(
            @ForAll @IntRange(min = 0, max = 200) int actual, @ForAll("lies") long claimed, @ForAll boolean asStream) {
        Assume.that(claimed != actual);
        byte[] record = RawPeer.rawFrameRecord(
                1 + WireFormat.FRAME_HEADER_BYTES + actual, 0, 0, OWN_RANK, 0, 1, 0, claimed, new byte[actual]);
        Harness h = new Harness(asStream);
        h.feed(record, record.length);
        assertEquals(List.of(), h.allocations);
        assertTrue(!h.isOpen(), "the connection is closed");
        assertTrue(h.notices.getFirst().contains("a payload length of " + claimed), h.notices.toString());
        h.finish();
    }

    @Provide
    Arbitrary<Long> lies() {
        return Arbitraries.oneOf(
                Arbitraries.longs(),
                Arbitraries.of(-1L, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 31, 1L << 32, 201L, 4096L));
    }
}
