package io.rewind.ft.log;

import static io.rewind.ft.log.LogFixtures.key;
import static io.rewind.ft.log.LogFixtures.send;
import static io.rewind.ft.log.LogFixtures.small;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Lookup, send order, truncation and accounting. */
class PayloadLogIndexTest {

    private static final Channel TO_1 = new Channel(7, 0, 1);
    private static final Channel TO_2 = new Channel(7, 0, 2);

    private static PayloadLog offHeapLog() {
        return PayloadLog.open(0, small(StorageBackend.OFF_HEAP, null).build());
    }

    private static byte[] payload(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (seed * 31 + i);
        }
        return bytes;
    }

    @Test
    void range_lookup_returns_live_entries_of_one_channel_in_sequence_order() {
        try (PayloadLog log = offHeapLog()) {
            for (long s = 1; s <= 10; s++) {
                send(log, key(1, s), payload(100, (int) s), CopyMethod.PACK);
                send(log, key(2, s), payload(50, (int) -s), CopyMethod.PACK);
            }
            List<LogEntry> range = log.entries(TO_1, 3, 6);
            assertEquals(
                    List.of(3L, 4L, 5L, 6L),
                    range.stream().map(e -> e.key().sequence()).toList());
            assertArrayEquals(payload(100, 4), range.get(1).payloadToArray());
            assertEquals(List.of(), log.entries(TO_1, 11, 20));
            assertEquals(List.of(), log.entries(TO_1, 6, 3));
            assertEquals(List.of(), log.entries(new Channel(8, 0, 1), 1, 10));
        }
    }

    /**
     * More channels than the log's table of recent channels has slots, on several contexts and from
     * several sources, appended round after round: slots are shared and overwritten, and every entry
     * must still land in its own channel's index.
     */
    @Test
    void entries_of_many_channels_appended_in_turn_stay_in_their_own_channels() {
        int contexts = 5;
        int sources = 3;
        int destinations = 13; // 195 channels
        int rounds = 4;
        try (PayloadLog log = offHeapLog()) {
            for (long s = 1; s <= rounds; s++) {
                for (int c = 0; c < contexts; c++) {
                    for (int src = 0; src < sources; src++) {
                        for (int d = 0; d < destinations; d++) {
                            int channel = (c * sources + src) * destinations + d;
                            send(
                                    log,
                                    new MessageKey(100 + c, src, d, 42, s, 1),
                                    payload(16 + d, channel * 10 + (int) s),
                                    CopyMethod.PACK);
                        }
                    }
                }
            }
            for (int c = 0; c < contexts; c++) {
                for (int src = 0; src < sources; src++) {
                    for (int d = 0; d < destinations; d++) {
                        int channel = (c * sources + src) * destinations + d;
                        List<LogEntry> entries = log.entries(new Channel(100 + c, src, d), 1, rounds);
                        assertEquals(rounds, entries.size(), "channel " + c + "/" + src + "->" + d);
                        for (int s = 1; s <= rounds; s++) {
                            LogEntry e = entries.get(s - 1);
                            assertEquals(new MessageKey(100 + c, src, d, 42, s, 1), e.key());
                            assertArrayEquals(payload(16 + d, channel * 10 + s), e.payloadToArray());
                        }
                    }
                }
            }
            assertEquals(
                    (long) contexts * sources * destinations, log.channels().size());
        }
    }

    @Test
    void send_order_interleaves_channels_as_appended_and_skips_truncated_entries() {
        try (PayloadLog log = offHeapLog()) {
            send(log, key(1, 1), payload(10, 1), CopyMethod.PACK);
            send(log, key(2, 1), payload(10, 2), CopyMethod.PACK);
            send(log, key(1, 2), payload(10, 3), CopyMethod.PACK);
            send(log, key(2, 2), payload(10, 4), CopyMethod.PACK);
            log.truncate(TO_2, 1);
            assertEquals(
                    List.of(key(1, 1), key(1, 2), key(2, 2)),
                    log.entriesInSendOrder().stream().map(LogEntry::key).toList());
        }
    }

    @Test
    void gaps_and_out_of_order_appends_are_kept_sorted_but_duplicates_and_obsolete_numbers_are_rejected() {
        try (PayloadLog log = offHeapLog()) {
            send(log, key(1, 5), payload(8, 5), CopyMethod.PACK);
            send(log, key(1, 2), payload(8, 2), CopyMethod.PACK);
            send(log, key(1, 9), payload(8, 9), CopyMethod.PACK);
            assertEquals(
                    List.of(2L, 5L, 9L),
                    log.entries(TO_1, 1, 100).stream()
                            .map(e -> e.key().sequence())
                            .toList());
            MemorySegment src = MemorySegment.ofArray(new byte[8]);
            IllegalArgumentException duplicate = assertThrows(
                    IllegalArgumentException.class, () -> log.append(key(1, 5), src, 0, 8, CopyMethod.PACK));
            assertTrue(duplicate.getMessage().contains("already logged"), duplicate.getMessage());
            log.truncate(TO_1, 5);
            IllegalArgumentException obsolete = assertThrows(
                    IllegalArgumentException.class, () -> log.append(key(1, 4), src, 0, 8, CopyMethod.PACK));
            assertTrue(obsolete.getMessage().contains("truncated up to 5"), obsolete.getMessage());
            assertEquals(1, log.statistics().entries(), "rejected appends leave no trace");
        }
    }

    @Test
    void bad_source_ranges_are_rejected_before_anything_is_logged() {
        try (PayloadLog log = offHeapLog()) {
            MemorySegment src = MemorySegment.ofArray(new byte[10]);
            assertThrows(IndexOutOfBoundsException.class, () -> log.append(key(1, 1), src, 4, 7, CopyMethod.PACK));
            assertThrows(IndexOutOfBoundsException.class, () -> log.append(key(1, 1), src, -1, 2, CopyMethod.PACK));
            assertEquals(0, log.statistics().appendedEntries());
            assertThrows(IllegalArgumentException.class, () -> key(1, 0));
        }
    }

    @Test
    void accounting_is_exact_per_log_and_per_channel() {
        try (PayloadLog log = offHeapLog()) {
            for (long s = 1; s <= 6; s++) {
                send(log, key(1, s), payload(1000, 0), CopyMethod.PACK);
            }
            for (long s = 1; s <= 3; s++) {
                send(log, key(2, s), payload(300, 0), CopyMethod.PIPELINED);
            }
            LogStatistics before = log.statistics();
            assertEquals(9, before.entries());
            assertEquals(6900, before.payloadBytes());
            assertEquals(
                    new ChannelStatistics(6, 6000, 6, 6000, 0),
                    before.channels().get(TO_1));
            assertEquals(new ChannelStatistics(3, 900, 3, 900, 0), log.statistics(TO_2));

            assertEquals(4, log.truncate(TO_1, 4));
            LogStatistics after = log.statistics();
            assertEquals(5, after.entries());
            assertEquals(2900, after.payloadBytes());
            assertEquals(4, after.truncatedEntries());
            assertEquals(4000, after.truncatedBytes());
            assertEquals(6900, after.highWaterPayloadBytes());
            assertEquals(6900, after.appendedBytes());
            assertEquals(
                    new ChannelStatistics(2, 2000, 6, 6000, 4), after.channels().get(TO_1));

            assertEquals(5, log.truncateAll());
            LogStatistics empty = log.statistics();
            assertEquals(0, empty.entries());
            assertEquals(0, empty.payloadBytes());
            assertEquals(
                    new ChannelStatistics(0, 0, 3, 900, 3), empty.channels().get(TO_2));
        }
    }

    @Test
    void growth_rate_comes_from_appended_bytes_over_the_log_clock() {
        AtomicLong nowNanos = new AtomicLong(1_000);
        try (PayloadLog log = PayloadLog.open(
                0, small(StorageBackend.OFF_HEAP, null).build(), null, nowNanos::get, LogFileOpener.DEFAULT)) {
            nowNanos.addAndGet(1_000_000_000L);
            send(log, key(1, 1), payload(4000, 0), CopyMethod.PACK);
            LogStatistics first = log.statistics();
            assertEquals(4000.0, first.appendedBytesPerSecond(), 1e-9);
            nowNanos.addAndGet(500_000_000L);
            send(log, key(1, 2), payload(1000, 0), CopyMethod.PACK);
            log.truncateAll(); // truncation does not change the growth rate
            LogStatistics second = log.statistics();
            assertEquals(2000.0, LogStatistics.appendedBytesPerSecond(first, second), 1e-9);
        }
    }

    @Test
    void a_truncated_entry_can_no_longer_be_read() {
        try (PayloadLog log = offHeapLog()) {
            LogEntry entry = send(log, key(1, 1), payload(100, 0), CopyMethod.PACK);
            log.truncate(TO_1, 1);
            PayloadLogException e = assertThrows(PayloadLogException.class, entry::payloadToArray);
            assertEquals(PayloadLogException.Reason.PAYLOAD_UNAVAILABLE, e.reason());
        }
    }

    @Test
    void a_closed_log_refuses_work_with_a_clear_error() {
        PayloadLog log = offHeapLog();
        LogEntry entry = send(log, key(1, 1), payload(100, 0), CopyMethod.PACK);
        log.close();
        log.close(); // idempotent
        PayloadLogException append = assertThrows(
                PayloadLogException.class,
                () -> log.append(key(1, 2), MemorySegment.ofArray(new byte[1]), 0, 1, CopyMethod.PACK));
        assertEquals(PayloadLogException.Reason.CLOSED, append.reason());
        assertEquals(
                PayloadLogException.Reason.CLOSED,
                assertThrows(PayloadLogException.class, entry::payloadToArray).reason());
    }
}
