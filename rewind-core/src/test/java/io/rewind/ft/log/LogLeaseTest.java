package io.rewind.ft.log;

import static io.rewind.ft.log.LogFixtures.SMALL_BLOCK_BYTES;
import static io.rewind.ft.log.LogFixtures.key;
import static io.rewind.ft.log.LogFixtures.randomBytes;
import static io.rewind.ft.log.LogFixtures.send;
import static io.rewind.ft.log.LogFixtures.small;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A lease reads a logged payload in place, and its memory stays put until the lease is released. */
class LogLeaseTest {

    private static final Channel TO_1 = new Channel(7, 0, 1);

    @TempDir
    Path dir;

    private static byte[] concat(ByteBuffer[] buffers) {
        int n = 0;
        for (ByteBuffer b : buffers) {
            n += b.remaining();
        }
        byte[] out = new byte[n];
        int at = 0;
        for (ByteBuffer b : buffers) {
            int len = b.remaining();
            b.duplicate().get(out, at, len);
            at += len;
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(
            value = StorageBackend.class,
            names = {"OFF_HEAP", "MAPPED_FILE", "HYBRID"})
    void aLeaseHoldsThePayloadAcrossBlocksInMessageOrder(StorageBackend backend) {
        SplittableRandom random = new SplittableRandom(11);
        try (PayloadLog log = PayloadLog.open(0, small(backend, dir).build())) {
            byte[] payload = randomBytes(random, (int) (3 * SMALL_BLOCK_BYTES + 123)); // several blocks
            LogEntry entry = send(log, key(1, 1), payload, CopyMethod.PACK);
            LogLease lease = log.lease(entry);
            assertNotNull(lease);
            if (backend == StorageBackend.OFF_HEAP) {
                assertTrue(lease.buffers().length > 1, "the payload spans blocks");
            }
            assertArrayEquals(payload, concat(lease.buffers()));
            lease.release();
        }
    }

    @Test
    void truncatedBlocksAreNotReusedWhileLeased() {
        PayloadLogConfig config =
                small(StorageBackend.OFF_HEAP, null).spareBlocks(4).build();
        SplittableRandom random = new SplittableRandom(12);
        try (PayloadLog log = PayloadLog.open(0, config)) {
            byte[] first = randomBytes(random, (int) (2 * SMALL_BLOCK_BYTES));
            LogEntry entry = send(log, key(1, 1), first, CopyMethod.PACK);
            LogLease lease = log.lease(entry);
            log.truncate(TO_1, 1); // what a checkpoint does while the record still waits to be written
            for (long s = 2; s <= 20; s++) { // would land in the freed blocks, were they freed
                send(log, key(1, s), randomBytes(random, 3000), CopyMethod.PACK);
            }
            assertArrayEquals(first, concat(lease.buffers()), "the leased memory kept its bytes");
            assertNull(log.lease(entry), "a truncated entry cannot be leased any more");
            lease.release();
            lease.release(); // a second release changes nothing
            long before = log.statistics().storageBytes();
            log.truncateAll();
            assertTrue(log.statistics().storageBytes() < before, "released blocks are freed at truncation");
        }
    }

    @Test
    void closingTheLogWaitsForTheLastLeaseToFreeTheMemory() {
        SplittableRandom random = new SplittableRandom(13);
        // No block prepared ahead: a block the preparer still holds when the log closes is unmapped by
        // the preparer once it is done, later than the release this test watches.
        PayloadLog log = PayloadLog.open(
                0, small(StorageBackend.OFF_HEAP, null).prepareAhead(false).build());
        byte[] payload = randomBytes(random, 10_000);
        LogEntry entry = send(log, key(1, 1), payload, CopyMethod.PACK);
        LogLease lease = log.lease(entry);
        log.close();
        assertArrayEquals(payload, concat(lease.buffers()), "readable after close while leased");
        lease.release();
        ByteBuffer gone = lease.buffers()[0];
        assertThrows(IllegalStateException.class, () -> gone.get(0));
    }

    @Test
    void aBackendThatKeepsNoPayloadsHasNothingToLease() {
        try (PayloadLog log =
                PayloadLog.open(0, small(StorageBackend.DUMMY, null).build())) {
            LogEntry entry = send(log, key(1, 1), new byte[10_000], CopyMethod.PACK);
            assertNull(log.lease(entry));
        }
    }

    @Test
    void aPipelinedCopyNotFinishedCannotBeLeased() {
        try (PayloadLog log =
                PayloadLog.open(0, small(StorageBackend.OFF_HEAP, null).build())) {
            byte[] payload = new byte[10_000];
            LogEntry entry =
                    log.append(key(1, 1), MemorySegment.ofArray(payload), 0, payload.length, CopyMethod.PIPELINED);
            entry.copyNextChunk(1000);
            assertNull(log.lease(entry));
            entry.awaitCopy();
            LogLease lease = log.lease(entry);
            assertNotNull(lease);
            assertEquals(payload.length, concat(lease.buffers()).length);
            lease.release();
        }
    }
}
