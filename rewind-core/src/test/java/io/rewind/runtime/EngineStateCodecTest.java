package io.rewind.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
