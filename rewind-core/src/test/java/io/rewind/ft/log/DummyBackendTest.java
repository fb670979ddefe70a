package io.rewind.ft.log;

import static io.rewind.ft.log.LogFixtures.key;
import static io.rewind.ft.log.LogFixtures.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The dummy backend makes every copy into one reused area and keeps nothing. */
class DummyBackendTest {

    @Test
    void copies_land_in_one_area_that_grows_only_for_longer_messages() {
        try (PayloadLog log = PayloadLog.open(
                0, PayloadLogConfig.builder(StorageBackend.DUMMY).build())) {
            for (long s = 1; s <= 100; s++) {
                send(log, key(1, s), new byte[3000], CopyMethod.values()[(int) (s % 3)]);
            }
            assertEquals(4096, log.statistics().storageBytes());
            send(log, key(1, 101), new byte[10_000], CopyMethod.HELPER_THREAD);
            send(log, key(1, 102), new byte[100], CopyMethod.PACK);
            LogStatistics stats = log.statistics();
            assertEquals(12_288, stats.storageBytes(), "the smaller area was freed once unused");
            assertEquals(102, stats.entries(), "accounting still counts what was logged");
        }
    }

    @Test
    void reading_back_says_the_dummy_keeps_no_payloads() {
        try (PayloadLog log = PayloadLog.open(
                0, PayloadLogConfig.builder(StorageBackend.DUMMY).build())) {
            LogEntry entry = send(log, key(1, 1), new byte[10], CopyMethod.PACK);
            PayloadLogException e = assertThrows(PayloadLogException.class, entry::payloadToArray);
            assertEquals(PayloadLogException.Reason.PAYLOAD_UNAVAILABLE, e.reason());
        }
    }
}
