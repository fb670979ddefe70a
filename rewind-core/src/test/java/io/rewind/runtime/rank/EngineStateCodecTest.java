package io.rewind.runtime.rank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.engine.ChannelKey;
import io.rewind.engine.EngineConfig;
import io.rewind.engine.Frame;
import io.rewind.engine.MailboxSnapshot;
import io.rewind.engine.PatternState;
import io.rewind.engine.RankEngine;
import io.rewind.transport.local.InJvmTransport;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The runtime section of a checkpoint: the pattern state round-trips, and version-1 sections still read. */
class EngineStateCodecTest {

    @Test
    void patternStateAndFrameIdsRoundTrip() {
        RankEngine e = new RankEngine(0, 2, new InJvmTransport(2), EngineConfig.forRanks(2), () -> {});
        PatternState p = e.patterns();
        int a = p.declare();
        int b = p.declare();
        p.begin(a);
        p.end(a);
        p.begin(b);
        p.end(b);
        p.begin(b); // checkpoint inside iteration 2 of b
        Frame queued = new Frame(0, 1, 1, 0, 4, 9, 0, MemorySegment.ofArray(new byte[] {1, 2}), 0, 2, null);
        queued.setPattern(b, 2);
        MailboxSnapshot mailbox = new MailboxSnapshot(Map.of(7L, 9L), List.of(queued), List.of());

        EngineStateCodec.State s = EngineStateCodec.decode(EngineStateCodec.encode(e, mailbox));

        assertArrayEquals(new int[] {b, 2, 1, 2}, s.patterns());
        assertArrayEquals(e.counters(), s.counters());
        Frame f = s.mailbox().unexpected().get(0);
        assertEquals(b, f.patternId());
        assertEquals(2, f.iterationId());
        PatternState restored = new PatternState();
        restored.restore(s.patterns());
        assertEquals(b, restored.activePatternId());
    }

    @Test
    void aLinesChannelStateRoundTripsWithEveryPayload() {
        byte[] big = new byte[70_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 31);
        }
        // Payloads at an offset in their segments, an empty one, a large one and a withdrawn place.
        Frame a = new Frame(3, 1, 1, 0, 4, 13, 2, MemorySegment.ofArray(new byte[] {9, 8, 7, 6}), 1, 2, null);
        Frame empty = new Frame(3, 2, 2, 0, 5, 14, 0, MemorySegment.ofArray(new byte[0]), 0, 0, null);
        Frame large = new Frame(0, 1, 1, 0, 6, 15, 1, MemorySegment.ofArray(big), 0, big.length, null);
        Frame place = Frame.withdrawnPlace(3, 1, 0, 12, 2);

        List<Frame> back =
                EngineStateCodec.decodeFrames(EngineStateCodec.encodeFrames(List.of(a, empty, large, place)));

        assertEquals(4, back.size());
        assertArrayEquals(new byte[] {8, 7}, payload(back.get(0)));
        assertEquals(13, back.get(0).sequence());
        assertArrayEquals(new byte[0], payload(back.get(1)));
        assertArrayEquals(big, payload(back.get(2)));
        assertEquals(6, back.get(2).tag());
        assertTrue(back.get(3).isWithdrawn());
        assertEquals(12, back.get(3).sequence());
    }

    private static byte[] payload(Frame f) {
        return f.data().asSlice(f.dataOffset(), f.lengthBytes()).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    @Test
    void withdrawnSendsAndAHeldWithdrawnPlaceRoundTrip() {
        RankEngine e = new RankEngine(0, 2, new InJvmTransport(2), EngineConfig.forRanks(2), () -> {});
        Frame place = Frame.withdrawnPlace(3, 1, 0, 12, 2);
        Frame early = new Frame(3, 1, 1, 0, 4, 13, 2, MemorySegment.ofArray(new byte[] {7}), 0, 1, null);
        long[] withdrawn = {ChannelKey.of(3, 1), 5, ChannelKey.of(3, 1), 12};
        MailboxSnapshot mailbox =
                new MailboxSnapshot(Map.of(ChannelKey.of(3, 1), 10L), List.of(), List.of(place, early), withdrawn);

        EngineStateCodec.State s = EngineStateCodec.decode(EngineStateCodec.encode(e, mailbox));

        List<Frame> held = s.mailbox().held();
        assertTrue(held.get(0).isWithdrawn());
        assertEquals(12, held.get(0).sequence());
        assertEquals(0, held.get(0).lengthBytes());
        assertFalse(held.get(1).isWithdrawn());
        assertEquals(1, held.get(1).lengthBytes());
        long[] back = s.mailbox().withdrawn();
        java.util.Set<List<Long>> pairs = new java.util.HashSet<>();
        for (int i = 0; i < back.length; i += 2) {
            pairs.add(List.of(back[i], back[i + 1]));
        }
        assertEquals(java.util.Set.of(List.of(ChannelKey.of(3, 1), 5L), List.of(ChannelKey.of(3, 1), 12L)), pairs);
    }

    @Test
    void aVersionOneSectionHasNoPatternState() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(1);
        out.writeInt(3);
        out.writeLong(5); // wildcard receives
        out.writeLong(6); // polls
        out.writeLong(8); // next context
        out.writeInt(0); // communicators
        out.writeInt(0); // frontiers
        out.writeInt(0); // unexpected
        out.writeInt(0); // held
        out.flush();

        EngineStateCodec.State s = EngineStateCodec.decode(bytes.toByteArray());

        assertNull(s.patterns());
        assertArrayEquals(new long[] {5, 6, 8}, s.counters());
        assertEquals(0, s.mailbox().unexpected().size());
    }
}
