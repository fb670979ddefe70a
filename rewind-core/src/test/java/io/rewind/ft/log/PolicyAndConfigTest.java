package io.rewind.ft.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The configuration rejects nonsense with the setting's name; the policy maps sizes to methods. */
class PolicyAndConfigTest {

    private static String rejection(PayloadLogConfig.Builder builder) {
        return assertThrows(IllegalArgumentException.class, builder::build).getMessage();
    }

    @Test
    void invalid_settings_are_rejected_naming_the_setting() {
        assertTrue(rejection(PayloadLogConfig.builder(StorageBackend.OFF_HEAP).blockBytes(1000))
                .contains("blockBytes"));
        assertTrue(rejection(PayloadLogConfig.builder(StorageBackend.OFF_HEAP).mappedWindowBytes(4097))
                .contains("mappedWindowBytes"));
        assertTrue(
                rejection(PayloadLogConfig.builder(StorageBackend.MAPPED_FILE)).contains("mappedDirectory"));
        assertTrue(rejection(PayloadLogConfig.builder(StorageBackend.HYBRID)).contains("mappedDirectory"));
        assertTrue(rejection(PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                        .pipelineThresholdBytes(10)
                        .helperThreadThresholdBytes(5))
                .contains("pipelineThresholdBytes"));
        assertTrue(rejection(PayloadLogConfig.builder(StorageBackend.OFF_HEAP).quotaBytes(0))
                .contains("quotaBytes"));
        assertTrue(rejection(PayloadLogConfig.builder(StorageBackend.OFF_HEAP).offHeapLimitBytes(100))
                .contains("offHeapLimitBytes"));
        assertTrue(rejection(PayloadLogConfig.builder(StorageBackend.OFF_HEAP).spareBlocks(-1))
                .contains("spareBlocks"));
        assertTrue(rejection(PayloadLogConfig.builder(StorageBackend.OFF_HEAP).pipelineChunkBytes(8))
                .contains("pipelineChunkBytes"));
    }

    @Test
    void to_builder_round_trips() {
        PayloadLogConfig config = PayloadLogConfig.builder(StorageBackend.HYBRID)
                .mappedDirectory(Path.of("x"))
                .quotaBytes(123)
                .build();
        assertEquals(config, config.toBuilder().build());
    }

    @Test
    void the_policy_picks_methods_by_size_and_the_file_only_for_hybrid_logs() {
        PayloadLogConfig config = PayloadLogConfig.builder(StorageBackend.HYBRID)
                .mappedDirectory(Path.of("x"))
                .pipelineThresholdBytes(2048)
                .helperThreadThresholdBytes(131_072)
                .mappedFileThresholdBytes(1 << 20)
                .build();
        HybridCopyPolicy policy = config.copyPolicy();
        assertEquals(CopyMethod.PACK, policy.methodFor(0));
        assertEquals(CopyMethod.PACK, policy.methodFor(2047));
        assertEquals(CopyMethod.PIPELINED, policy.methodFor(2048));
        assertEquals(CopyMethod.PIPELINED, policy.methodFor(131_071));
        assertEquals(CopyMethod.HELPER_THREAD, policy.methodFor(131_072));
        assertFalse(policy.prefersMappedFile((1 << 20) - 1));
        assertTrue(policy.prefersMappedFile(1 << 20));
        HybridCopyPolicy offHeapOnly = PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                .mappedFileThresholdBytes(1)
                .build()
                .copyPolicy();
        assertFalse(offHeapOnly.prefersMappedFile(Long.MAX_VALUE - 1), "only a hybrid log places by size");
    }

    @Test
    void append_without_a_method_uses_the_policy() {
        PayloadLogConfig config = PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                .pipelineThresholdBytes(100)
                .helperThreadThresholdBytes(1000)
                .build();
        try (PayloadLog log = PayloadLog.open(0, config)) {
            var src = java.lang.foreign.MemorySegment.ofArray(new byte[2000]);
            assertEquals(
                    CopyMethod.PACK,
                    log.append(LogFixtures.key(1, 1), src, 0, 99).copyMethod());
            LogEntry pipelined = log.append(LogFixtures.key(1, 2), src, 0, 100);
            assertEquals(CopyMethod.PIPELINED, pipelined.copyMethod());
            pipelined.awaitCopy();
            LogEntry helper = log.append(LogFixtures.key(1, 3), src, 0, 1000);
            assertEquals(CopyMethod.HELPER_THREAD, helper.copyMethod());
            helper.awaitCopy();
        }
    }

    private static CopyMethodCalibration.Measurement m(long size, double pack, double pipelined, double helper) {
        return new CopyMethodCalibration.Measurement(size, 100, pack, pipelined, helper);
    }

    @Test
    void calibration_suggests_the_size_from_which_a_method_keeps_winning() {
        CopyMethodCalibration.Result result = CopyMethodCalibration.suggest(List.of(
                m(1024, 100, 101, 300),
                m(4096, 100, 90, 200), // pipelined wins from here on
                m(16384, 100, 102, 150), // ... except here: noise must not count
                m(65536, 100, 80, 70),
                m(262144, 100, 80, 50))); // helper wins from 64 KiB on
        assertEquals(65536, result.pipelineThresholdBytes(), "pipelined must win at every larger size");
        assertEquals(65536, result.helperThreadThresholdBytes());
        assertTrue(result.report().contains("helperThreadThresholdBytes=65536"), result.report());

        CopyMethodCalibration.Result packAlways =
                CopyMethodCalibration.suggest(List.of(m(1024, 100, 100, 300), m(4096, 100, 100, 300)));
        assertEquals(PayloadLogConfig.UNLIMITED, packAlways.pipelineThresholdBytes());
        assertEquals(PayloadLogConfig.UNLIMITED, packAlways.helperThreadThresholdBytes());
        PayloadLogConfig applied = packAlways.applyTo(
                PayloadLogConfig.builder(StorageBackend.OFF_HEAP).build());
        assertEquals(CopyMethod.PACK, applied.copyPolicy().methodFor(1L << 40));
    }

    @Test
    void calibration_runs_end_to_end_and_yields_a_valid_configuration() {
        CopyMethodCalibration.Result result = CopyMethodCalibration.calibrate(
                new CopyMethodCalibration.Options(List.of(1024L, 65_536L), 2_000_000L, 1, 4096));
        assertEquals(2, result.measurements().size());
        for (CopyMethodCalibration.Measurement m : result.measurements()) {
            assertTrue(m.transferOnlyNanos() > 0
                    && m.packNanos() > 0
                    && m.pipelinedNanos() > 0
                    && m.helperThreadNanos() > 0);
        }
        result.applyTo(PayloadLogConfig.builder(StorageBackend.OFF_HEAP).build()); // validates
    }
}
