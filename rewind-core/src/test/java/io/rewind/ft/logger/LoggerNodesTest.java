package io.rewind.ft.logger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.ft.log.LogEntry;
import io.rewind.ft.log.MessageKey;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The logger nodes on their own: who accepts a dump, what comes back, what a death loses and which
 * senders must then roll back.
 */
class LoggerNodesTest {
    private static final long WAIT = 10_000_000_000L;

    private static PayloadLog logWith(int rank, int destination, int messages, int bytes) {
        PayloadLog log = PayloadLog.open(
                rank, PayloadLogConfig.builder(StorageBackend.OFF_HEAP).build());
        for (int i = 1; i <= messages; i++) {
            byte[] payload = new byte[bytes];
            for (int b = 0; b < bytes; b++) {
                payload[b] = (byte) (i * 31 + b);
            }
            log.append(new MessageKey(0, rank, destination, 7, i, 0), MemorySegment.ofArray(payload), 0, bytes);
        }
        return log;
    }

    private static DumpedPayload[] dumpAll(LoggerClient client, PayloadLog log, int destination) {
        List<LogEntry> entries = log.oldestEntries(Long.MAX_VALUE);
        Dump d = client.startDump(entries);
        assertNotNull(d, "every logger declined");
        assertTrue(d.await(WAIT));
        int[][] dests = new int[entries.size()][];
        int[] refs = new int[entries.size()];
        for (int i = 0; i < dests.length; i++) {
            dests[i] = new int[] {destination};
            refs[i] = 1;
        }
        return client.takeIn(d, dests, refs);
    }

    @Test
    void aDumpComesBackByteForByteAndItsMemoryGoesWhenReleased() {
        try (LoggerNodes job = new LoggerNodes(LoggerConfig.of(2, 1 << 20), 3);
                PayloadLog log = logWith(1, 2, 5, 1000)) {
            LoggerClient client = job.clientFor(1);
            List<LogEntry> entries = log.oldestEntries(Long.MAX_VALUE);
            List<byte[]> expected = new ArrayList<>();
            entries.forEach(e -> expected.add(e.payloadToArray()));
            DumpedPayload[] dumped = dumpAll(client, log, 2);
            for (int i = 0; i < dumped.length; i++) {
                assertArrayEquals(expected.get(i), client.readToArray(dumped[i]));
                assertEquals(entries.get(i).key(), dumped[i].key());
            }
            // Rank 1 asks logger 1 first (1 mod 2).
            assertEquals(1L, loggerField(job, 1, "storedBlocks"));
            assertEquals(0L, loggerField(job, 0, "storedBlocks"));
            for (DumpedPayload p : dumped) {
                p.unreference();
            }
            assertEquals(0L, loggerField(job, 1, "heldBytes"));
        }
    }

    @Test
    void aLoggerGivenAFolderKeepsBlocksAsFilesAndDeletesThemWhenReleased(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws java.io.IOException {
        LoggerConfig config = LoggerConfig.of(1, 1 << 20).withFolder(dir.toString());
        try (LoggerNodes job = new LoggerNodes(config, 1);
                PayloadLog log = logWith(0, 0, 4, 700)) {
            LoggerClient client = job.clientFor(0);
            List<byte[]> expected = new ArrayList<>();
            log.oldestEntries(Long.MAX_VALUE).forEach(e -> expected.add(e.payloadToArray()));
            DumpedPayload[] dumped = dumpAll(client, log, 0);
            java.nio.file.Path folder = dir.resolve("logger-0");
            try (var files = java.nio.file.Files.list(folder)) {
                assertEquals(1, files.count(), "one block, one file");
            }
            for (int i = 0; i < dumped.length; i++) {
                assertArrayEquals(expected.get(i), client.readToArray(dumped[i]));
            }
            for (DumpedPayload p : dumped) {
                p.unreference();
            }
            try (var files = java.nio.file.Files.list(folder)) {
                assertEquals(0, files.count(), "released: the file is gone");
            }
            assertEquals(0L, loggerField(job, 0, "heldBytes"));
        }
    }

    @Test
    void aFullLoggerDeclinesAndTheNextOneIsAskedAndWhenAllAreFullNoneTakesIt() {
        // Each logger holds one dump of 5 x 1000 bytes, not two.
        LoggerConfig config = LoggerConfig.of(2, 1 << 20).withCapacity(6_000);
        try (LoggerNodes job = new LoggerNodes(config, 2);
                PayloadLog a = logWith(0, 1, 5, 1000);
                PayloadLog b = logWith(0, 1, 5, 1000);
                PayloadLog c = logWith(0, 1, 5, 1000)) {
            LoggerClient client = job.clientFor(0);
            dumpAll(client, a, 1);
            dumpAll(client, b, 1);
            assertEquals(1L, loggerField(job, 0, "storedBlocks"));
            assertEquals(1L, loggerField(job, 1, "storedBlocks"));
            assertEquals(1L, loggerField(job, 0, "declined"), "logger 0 was asked first and was full");
            assertNull(client.startDump(c.oldestEntries(Long.MAX_VALUE)));
        }
    }

    @Test
    void aCorruptedBlockIsRefusedAtReplay() {
        try (LoggerNodes job = new LoggerNodes(LoggerConfig.of(1, 1 << 20), 1);
                PayloadLog log = logWith(0, 0, 2, 64)) {
            LoggerClient client = job.clientFor(0);
            DumpedPayload[] dumped = dumpAll(client, log, 0);
            DumpedPayload.Placement at = dumped[0].placements.get(0);
            ((LocalLoggerNode) at.node()).corruptForTest(at.blockId());
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> client.readToArray(dumped[0]));
            assertTrue(e.getMessage().contains("integrity check"), e.getMessage());
        }
    }

