package io.rewind.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The summary says which reserve a run needed when a rank's log grew well past the memory reserved
 * for it, and stays quiet otherwise.
 */
class RunReportReserveHintTest {

    private static final long MIB = 1L << 20;

    private static String summaryOf(long reserveBytes, long peakPayloadBytes) {
        JobConfig config = JobConfig.builder("Program")
                .ranks(2)
                .protocol("pessimistic")
                .payloadLog(PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                        .reserveBytes(reserveBytes)
                        .build())
                .build();
        RunReport.Builder report = new RunReport.Builder(config);
        report.finalLog(0, 1000, peakPayloadBytes, peakPayloadBytes);
        return report.build(Duration.ofSeconds(1)).summary();
    }

    @Test
    void aLogThatGrewFarWithoutAReserveGetsTheReserveItNeeded() {
        String summary = summaryOf(0, 100 * MIB);
        assertTrue(summary.contains("a rank's log grew to 100 MiB"), summary);
        assertTrue(summary.contains("--log-reserve 110MiB"), summary);
    }

    @Test
    void aLogThatOutgrewItsReserveIsToldSo() {
        String summary = summaryOf(80 * MIB, 100 * MIB);
        assertTrue(summary.contains("past its reserve of 80 MiB"), summary);
    }

    @Test
    void noHintForALogWithinItsReserveOrASmallLog() {
        assertFalse(summaryOf(128 * MIB, 100 * MIB).contains("--log-reserve"));
        assertFalse(summaryOf(0, 10 * MIB).contains("--log-reserve"));
    }
}
