package io.rewind.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.transport.local.InJvmTransport;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Matching by (pattern id, iteration id), on engines over the in-JVM transport driven from the test
 * thread: small sends are delivered into the receiver's queues before they return, so each step sees
 * exactly the messages sent before it. Both matching directions are covered: a frame arriving for
 * posted receives, and a receive or probe posted against the queued frames.
 */
class PatternMatchingTest {
    private static final int ANY_SOURCE = Constants.ANY_SOURCE;
    private static final int ANY_TAG = Constants.ANY_TAG;

    private final RankEngine[] engines = new RankEngine[3];

    @BeforeEach
    void engines() {
        InJvmTransport transport = new InJvmTransport(engines.length);
        for (int r = 0; r < engines.length; r++) {
            engines[r] = new RankEngine(r, engines.length, transport, EngineConfig.forRanks(engines.length), () -> {});
            engines[r].attach();
            assertEquals(1, engines[r].patterns().declare(), "every rank declares the same pattern id");
        }
    }

    private void send(int from, int to, int tag, long value) {
        SendRequest s = engines[from]
                .world()
                .isend(MemorySegment.ofArray(new long[] {value}), 0, 8, to, tag, SendMode.STANDARD);
        assertTrue(s.isComplete(), "a small send completes at once");
    }

    private static RecvRequest receive(RankEngine e, long[] into, int source, int tag) {
        return e.world().irecv(MemorySegment.ofArray(into), 0, 8, source, tag);
    }

    private void iteration(int rank, int pattern) {
        engines[rank].patterns().begin(pattern);
    }

    private void endIteration(int rank, int pattern) {
        engines[rank].patterns().end(pattern);
    }

    @Test
    void aMessageOfIterationTwoIsNotTakenByWildcardsOfIterationOne() {
        RankEngine receiver = engines[1];
        iteration(1, 1); // the receiver is in iteration 1
        long[] first = new long[1];
        RecvRequest early = receive(receiver, first, ANY_SOURCE, ANY_TAG);

        iteration(0, 1);
        endIteration(0, 1);
        iteration(0, 1); // rank 0 is one iteration ahead
        send(0, 1, 7, 200);
        assertFalse(early.isComplete(), "a posted iteration-1 receive does not take the iteration-2 frame");
        assertEquals(1, receiver.mailbox().unexpectedCount());

        assertNull(receiver.world().iprobe(ANY_SOURCE, ANY_TAG), "nor does an iteration-1 probe see it");
        assertNull(receiver.world().iprobe(0, 7));
        assertNull(receiver.world().improbe(ANY_SOURCE, ANY_TAG));
        long[] second = new long[1];
        RecvRequest late = receive(receiver, second, ANY_SOURCE, ANY_TAG);
        assertFalse(late.isComplete(), "nor a receive posted after it arrived");
        assertEquals(2, receiver.mailbox().postedCount());

        iteration(2, 1); // rank 2 is in iteration 1, like the receiver
        send(2, 1, 8, 100);
        send(2, 1, 9, 101);
        assertTrue(early.isComplete() && late.isComplete());
        assertEquals(100, first[0]);
        assertEquals(2, early.statusSource());
        assertEquals(101, second[0]);
        assertEquals(9, late.statusTag());
        endIteration(2, 1);

        endIteration(1, 1);
        assertNull(receiver.world().iprobe(ANY_SOURCE, ANY_TAG), "outside the pattern it is not seen either");
        iteration(1, 1); // the receiver reaches iteration 2
        ProbeResult seen = receiver.world().iprobe(ANY_SOURCE, ANY_TAG);
        assertNotNull(seen);
        assertEquals(0, seen.source());
        assertEquals(7, seen.tag());
        MatchedMessage m = receiver.world().mprobe(ANY_SOURCE, ANY_TAG);
        MemorySegment got = MemorySegment.ofArray(new long[1]);
        RecvRequest r = receiver.world().mrecv(m, got, 0, 8);
        assertTrue(r.isComplete());
        assertEquals(200, got.get(ValueLayout.JAVA_LONG, 0));
        assertEquals(0, receiver.mailbox().unexpectedCount());
    }

    @Test
    void aReceiveOfIterationTwoTakesItsMessageWhenItArrives() {
        RankEngine receiver = engines[1];
        iteration(1, 1);
        endIteration(1, 1);
        iteration(1, 1);
        long[] in = new long[1];
        RecvRequest r = receive(receiver, in, ANY_SOURCE, ANY_TAG);
        iteration(0, 1);
        send(0, 1, 3, 31); // iteration 1: not for this receive
        assertFalse(r.isComplete());
        endIteration(0, 1);
        iteration(0, 1);
        send(0, 1, 4, 32); // iteration 2, behind the iteration-1 frame on the same channel
        assertTrue(r.isComplete());
        assertEquals(32, in[0]);
        assertEquals(4, r.statusTag());
        assertEquals(1, receiver.mailbox().unexpectedCount(), "the iteration-1 frame still waits");
    }

    @Test
    void outsidePatternsMatchingIsUnchangedAndDoesNotMixWithPatterns() {
        RankEngine receiver = engines[1];
        send(0, 1, 5, 10); // default pattern
        ProbeResult p = receiver.world().iprobe(ANY_SOURCE, ANY_TAG);
        assertNotNull(p);
        long[] in = new long[1];
        RecvRequest r = receive(receiver, in, 0, 5);
        assertTrue(r.isComplete());
        assertEquals(10, in[0]);

        iteration(0, 1);
        send(0, 1, 5, 11); // inside iteration 1 of pattern 1
        endIteration(0, 1);
        RecvRequest outside = receive(receiver, in, ANY_SOURCE, ANY_TAG);
        assertFalse(outside.isComplete(), "a message sent inside a pattern is not received outside it");
        send(2, 1, 6, 12);
        assertTrue(outside.isComplete());
        assertEquals(12, in[0]);

        send(2, 1, 6, 13); // default pattern again
        iteration(1, 1);
        assertNull(receiver.world().improbe(2, 6), "a message sent outside is not probed inside a pattern");
        RecvRequest inside = receive(receiver, in, ANY_SOURCE, ANY_TAG);
        assertTrue(inside.isComplete(), "the iteration-1 message is the one received inside");
        assertEquals(11, in[0]);
        endIteration(1, 1);
        RecvRequest last = receive(receiver, in, 2, 6);
        assertTrue(last.isComplete());
        assertEquals(13, in[0]);
        assertEquals(0, receiver.mailbox().unexpectedCount());
    }

    @Test
    void requestsKeepTheIdsActiveWhenTheyWerePosted() {
        RankEngine receiver = engines[1];
        iteration(1, 1);
        long[] in = new long[1];
        RecvRequest posted = receive(receiver, in, 0, 2);
        endIteration(1, 1); // the receive stays in iteration 1 of the pattern
        send(0, 1, 2, 40); // default pattern
        assertFalse(posted.isComplete());
        iteration(0, 1);
        send(0, 1, 2, 41);
        assertTrue(posted.isComplete());
        assertEquals(41, in[0]);
    }
}
