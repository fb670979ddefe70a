package io.rewind.ft.log;

import static io.rewind.ft.log.LogFixtures.key;
import static io.rewind.ft.log.LogFixtures.small;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The pipelined copy feeds the transfer and the log from the same chunk. */
class PipelinedCopierTest {

    private static final Channel TO_1 = new Channel(7, 0, 1);

    @Test
    void copy_to_both_fills_both_destinations_for_any_chunk_size() {
        byte[] source = LogFixtures.randomBytes(new SplittableRandom(1), 10_007);
        for (long chunk : new long[] {1, 64, 1000, 10_007, 1 << 20}) {
            byte[] a = new byte[10_010];
            byte[] b = new byte[10_020];
            PipelinedCopier.copyToBoth(
                    MemorySegment.ofArray(source),
                    0,
                    MemorySegment.ofArray(a),
                    3,
                    MemorySegment.ofArray(b),
                    13,
                    source.length,
                    chunk);
            assertArrayEquals(source, java.util.Arrays.copyOfRange(a, 3, 3 + source.length));
            assertArrayEquals(source, java.util.Arrays.copyOfRange(b, 13, 13 + source.length));
        }
    }

    @Test
    void transfer_and_log_delivers_the_message_and_completes_the_entry() {
        try (PayloadLog log =
                PayloadLog.open(0, small(StorageBackend.OFF_HEAP, null).build())) {
            byte[] payload = LogFixtures.randomBytes(new SplittableRandom(2), 12_345);
            MemorySegment source = MemorySegment.ofArray(payload);
            LogEntry entry = log.append(key(1, 1), source, 0, payload.length, CopyMethod.PIPELINED);
            assertFalse(entry.isCopyDone(), "nothing is copied until the transfer runs");
            byte[] received = new byte[payload.length];
            PipelinedCopier.transferAndLog(source, 0, MemorySegment.ofArray(received), 0, payload.length, entry, 1024);
            assertTrue(entry.isCopyDone());
            assertArrayEquals(payload, received);
            assertArrayEquals(payload, entry.payloadToArray());
        }
    }

    @Test
    void a_transport_with_frames_of_its_own_logs_chunk_by_chunk_and_await_finishes_the_rest() {
        try (PayloadLog log =
                PayloadLog.open(0, small(StorageBackend.OFF_HEAP, null).build())) {
            byte[] payload = LogFixtures.randomBytes(new SplittableRandom(3), 9000);
            LogEntry entry =
                    log.append(key(1, 1), MemorySegment.ofArray(payload), 0, payload.length, CopyMethod.PIPELINED);
            assertEquals(4000, entry.copyNextChunk(4000));
            assertEquals(4000, entry.copiedBytes());
            IllegalStateException unfinished = assertThrows(IllegalStateException.class, entry::payloadToArray);
            assertTrue(unfinished.getMessage().contains("still being copied"), unfinished.getMessage());
            entry.awaitCopy(); // the transfer was cut short: the sender finishes the copy
            assertEquals(0, entry.copyNextChunk(100));
            assertArrayEquals(payload, entry.payloadToArray());
        }
    }

