package io.rewind.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.ft.EventLogger;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.RecoveryMessages;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.ft.sender.SenderLoggingRank;
import io.rewind.transport.local.InJvmTransport;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Synchronous sends whose frame waits somewhere other than the receiver's unexpected queue: held
 * beyond a gap in its channel (a live message overtaking a replay), or handed to a receiver that has
 * just crashed. Each must still end: cancelled when its cancel finds it, let go as sent when its
 * receiver is gone. Two ranks of one JVM under sender-based logging, driven step by step on the test
 * thread, so every completion asserted here happens inside the call before it.
 */
class StrandedSynchronousSendsTest {
    private static final int TAG = 7;

    private final InJvmTransport transport = new InJvmTransport(2);
    private final SenderLoggingRank[] protocols = new SenderLoggingRank[2];
    private final RankEngine[] engines = new RankEngine[2];

    /** Starts ranks 0 and 1; rank 0 is incarnation {@code senderIncarnation}. */
    private void start(int senderIncarnation) {
        PayloadLogConfig config =
                PayloadLogConfig.builder(StorageBackend.OFF_HEAP).build();
        for (int r = 0; r < 2; r++) {
            int incarnation = r == 0 ? senderIncarnation : 0;
            protocols[r] = new SenderLoggingRank(
                    r,
                    incarnation,
                    PayloadLog.open(r, config),
                    new EventLogger(2).clientFor(r),
                    new RecoveryLines(2, 2));
            engines[r] = new RankEngine(
                    r,
                    2,
                    transport,
                    new EngineConfig(EngineConfig.DEFAULT_EAGER_LIMIT_BYTES, 1_000),
                    () -> {},
                    protocols[r],
                    incarnation);
            engines[r].attach();
            if (incarnation == 0) {
                protocols[r].onStart(engines[r], Map.of()); // a restarted one is started by its test
            }
        }
    }

    @AfterEach
    void close() {
        for (SenderLoggingRank p : protocols) {
            if (p != null) {
                p.close();
            }
        }
    }

    private SendRequest send(SendMode mode, int value) {
        byte[] payload = {(byte) value, 1, 2, 3};
        return engines[0].world().isend(MemorySegment.ofArray(payload), 0, payload.length, 1, TAG, mode);
    }

    /** Rank 0's next frame to rank 1 gets lost: the one after it arrives beyond a gap. */
    private void loseOneFrame() {
        transport.detach(1, engines[1].mailbox());
        assertTrue(send(SendMode.STANDARD, 0).isComplete(), "an eager send completes whatever its fate");
        engines[1].attach();
    }

    @Test
    void aSynchronousSendHeldBeyondAGapIsCancelledByItsCancel() {
        start(0);
        loseOneFrame();
        SendRequest s = send(SendMode.SYNCHRONOUS, 1);
        assertFalse(s.isComplete(), "a synchronous send waits for its receive");
        assertEquals(0, engines[1].mailbox().unexpectedCount(), "the frame is held beyond the gap, not queued");

        s.cancel();

        assertTrue(s.isComplete(), "the cancel found the held frame");
        assertTrue(s.isCancelled());
    }

    @Test
    void aSynchronousSendHeldBeyondAGapIsLetGoWhenItsReceiverCrashes() {
        start(0);
        loseOneFrame();
        SendRequest s = send(SendMode.SYNCHRONOUS, 1);
        assertFalse(s.isComplete());

        engines[1].mailbox().close();

        assertTrue(s.isComplete(), "the receiver's crash lets the send go");
        assertFalse(s.isCancelled());
    }

    @Test
    void aSynchronousSendToAReceiverThatHasJustCrashedCompletesAsSent() {
        start(0);
        engines[1].mailbox().close(); // crashed; its endpoint not yet taken away

        SendRequest s = send(SendMode.SYNCHRONOUS, 1);

        assertTrue(s.isComplete(), "the frame was dropped: nobody is left to match it");
        assertFalse(s.isCancelled());
    }

