package io.rewind.ft.sender;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rewind.engine.Frame;
import io.rewind.ft.EventLogger;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.transport.local.RecordingTransport;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Short messages are logged in two steps: copied aside right after the hand-off, entered into the
 * log when the rank waits (or before the log is read or trimmed). Whatever the moment, the log ends
 * up with exactly what was sent, even though the sender reuses its buffer at once.
 */
class StagedSendsTest {
    @Test
    void shortMessagesEnterTheLogWhenTheRankWaitsAndReplayIntact() {
        PayloadLog log = PayloadLog.open(
                0, PayloadLogConfig.builder(StorageBackend.OFF_HEAP).build());
        SenderLoggingRank protocol =
                new SenderLoggingRank(0, 0, log, new EventLogger(2).clientFor(0), new RecoveryLines(2, 1));
        RecordingTransport transport = new RecordingTransport(false);
        try {
            byte[] buffer = new byte[(int) SenderLoggingRank.STAGE_MAX_BYTES];
            List<byte[]> sent = new ArrayList<>();
            int[] sizes = {1, 100, 4096, (int) SenderLoggingRank.STAGE_MAX_BYTES};
            for (int i = 0; i < sizes.length; i++) {
                byte[] payload = new byte[sizes[i]];
                Arrays.fill(payload, (byte) (i + 1));
                System.arraycopy(payload, 0, buffer, 0, payload.length);
                sent.add(payload);
                Frame frame =
                        new Frame(0, 0, 0, 1, 7, i + 1, 0, MemorySegment.ofArray(buffer), 0, payload.length, null);
                assertEquals(true, protocol.send(frame, 1, null, transport));
                protocol.afterSend(frame);
                Arrays.fill(buffer, (byte) 0x5a); // the application reuses its buffer at once
            }
            assertEquals(sizes.length, transport.handedOff());
            assertEquals(0, log.statistics().entries(), "handed off and copied aside, not logged yet");
            protocol.whileWaiting();
            assertEquals(sizes.length, log.statistics().entries());
            List<Frame> replay = protocol.framesFor(1, Map.of());
            assertEquals(sizes.length, replay.size());
            for (int i = 0; i < sizes.length; i++) {
                Frame f = replay.get(i);
                byte[] logged = new byte[(int) f.lengthBytes()];
                MemorySegment.copy(f.data(), f.dataOffset(), MemorySegment.ofArray(logged), 0, logged.length);
                assertArrayEquals(sent.get(i), logged, "message " + i);
                assertEquals(i + 1, f.sequence());
            }
        } finally {
            protocol.close();
        }
    }

    @Test
    void aReplayEntersWhatIsStillAside() {
        PayloadLog log = PayloadLog.open(
                0, PayloadLogConfig.builder(StorageBackend.OFF_HEAP).build());
        SenderLoggingRank protocol =
                new SenderLoggingRank(0, 0, log, new EventLogger(2).clientFor(0), new RecoveryLines(2, 1));
        try {
            byte[] payload = {1, 2, 3};
            Frame frame = new Frame(0, 0, 0, 1, 7, 1, 0, MemorySegment.ofArray(payload.clone()), 0, 3, null);
            protocol.send(frame, 1, null, new RecordingTransport(false));
            List<Frame> replay = protocol.framesFor(1, Map.of()); // no wait happened in between
            assertEquals(1, replay.size());
            byte[] logged = new byte[3];
            MemorySegment.copy(replay.get(0).data(), 0, MemorySegment.ofArray(logged), 0, 3);
            assertArrayEquals(payload, logged);
        } finally {
            protocol.close();
        }
    }
}
