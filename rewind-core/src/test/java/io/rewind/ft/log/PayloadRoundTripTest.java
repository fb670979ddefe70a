package io.rewind.ft.log;

import static io.rewind.ft.log.LogFixtures.key;
import static io.rewind.ft.log.LogFixtures.randomBytes;
import static io.rewind.ft.log.LogFixtures.send;
import static io.rewind.ft.log.LogFixtures.small;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A logged message is byte-identical to what was sent, whatever the backend and copy method, even
 * though the application overwrites its buffer as soon as the send completes.
 */
class PayloadRoundTripTest {

    @TempDir
    Path dir;

    static Stream<Arguments> retainingBackendsAndMethods() {
        List<Arguments> out = new ArrayList<>();
        for (StorageBackend backend :
                List.of(StorageBackend.OFF_HEAP, StorageBackend.MAPPED_FILE, StorageBackend.HYBRID)) {
            for (CopyMethod method : CopyMethod.values()) {
                out.add(Arguments.of(backend, method));
            }
        }
        return out.stream();
    }

    /** Sizes around every boundary: empty, sub-word, one block, several blocks, several windows. */
    private static final int[] SIZES = {
        0, 1, 7, 8, 9, 64, 1000, 4096 - 56 - 8, 4096 - 56, 4096, 5000, 16 * 1024, 50_000, 100_003
    };

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("retainingBackendsAndMethods")
    void every_message_reads_back_identical_after_the_sender_overwrites_its_buffer(
            StorageBackend backend, CopyMethod method) {
        SplittableRandom random = new SplittableRandom(backend.ordinal() * 31L + method.ordinal());
        PayloadLogConfig.Builder builder = small(backend, dir);
        if (backend == StorageBackend.HYBRID) {
            // Long messages go to the file by size, the rest spill there once 64 KiB of memory is used.
            builder.mappedFileThresholdBytes(30_000).offHeapLimitBytes(64 * 1024);
        }
        PayloadLogConfig config = builder.build();
        try (PayloadLog log = PayloadLog.open(0, config)) {
            byte[] buffer = new byte[SIZES[SIZES.length - 1]];
            List<byte[]> sent = new ArrayList<>();
            long sequence = 0;
            for (int round = 0; round < 3; round++) {
                for (int size : SIZES) {
                    byte[] payload = randomBytes(random, size);
                    System.arraycopy(payload, 0, buffer, 0, size);
                    send(log, key(1, ++sequence), MemorySegment.ofArray(buffer), 0, size, method);
                    // The send completed: the application reuses its buffer at once.
                    Arrays.fill(buffer, (byte) 0x5A);
                    sent.add(payload);
                }
            }
            List<LogEntry> entries = log.entries(new Channel(7, 0, 1), 1, sequence);
            assertEquals(sent.size(), entries.size());
            for (int i = 0; i < sent.size(); i++) {
                assertArrayEquals(sent.get(i), entries.get(i).payloadToArray(), "entry " + (i + 1));
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("retainingBackendsAndMethods")
    void sources_of_any_kind_and_offset_are_logged_exactly(StorageBackend backend, CopyMethod method) {
        PayloadLogConfig config = small(backend, dir).build();
        try (PayloadLog log = PayloadLog.open(0, config);
                Arena arena = Arena.ofShared()) {
            int[] ints = new int[3000];
            Arrays.setAll(ints, i -> i * 0x01010101 + 17);
            long[] longs = new long[700];
            Arrays.setAll(longs, i -> i * 0x0102030405060708L);
            double[] doubles = new double[900];
            Arrays.setAll(doubles, i -> i / 3.0);
            MemorySegment nativeSource = arena.allocate(9000);
            for (int i = 0; i < 9000; i++) {
                nativeSource.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 13));
            }
            MemorySegment[] sources = {
                MemorySegment.ofArray(ints), MemorySegment.ofArray(longs), MemorySegment.ofArray(doubles), nativeSource
            };
            long sequence = 0;
            for (MemorySegment source : sources) {
                long offset = 12;
                long length = source.byteSize() - 20;
                byte[] expected = source.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
                LogEntry entry = send(log, key(2, ++sequence), source, offset, length, method);
                source.fill((byte) -1);
                MemorySegment back = arena.allocate(length + 5);
                entry.readPayload(back, 5);
                assertArrayEquals(expected, back.asSlice(5, length).toArray(ValueLayout.JAVA_BYTE));
            }
        }
    }
}
