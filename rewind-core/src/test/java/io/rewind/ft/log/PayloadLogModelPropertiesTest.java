package io.rewind.ft.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random sequences of appends (any size, method, channel) and truncations, checked after every step
 * against a plain map: the log holds exactly the model's entries, with the model's bytes, and its
 * accounting and storage agree with what it holds.
 */
class PayloadLogModelPropertiesTest {

    sealed interface Op permits Append, Truncate, TruncateAll {}

    record Append(int destination, int length, CopyMethod method, byte fill) implements Op {}

    record Truncate(int destination, int keepLast) implements Op {}

    record TruncateAll() implements Op {}

    @Provide
    Arbitrary<List<Op>> programs() {
        Arbitrary<Op> append = Combinators.combine(
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.oneOf(
                                Arbitraries.integers().between(0, 100),
                                Arbitraries.integers().between(0, 9000),
                                Arbitraries.integers().between(15_000, 40_000)),
                        Arbitraries.of(CopyMethod.class),
                        Arbitraries.bytes())
                .as(Append::new);
        Arbitrary<Op> truncate = Combinators.combine(
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.integers().between(0, 4))
                .as(Truncate::new);
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, append),
                net.jqwik.api.Tuple.of(2, truncate),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new TruncateAll())));
        return op.list().ofMinSize(1).ofMaxSize(40);
    }

    @Property(tries = 60)
    void off_heap_log_matches_the_model(@ForAll("programs") List<Op> program) {
        check(StorageBackend.OFF_HEAP, program);
    }

    @Property(tries = 40)
    void mapped_log_matches_the_model(@ForAll("programs") List<Op> program) {
        check(StorageBackend.MAPPED_FILE, program);
    }

    private static void check(StorageBackend backend, List<Op> program) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("payload-log-property");
            PayloadLogConfig config = LogFixtures.small(backend, dir).build();
            try (PayloadLog log = PayloadLog.open(0, config)) {
                Map<Integer, TreeMap<Long, byte[]>> model = new HashMap<>();
                Map<Integer, Long> nextSequence = new HashMap<>();
                List<MessageKey> sendOrder = new ArrayList<>();
                for (Op op : program) {
                    switch (op) {
                        case Append a -> {
                            long s = nextSequence.merge(a.destination(), 1L, Long::sum);
                            byte[] payload = new byte[a.length()];
                            java.util.Arrays.fill(payload, a.fill());
                            if (payload.length > 0) {
                                payload[payload.length - 1] = (byte) s;
                            }
                            MessageKey key = LogFixtures.key(a.destination(), s);
                            LogFixtures.send(log, key, payload, a.method());
                            model.computeIfAbsent(a.destination(), d -> new TreeMap<>())
                                    .put(s, payload);
                            sendOrder.add(key);
                        }
                        case Truncate t -> {
                            long upTo = nextSequence.getOrDefault(t.destination(), 0L) - t.keepLast();
                            if (upTo >= 1) {
                                log.truncate(new Channel(7, 0, t.destination()), upTo);
                                model.getOrDefault(t.destination(), new TreeMap<>())
                                        .headMap(upTo, true)
                                        .clear();
                            }
                        }
                        case TruncateAll x -> {
                            log.truncateAll();
                            model.values().forEach(TreeMap::clear);
                        }
                    }
                    verify(log, model, sendOrder, config);
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            deleteQuietly(dir);
        }
    }

    private static void verify(
            PayloadLog log,
            Map<Integer, TreeMap<Long, byte[]>> model,
            List<MessageKey> sendOrder,
            PayloadLogConfig config) {
        long entries = 0;
        long bytes = 0;
        for (Map.Entry<Integer, TreeMap<Long, byte[]>> channel : model.entrySet()) {
            List<LogEntry> logged = log.entries(new Channel(7, 0, channel.getKey()), 1, Long.MAX_VALUE);
            assertEquals(
                    new ArrayList<>(channel.getValue().keySet()),
                    logged.stream().map(e -> e.key().sequence()).toList());
            for (LogEntry e : logged) {
                assertArrayEquals(channel.getValue().get(e.key().sequence()), e.payloadToArray());
                bytes += e.lengthBytes();
            }
            entries += logged.size();
        }
        LogStatistics stats = log.statistics();
        assertEquals(entries, stats.entries());
        assertEquals(bytes, stats.payloadBytes());
        List<MessageKey> liveInSendOrder = sendOrder.stream()
                .filter(k -> model.get(k.destination()).containsKey(k.sequence()))
                .toList();
        assertEquals(
                liveInSendOrder,
                log.entriesInSendOrder().stream().map(LogEntry::key).toList());
        // Every block in use is either the one being filled or holds a fragment of a live entry, so
        // truncation really gives storage back.
        long unit = config.backend() == StorageBackend.OFF_HEAP ? config.blockBytes() : config.mappedWindowBytes();
        long blocksTouchedByLiveEntries = 0;
        for (LogEntry e : log.entriesInSendOrder()) {
            blocksTouchedByLiveEntries += e.lengthBytes() / (unit - LogBlockFormat.HEADER_BYTES - 8) + 2;
        }
        assertTrue(
                stats.storageBytes() <= (1 + blocksTouchedByLiveEntries) * unit,
                "storage " + stats.storageBytes() + " for " + entries + " live entries");
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException ignored) {
            // A temp directory left behind is not a test failure.
        }
    }
}