    @Test
    void for_other_methods_transfer_and_log_only_transfers() {
        try (PayloadLog log =
                PayloadLog.open(0, small(StorageBackend.OFF_HEAP, null).build())) {
            byte[] payload = {1, 2, 3, 4, 5};
            MemorySegment source = MemorySegment.ofArray(payload);
            LogEntry entry = log.append(key(1, 1), source, 0, 5, CopyMethod.PACK);
            byte[] received = new byte[5];
            PipelinedCopier.transferAndLog(source, 0, MemorySegment.ofArray(received), 0, 5, entry, 2);
            assertArrayEquals(payload, received);
            assertThrows(IllegalStateException.class, () -> entry.copyNextChunk(1));
            assertThrows(
                    IllegalArgumentException.class,
                    () -> PipelinedCopier.transferAndLog(source, 0, MemorySegment.ofArray(received), 0, 4, entry, 2));
            assertEquals(1, log.entries(TO_1, 1, 1).size());
        }
    }
    /**
     * A receive that matches a queued frame transfers it (through the tee) on the receiving thread
     * while the sender awaits the log copy on its own: whichever comes first copies into the log, the
     * other does not copy the same bytes again, and both the receiver and the log get the message.
     */
    @Test
    void a_tee_and_the_senders_await_racing_on_one_entry_log_it_once_and_deliver_it() throws Exception {
        byte[] payload = LogFixtures.randomBytes(new SplittableRandom(5), 160_020);
        MemorySegment source = MemorySegment.ofArray(payload);
        try (PayloadLog log =
                        PayloadLog.open(0, small(StorageBackend.OFF_HEAP, null).build());
                ExecutorService receiver = Executors.newSingleThreadExecutor()) {
            for (int trial = 0; trial < 300; trial++) {
                LogEntry entry = log.append(key(1, trial + 1), source, 0, payload.length, CopyMethod.PIPELINED);
                byte[] received = new byte[payload.length];
                CyclicBarrier start = new CyclicBarrier(2);
                Future<?> tee = receiver.submit(() -> {
                    start.await();
                    PipelinedCopier.transferAndLog(
                            source, 0, MemorySegment.ofArray(received), 0, payload.length, entry, 4096);
                    return null;
                });
                start.await();
                if (trial % 3 == 1) {
                    entry.copyNextChunk(4096); // a sender that started chunk by chunk
                }
                entry.awaitCopy();
                tee.get(30, TimeUnit.SECONDS);
                assertTrue(entry.isCopyDone());
                assertArrayEquals(payload, received, "trial " + trial);
                assertArrayEquals(payload, entry.payloadToArray(), "trial " + trial);
                log.truncate(TO_1, trial + 1);
            }
        }
    }

    @Test
    void a_transfer_cut_short_leaves_the_rest_of_the_copy_to_the_sender() {
        try (PayloadLog log =
                PayloadLog.open(0, small(StorageBackend.OFF_HEAP, null).build())) {
            byte[] payload = LogFixtures.randomBytes(new SplittableRandom(6), 10_000);
            MemorySegment source = MemorySegment.ofArray(payload);
            LogEntry entry = log.append(key(1, 1), source, 0, payload.length, CopyMethod.PIPELINED);
            byte[] tooShort = new byte[5000];
            assertThrows(
                    IndexOutOfBoundsException.class,
                    () -> PipelinedCopier.transferAndLog(
                            source, 0, MemorySegment.ofArray(tooShort), 0, payload.length, entry, 1024));
            assertFalse(entry.isCopyDone());
            entry.awaitCopy(); // returns: the failed transfer gave its claim back
            assertArrayEquals(payload, entry.payloadToArray());
        }
    }

    @Test
    void a_log_copy_that_fails_still_delivers_the_message_and_the_sender_hears_of_it() {
        PayloadLog log = PayloadLog.open(0, small(StorageBackend.OFF_HEAP, null).build());
        byte[] payload = LogFixtures.randomBytes(new SplittableRandom(7), 10_000);
        MemorySegment source = MemorySegment.ofArray(payload);
        LogEntry entry = log.append(key(1, 1), source, 0, payload.length, CopyMethod.PIPELINED);
        log.close(); // the sender's rank crashed: its log is gone before the receiver takes the message
        byte[] received = new byte[payload.length];
        PipelinedCopier.transferAndLog(source, 0, MemorySegment.ofArray(received), 0, payload.length, entry, 1024);
        assertArrayEquals(payload, received, "the receiver gets the message whatever became of the log copy");
        assertTrue(entry.isCopyDone());
        PayloadLogException failed = assertThrows(PayloadLogException.class, entry::awaitCopy);
        assertEquals(PayloadLogException.Reason.COPY_FAILED, failed.reason());
    }
}