    /**
     * Rank 0, restarted, sends again a message that rank 1's replaced incarnation held (it said so)
     * and its current incarnation does not: that one may have been received before the crash, so the
     * cancel fails, and the message stays, intact, for the receiver.
     */
    @Test
    void aRestartedSenderDoesNotCancelWhatAReplacedIncarnationOfItsReceiverHeld() {
        start(1);
        int context = engines[0].world().context();
        // Rank 1 answered this incarnation's rollback request (so its start does not wait), then restarted.
        protocols[0].onControl(new RecoveryMessages.LastMessages(1, 0, Map.of(context, 3L)), transport);
        protocols[0].onStart(engines[0], Map.of());
        protocols[0].onControl(new RecoveryMessages.RollbackRequest(1, 1, Map.of()), transport);
        // Stale word of the replaced incarnation, arriving late, changes nothing.
        protocols[0].onControl(new RecoveryMessages.LastMessages(1, 0, Map.of(context, 9L)), transport);

        assertFalse(protocols[0].mayCancel(context, 1, 1));
        assertFalse(protocols[0].mayCancel(context, 1, 3));
        assertTrue(protocols[0].mayCancel(context, 1, 4), "never held by any incarnation of the receiver");

        SendRequest s = send(SendMode.SYNCHRONOUS, 42);
        assertFalse(s.isComplete());
        s.cancel();
        assertTrue(s.isComplete(), "the failed cancel lets the send go as sent");
        assertFalse(s.isCancelled());

        byte[] got = new byte[4];
        RecvRequest r = engines[1].world().irecv(MemorySegment.ofArray(got), 0, got.length, 0, TAG);
        assertTrue(r.isComplete(), "the message waited for its receive");
        assertArrayEquals(new byte[] {42, 1, 2, 3}, got);
    }

    /**
     * Rank 0's synchronous send is held beyond a gap at rank 1 when rank 0 restarts; its next incarnation
     * sends the message again while the first copy still waits there. The first copy stays (as a
     * duplicate's does), and the new send waits on it: it ends when that copy's receive starts, or, as
     * here, when the receiver crashes. It used to be dropped without a trace, its send waiting for ever.
     */
    @Test
    void aSynchronousSendAgainOfAFrameHeldBeyondAGapWaitsOnTheHeldCopy() {
        start(0);
        int context = engines[0].world().context();
        loseOneFrame();
        SendRequest first = send(SendMode.SYNCHRONOUS, 1);
        assertFalse(first.isComplete());

        // Rank 0 restarts from the beginning; rank 1 held nothing of it in order.
        protocols[0].close();
        protocols[0] = new SenderLoggingRank(
                0,
                1,
                PayloadLog.open(
                        0, PayloadLogConfig.builder(StorageBackend.OFF_HEAP).build()),
                new EventLogger(2).clientFor(0),
                new RecoveryLines(2, 2));
        engines[0] = new RankEngine(
                0,
                2,
                transport,
                new EngineConfig(EngineConfig.DEFAULT_EAGER_LIMIT_BYTES, 1_000),
                () -> {},
                protocols[0],
                1);
        engines[0].attach();
        protocols[0].onControl(new RecoveryMessages.LastMessages(1, 0, Map.of(context, 0L)), transport);
        protocols[0].onStart(engines[0], Map.of());
        loseOneFrame(); // its re-executed first send is lost again: the gap stays
        SendRequest again = send(SendMode.SYNCHRONOUS, 1);
        assertFalse(again.isComplete(), "a synchronous send waits for its receive");

        engines[1].mailbox().close();

        assertTrue(again.isComplete(), "the receiver's crash lets the send go");
        assertFalse(again.isCancelled());
    }

    @Test
    void aSenderThatDidNotRestartCancelsAsUsual() {
        start(0);
        int context = engines[0].world().context();
        protocols[0].onControl(new RecoveryMessages.LastMessages(1, 0, Map.of(context, 3L)), transport);
        protocols[0].onControl(new RecoveryMessages.RollbackRequest(1, 1, Map.of()), transport);
        assertTrue(protocols[0].mayCancel(context, 1, 1));
    }
}