    @Test
    void aDeadLoggerLosesWhatItAloneHeldAndItsSendersRollBackWithTheirReceivers() {
        try (LoggerNodes job = new LoggerNodes(LoggerConfig.of(2, 1 << 20), 4);
                PayloadLog from0 = logWith(0, 1, 3, 100);
                PayloadLog from2 = logWith(2, 3, 3, 100)) {
            DumpedPayload[] lost = dumpAll(job.clientFor(0), from0, 1); // rank 0 asks logger 0 first
            dumpAll(job.clientFor(2), from2, 3); // rank 2 too (2 mod 2)
            job.kill(0);
            assertThrows(LostPayloadException.class, () -> lost[0].owner.readToArray(lost[0]));
            assertEquals(Set.of(0), job.sendersToRollBack(Set.of(1)).senders());
            assertEquals(Set.of(2), job.sendersToRollBack(Set.of(3)).senders());
            assertTrue(job.sendersToRollBack(Set.of(0)).senders().isEmpty());
            // Once the messages are trimmed (the receiver checkpointed past them), nothing is needed.
            for (DumpedPayload p : lost) {
                p.unreference();
            }
            assertTrue(job.sendersToRollBack(Set.of(1)).senders().isEmpty());
        }
    }

    @Test
    void withTwoReplicasOneDeathLosesNothing() {
        try (LoggerNodes job = new LoggerNodes(LoggerConfig.of(2, 1 << 20).withReplicas(2), 2);
                PayloadLog log = logWith(0, 1, 3, 100)) {
            LoggerClient client = job.clientFor(0);
            byte[] first = log.oldestEntries(Long.MAX_VALUE).get(0).payloadToArray();
            DumpedPayload[] dumped = dumpAll(client, log, 1);
            assertEquals(2, dumped[0].placements.size());
            job.kill(0);
            assertArrayEquals(first, client.readToArray(dumped[0]));
            assertTrue(job.sendersToRollBack(Set.of(1)).senders().isEmpty());
        }
    }

    @Test
    void aScheduledDeathStrikesAtItsDumpRequest() {
        LoggerConfig config = LoggerConfig.of(1, 1 << 20).withKills(LoggerConfig.Kill.parse("0@2"));
        try (LoggerNodes job = new LoggerNodes(config, 1);
                PayloadLog a = logWith(0, 0, 2, 10);
                PayloadLog b = logWith(0, 0, 2, 10)) {
            LoggerClient client = job.clientFor(0);
            dumpAll(client, a, 0);
            assertNull(client.startDump(b.oldestEntries(Long.MAX_VALUE)));
            assertTrue(!job.alive(0));
        }
    }

    @SuppressWarnings("unchecked")
    private static long loggerField(LoggerNodes job, int logger, String key) {
        List<Map<String, Object>> nodes =
                (List<Map<String, Object>>) job.runRecord().get("loggerNodes");
        return ((Number) nodes.get(logger).get(key)).longValue();
    }
}
