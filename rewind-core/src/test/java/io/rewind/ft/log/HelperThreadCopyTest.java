package io.rewind.ft.log;

import static io.rewind.ft.log.BlockLifecycleTest.awaitQuietly;
import static io.rewind.ft.log.LogFixtures.key;
import static io.rewind.ft.log.LogFixtures.small;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The helper-thread copy completes before the send may complete, whether the copier gets to it or
 * the waiting sender does it itself; failures reach the waiter. The copier is held back with a
 * gate task so that every interleaving here is forced, not hoped for.
 */
class HelperThreadCopyTest {

    private static final Channel TO_1 = new Channel(7, 0, 1);

    private static PayloadLog log() {
        return PayloadLog.open(0, small(StorageBackend.OFF_HEAP, null).build());
    }

    @Test
    void the_copier_thread_makes_the_copy_and_the_sender_sees_it_complete() {
        try (PayloadLog log = log()) {
            byte[] payload = new byte[20_000];
            payload[12_345] = 77;
            LogEntry entry =
                    log.append(key(1, 1), MemorySegment.ofArray(payload), 0, payload.length, CopyMethod.HELPER_THREAD);
            assertEquals(CopyMethod.HELPER_THREAD, entry.copyMethod());
            entry.awaitCopy();
            assertTrue(entry.isCopyDone());
            payload[12_345] = 0;
            assertEquals(77, entry.payloadToArray()[12_345]);
        }
    }

    @Test
    void a_sender_that_waits_before_the_copier_started_makes_the_copy_itself() {
        try (PayloadLog log = log()) {
            CountDownLatch gate = new CountDownLatch(1);
            log.helperCopier().submit(() -> awaitQuietly(gate));
            byte[] payload = new byte[9_000];
            payload[8_999] = 5;
            LogEntry entry =
                    log.append(key(1, 1), MemorySegment.ofArray(payload), 0, payload.length, CopyMethod.HELPER_THREAD);
            assertFalse(entry.isCopyDone(), "the copier is held back");
            entry.awaitCopy(); // returns although the copier is still blocked
            assertTrue(entry.isCopyDone());
            payload[8_999] = 0;
            assertEquals(5, entry.payloadToArray()[8_999]);
            gate.countDown(); // the copier then skips the entry it finds already copied
        }
    }

    @Test
    void a_source_confined_to_the_sending_thread_is_packed_instead() {
        try (PayloadLog log = log();
                Arena confined = Arena.ofConfined()) {
            MemorySegment source = confined.allocate(5000);
            source.fill((byte) 3);
            LogEntry entry = log.append(key(1, 1), source, 0, 5000, CopyMethod.HELPER_THREAD);
            assertEquals(CopyMethod.PACK, entry.copyMethod());
            assertTrue(entry.isCopyDone());
            source.fill((byte) 0);
            assertEquals(3, entry.payloadToArray()[4999]);
        }
    }

    @Test
    void a_copy_that_fails_on_the_copier_is_reported_to_the_waiting_sender() {
        try (PayloadLog log = log()) {
            CountDownLatch gate = new CountDownLatch(1);
            CountDownLatch copierRan = new CountDownLatch(1);
            log.helperCopier().submit(() -> awaitQuietly(gate));
            Arena arena = Arena.ofShared();
            MemorySegment source = arena.allocate(8000);
            LogEntry entry = log.append(key(1, 1), source, 0, 8000, CopyMethod.HELPER_THREAD);
            log.helperCopier().submit(copierRan::countDown);
            arena.close(); // misuse: the buffer is freed before the send completed
            gate.countDown();
            awaitQuietly(copierRan); // the copier has attempted the copy
            assertTrue(entry.isCopyDone());
            PayloadLogException e = assertThrows(PayloadLogException.class, entry::awaitCopy);
            assertEquals(PayloadLogException.Reason.COPY_FAILED, e.reason());
            assertTrue(e.getMessage().contains(entry.key().toString()), e.getMessage());
            // The log stays consistent: the failed entry can be truncated and its block reused.
            assertEquals(1, log.truncate(TO_1, 1));
            byte[] next = {1, 2, 3};
            LogFixtures.send(log, key(1, 2), next, CopyMethod.PACK);
            assertArrayEquals(next, log.entries(TO_1, 2, 2).getFirst().payloadToArray());
        }
    }

    @Test
    void closing_the_log_lets_queued_copies_finish_first() {
        PayloadLog log = log();
        CountDownLatch gate = new CountDownLatch(1);
        log.helperCopier().submit(() -> awaitQuietly(gate));
        MemorySegment source = MemorySegment.ofArray(new long[1000]);
        LogEntry entry = log.append(key(1, 1), source, 0, source.byteSize(), CopyMethod.HELPER_THREAD);
        gate.countDown();
        log.close();
        assertTrue(entry.isCopyDone());
        entry.awaitCopy(); // the copy succeeded before the storage was freed
    }

    @Test
    void a_pack_copy_from_a_freed_buffer_fails_the_append_itself() {
        try (PayloadLog log = log()) {
            Arena arena = Arena.ofShared();
            MemorySegment source = arena.allocate(64);
            source.set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
            arena.close();
            PayloadLogException e = assertThrows(
                    PayloadLogException.class, () -> log.append(key(1, 1), source, 0, 64, CopyMethod.PACK));
            assertEquals(PayloadLogException.Reason.COPY_FAILED, e.reason());
        }
    }
}
