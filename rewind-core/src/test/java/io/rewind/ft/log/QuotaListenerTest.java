package io.rewind.ft.log;

import static io.rewind.ft.log.LogFixtures.key;
import static io.rewind.ft.log.LogFixtures.send;
import static io.rewind.ft.log.LogFixtures.small;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Going over the quota is always reported and never costs a message. */
class QuotaListenerTest {

    private static final Channel TO_1 = new Channel(7, 0, 1);

    @Test
    void every_append_over_the_quota_is_reported_and_kept() {
        List<QuotaEvent> events = new ArrayList<>();
        PayloadLogConfig config =
                small(StorageBackend.OFF_HEAP, null).quotaBytes(2500).build();
        try (PayloadLog log = PayloadLog.open(4, config, events::add)) {
            send(log, key(1, 1), new byte[1000], CopyMethod.PACK);
            send(log, key(1, 2), new byte[1000], CopyMethod.PACK);
            assertTrue(events.isEmpty());
            send(log, key(1, 3), new byte[1000], CopyMethod.HELPER_THREAD);
            send(log, key(1, 4), new byte[1000], CopyMethod.PIPELINED);
            assertEquals(2, events.size());
            assertEquals(new QuotaEvent(4, 3000, 2500, 4096, key(1, 3), true), events.get(0));
            assertEquals(1500, events.get(1).excessBytes());
            assertFalse(events.get(1).firstCrossing());
            assertEquals(4, log.statistics().entries(), "nothing is dropped for the quota");

            log.truncate(TO_1, 3); // back under the quota
            send(log, key(1, 5), new byte[1000], CopyMethod.PACK);
            assertEquals(2, events.size());
            send(log, key(1, 6), new byte[1000], CopyMethod.PACK);
            assertEquals(3, events.size());
            assertTrue(events.get(2).firstCrossing(), "a new crossing after going back under");
        }
    }

    @Test
    void the_listener_may_act_on_the_log_for_example_by_truncating() {
        PayloadLogConfig config =
                small(StorageBackend.OFF_HEAP, null).quotaBytes(1500).build();
        List<PayloadLog> holder = new ArrayList<>();
        QuotaListener shedOldest = event -> holder.getFirst()
                .truncate(event.appended().channel(), event.appended().sequence() - 1);
        try (PayloadLog log = PayloadLog.open(0, config, shedOldest)) {
            holder.add(log);
            for (long s = 1; s <= 5; s++) {
                send(log, key(1, s), new byte[1000], CopyMethod.PACK);
            }
            assertEquals(1, log.statistics().entries());
            assertEquals(5, log.entries(TO_1, 1, 5).getFirst().key().sequence());
        }
    }

    @Test
    void a_quota_without_a_listener_is_refused() {
        PayloadLogConfig config =
                small(StorageBackend.OFF_HEAP, null).quotaBytes(1000).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PayloadLog.open(0, config));
        assertTrue(e.getMessage().contains("no QuotaListener"), e.getMessage());
    }
}
