package io.rewind.ft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rewind.engine.ControlMessage;
import io.rewind.engine.IncarnationNotice;
import io.rewind.engine.MatchNotice;
import io.rewind.engine.SendCancellation;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The wire form of control messages: every message decodes to itself, and bytes that are not a
 * message (random, or a message damaged) only ever fail with {@link IllegalArgumentException}, which a
 * transport turns into a refused record.
 */
class ControlMessageCodecPropertiesTest {
    private static final ControlMessageCodec CODEC = ControlMessageCodec.INSTANCE;

    @Provide
    Arbitrary<ControlMessage> messages() {
        Arbitrary<Integer> rank = Arbitraries.integers().between(0, Integer.MAX_VALUE);
        Arbitrary<Integer> incarnation = Arbitraries.integers().between(0, Integer.MAX_VALUE);
        Arbitrary<Map<Integer, Long>> map =
                Arbitraries.maps(Arbitraries.integers(), Arbitraries.longs()).ofMaxSize(30);
        return Arbitraries.oneOf(
                Combinators.combine(rank, incarnation).as(IncarnationNotice::new),
                Combinators.combine(rank, incarnation, map).as(RecoveryMessages.RollbackRequest::new),
                Combinators.combine(rank, incarnation, map).as(RecoveryMessages.LastMessages::new),
                Combinators.combine(rank, incarnation, Arbitraries.integers(), Arbitraries.integers())
                        .as(RecoveryMessages.ReplayBatch::new),
                Combinators.combine(rank, incarnation, Arbitraries.integers()).as(RecoveryMessages.ReplayAck::new),
                Combinators.combine(rank, incarnation, Arbitraries.integers(), Arbitraries.longs())
                        .as(MatchNotice::new),
                Combinators.combine(rank, incarnation, Arbitraries.integers(), Arbitraries.longs())
                        .as(SendCancellation.Request::new),
                Combinators.combine(
                                rank,
                                incarnation,
                                Arbitraries.integers(),
                                Arbitraries.longs(),
                                Arbitraries.of(true, false))
                        .as(SendCancellation.Answer::new),
                Combinators.combine(rank, incarnation, Arbitraries.integers(), Arbitraries.longs())
                        .as(SendCancellation.Withdrawn::new));
    }

    @Property(tries = 500)
    void everyMessageDecodesToItself(@ForAll("messages") ControlMessage m) {
        assertEquals(m, CODEC.decode(CODEC.encode(m)));
    }

    @Provide
    Arbitrary<byte[]> noise() {
        // Mostly a known type first, so the fuzz reaches the fields.
        Arbitrary<byte[]> typed = Combinators.combine(
                        Arbitraries.bytes().between((byte) 0, (byte) 10),
                        Arbitraries.bytes().array(byte[].class).ofMaxSize(120))
                .as((type, rest) -> {
                    byte[] b = new byte[rest.length + 1];
                    b[0] = type;
                    System.arraycopy(rest, 0, b, 1, rest.length);
                    return b;
                });
        return Arbitraries.oneOf(typed, Arbitraries.bytes().array(byte[].class).ofMaxSize(120));
    }

    @Property(tries = 1000)
    void randomBytesFailOnlyWithIllegalArgument(@ForAll("noise") byte[] bytes) {
        decodeOrRefuse(bytes);
    }

    @Property(tries = 500)
    void damagedMessagesFailOnlyWithIllegalArgument(
            @ForAll("messages") ControlMessage m,
            @ForAll @IntRange(min = 0, max = 400) int position,
            @ForAll int value,
            @ForAll @IntRange(min = -8, max = 8) int lengthChange) {
        byte[] bytes = CODEC.encode(m);
        byte[] damaged = Arrays.copyOf(bytes, Math.max(0, bytes.length + lengthChange));
        if (damaged.length >= 4) {
            // An int somewhere (a count, a rank, an incarnation) set to anything.
            ByteBuffer.wrap(damaged).putInt(position % (damaged.length - 3), value);
        }
        decodeOrRefuse(damaged);
    }

    /** Decodes, or fails with IllegalArgumentException: any other exception fails the property. */
    private static void decodeOrRefuse(byte[] bytes) {
        try {
            CODEC.decode(bytes);
        } catch (IllegalArgumentException expected) {
            // refused: fine
        }
    }
}
