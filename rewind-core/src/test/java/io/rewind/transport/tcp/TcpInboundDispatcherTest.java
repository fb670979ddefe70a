package io.rewind.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.engine.Frame;
import io.rewind.engine.IncarnationNotice;
import io.rewind.transport.RecordingSink;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The queue in front of the sink until attach, and the incarnation fence. */
class TcpInboundDispatcherTest {
    private static Frame frame(long sequence) {
        return new Frame(0, 0, 0, 1, 0, sequence, 0, MemorySegment.ofArray(new byte[0]), 0, 0, null);
    }

    @Test
    void whatComesBeforeAttachIsHandedOverInOrderThenDeliveredDirectly() throws Exception {
        InboundDispatcher d = new InboundDispatcher(2);
        d.frame(frame(1));
        d.control(new IncarnationNotice(0, 0));
        d.frame(frame(2));
        assertEquals(3, d.waitingForAttach());

        RecordingSink sink = new RecordingSink();
        d.attach(sink);
        assertEquals(0, d.waitingForAttach());
        d.frame(frame(3));
        for (long seq = 1; seq <= 3; seq++) {
            assertEquals(seq, sink.nextFrame().frame().sequence());
        }
        assertEquals(new IncarnationNotice(0, 0), sink.nextControl());
    }

    @Test
    void closeLetsTheQueueGo() {
        InboundDispatcher d = new InboundDispatcher(2);
        d.frame(frame(1));
        d.close();
        d.frame(frame(2));
        assertEquals(0, d.waitingForAttach());
    }

    @Test
    void admitsTheNewestIncarnationAndLaterOnesOnly() {
        InboundDispatcher d = new InboundDispatcher(3);
        assertTrue(d.admit(1, 0));
        assertTrue(d.admit(1, 2));
        assertFalse(d.admit(1, 1));
        assertTrue(d.admit(1, 2));
        assertEquals(2, d.newest(1));
        assertTrue(d.admit(2, 0), "ranks are fenced apart");
    }
}
