package io.rewind.ft.sender;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rewind.engine.ChannelKey;
import io.rewind.engine.Frame;
import io.rewind.engine.SharedPayload;
import io.rewind.engine.Transport;
import io.rewind.ft.EventLogger;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.RecoveryMessages;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.transport.local.RecordingTransport;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The protocol's per-channel index of logged frames (primitive arrays, {@link SentFrames}) replays
 * exactly the frames a reference map of every send says it should, each with the recovery line it was
 * sent under, through growth, compaction, out-of-order sends, collective results shared by several
 * frames, and truncations.
 */
class SentFramesIndexTest {
    /** Takes frames and drops them: only the protocol's own work is exercised. */
    private static final Transport NOWHERE = new RecordingTransport(false);

    private static final int ME = 0;
    private static final int[] CONTEXTS = {2, 3, 4}; // 2 and 3 share a channel key (point to point + collective)

    /** What was sent: per (destination, channel key), sequence to (context, source, tag, line, payload). */
    private record Sent(int context, int source, int tag, long sequence, int line, byte[] payload) {}

    @Test
    void replays_the_same_frames_as_a_reference_map_through_growth_truncation_and_shared_results() {
        RecoveryLines lines = new RecoveryLines(3, 1);
        SenderLoggingRank protocol = new SenderLoggingRank(
                ME,
                0,
                PayloadLog.open(
                        ME, PayloadLogConfig.builder(StorageBackend.OFF_HEAP).build()),
                new EventLogger(3).clientFor(ME),
                lines);
        Map<Integer, Map<Long, TreeMap<Long, Sent>>> model = new HashMap<>();
        Map<Long, Long> nextSequence = new HashMap<>();
        SplittableRandom random = new SplittableRandom(42);
        // The lines the frames are sent under come from a stream of their own, so that the rest of the
        // run is the same as without them; they differ from frame to frame, so that a line kept in the
        // wrong slot (an out-of-order insert, a compaction) shows.
        SplittableRandom sentUnder = new SplittableRandom(7);
        long lineNumber = 0;
        try {
            for (int step = 0; step < 3000; step++) {
                int dest = 1 + random.nextInt(2);
                int context = CONTEXTS[random.nextInt(CONTEXTS.length)];
                long channelKey = ChannelKey.of(context, dest);
                long seqKey = channelKey; // a communicator's two contexts number their frames together
                boolean collective = context == 3 && random.nextInt(3) == 0;
                List<Frame> batch = new ArrayList<>();
                int count = collective ? 1 : 1 + random.nextInt(3);
                byte[] payload = new byte[random.nextInt(200)];
                random.nextBytes(payload);
                int tag = collective ? 1000 + step : random.nextInt(10);
                for (int i = 0; i < count; i++) {
                    long sequence = nextSequence.merge(seqKey, 1L, Long::sum);
                    Frame frame = new Frame(
                            context,
                            5,
                            ME,
                            dest,
                            tag,
                            sequence,
                            0,
                            MemorySegment.ofArray(payload.clone()),
                            0,
                            payload.length,
                            null);
                    frame.setLine(sentUnder.nextInt(1000));
                    batch.add(frame);
                }
                if (batch.size() > 1 && random.nextBoolean()) {
                    java.util.Collections.reverse(batch); // a concurrent sender overtook: logged out of order
                }
                SharedPayload result = collective ? new SharedPayload() : null;
                for (Frame frame : batch) {
                    protocol.send(frame, dest, result, NOWHERE);
                    protocol.afterSend(frame);
                    model.computeIfAbsent(dest, d -> new HashMap<>())
                            .computeIfAbsent(channelKey, k -> new TreeMap<>())
                            .put(frame.sequence(), new Sent(context, 5, tag, frame.sequence(), frame.line(), payload));
                }
                if (collective) {
                    // The same result to the other destination too: one log entry, two frames.
                    int other = 3 - dest;
                    long otherKey = ChannelKey.of(context, other);
                    long sequence = nextSequence.merge(otherKey, 1L, Long::sum);
                    Frame frame = new Frame(
                            context,
                            5,
                            ME,
                            other,
                            tag,
                            sequence,
                            0,
                            MemorySegment.ofArray(payload.clone()),
                            0,
                            payload.length,
                            null);
                    frame.setLine(sentUnder.nextInt(1000));
                    protocol.send(frame, other, result, NOWHERE);
                    protocol.afterSend(frame);
                    model.computeIfAbsent(other, d -> new HashMap<>())
                            .computeIfAbsent(otherKey, k -> new TreeMap<>())
                            .put(sequence, new Sent(context, 5, tag, sequence, frame.line(), payload));
                }
                if (step % 97 == 96) {
                    // Receivers checkpoint part of what they got; the protocol truncates.
                    for (int receiver = 1; receiver <= 2; receiver++) {
                        Map<Long, Long> frontier = new HashMap<>();
                        for (Map.Entry<Long, TreeMap<Long, Sent>> c :
                                model.getOrDefault(receiver, Map.of()).entrySet()) {
                            if (c.getValue().isEmpty()) {
                                continue;
                            }
                            long held = c.getValue().firstKey()
                                    + random.nextInt(c.getValue().size());
                            frontier.put(ChannelKey.of(ChannelKey.context(c.getKey()), ME), held);
                            c.getValue().headMap(held, true).clear();
                        }
                        lines.published(receiver, ++lineNumber, frontier);
                    }
                    protocol.truncate();
                }
                if (step % 250 == 249) {
                    checkReplay(protocol, model, random);
                }
            }
            checkReplay(protocol, model, random);
        } finally {
            protocol.close();
        }
    }

    /**
     * A replayed frame carries the recovery line it was first sent under, and its pattern and iteration
     * ids, not those of the moment it is replayed.
     */
    @Test
    void a_replayed_frame_keeps_the_line_it_was_sent_under() {
        SenderLoggingRank protocol = new SenderLoggingRank(
                ME,
                0,
                PayloadLog.open(
                        ME, PayloadLogConfig.builder(StorageBackend.OFF_HEAP).build()),
                new EventLogger(2).clientFor(ME),
                new RecoveryLines(2, 1));
        int[] lines = {2, 0, 5, Integer.MAX_VALUE};
        try {
            for (int k = 0; k < lines.length; k++) {
                byte[] payload = {(byte) k};
                Frame frame = new Frame(2, 0, ME, 1, 9, k + 1, 0, MemorySegment.ofArray(payload), 0, 1, null);
                frame.setPattern(3, 10 + k);
                frame.setLine(lines[k]);
                protocol.send(frame, 1, null, NOWHERE);
                protocol.afterSend(frame);
            }
            List<Frame> replay = protocol.framesFor(1, Map.of());
            assertEquals(lines.length, replay.size());
            for (int k = 0; k < lines.length; k++) {
                Frame f = replay.get(k);
                assertEquals(k + 1, f.sequence());
                assertEquals(lines[k], f.line(), "the line of frame " + (k + 1));
                assertEquals(3, f.patternId());
                assertEquals(10 + k, f.iterationId());
            }
        } finally {
            protocol.close();
        }
    }

    /**
     * A restarted rank re-executes sends its peer already holds; when the peer's oldest kept line is
     * ahead of the line this rank restarted from, the log is truncated past some of those before they
     * are re-sent. They are then neither sent nor logged (no replay can ask for them), and the rest of
     * the channel is logged and replayed as usual (a chaos run once failed here with "already obsolete").
     */
    @Test
    void a_restarted_sender_skips_what_every_kept_line_of_the_peer_holds() {
        RecoveryLines lines = new RecoveryLines(2, 1);
        SenderLoggingRank protocol = restarted(lines, 10); // the peer has received 1..10 on the channel
        RecordingTransport collect = new RecordingTransport(true);
        try {
            for (long seq = 1; seq <= 11; seq++) {
                if (seq == 3) {
                    // The peer's only kept line holds 1..6: a checkpoint of the peer truncates this log.
                    lines.published(1, 1, Map.of(ChannelKey.of(2, ME), 6L));
                    protocol.truncate();
                }
                byte[] payload = {(byte) seq};
                Frame frame = new Frame(2, 0, ME, 1, 9, seq, 0, MemorySegment.ofArray(payload), 0, 1, null);
                boolean sent = protocol.send(frame, 1, null, collect);
                protocol.afterSend(frame);
                assertEquals(seq == 11, sent, "sequence " + seq);
            }
            assertEquals(
                    List.of(11L), collect.frames().stream().map(Frame::sequence).toList());
            List<Frame> replay = protocol.framesFor(1, Map.of(ChannelKey.of(2, ME), 6L));
            assertEquals(
                    List.of(7L, 8L, 9L, 10L, 11L),
                    replay.stream().map(Frame::sequence).toList());
        } finally {
            protocol.close();
        }
    }

    /**
     * A peer that restarted too may hold less than its kept recovery lines claim (before a global
     * rollback discarded the lines of the execution being redone, that was the case after every one):
     * a checkpoint then truncates a new log past messages still to be sent that the peer lacks. They
     * are sent but not logged (the peer's kept lines claim them, so no recovery can ask for them); the
     * rest is logged as usual (a chaos sample failed here with "already obsolete").
     */
    @Test
    void after_a_global_rollback_messages_below_the_truncation_are_sent_but_not_logged() {
        RecoveryLines lines = new RecoveryLines(2, 1);
        SenderLoggingRank protocol = restarted(lines, 0); // the peer rolled back too: it holds nothing
        RecordingTransport collect = new RecordingTransport(true);
        try {
            lines.published(1, 3, Map.of(ChannelKey.of(2, ME), 6L)); // a line from before
            byte[] first = {0};
            Frame f1 = new Frame(2, 0, ME, 1, 9, 1, 0, MemorySegment.ofArray(first), 0, 1, null);
            protocol.send(f1, 1, null, collect);
            protocol.afterSend(f1);
            protocol.truncate(); // a checkpoint somewhere: truncates up to what the old line holds
            for (long seq = 2; seq <= 8; seq++) {
                byte[] payload = {(byte) seq};
                Frame frame = new Frame(2, 0, ME, 1, 9, seq, 0, MemorySegment.ofArray(payload), 0, 1, null);
                assertEquals(true, protocol.send(frame, 1, null, collect), "sequence " + seq);
                protocol.afterSend(frame);
            }
            assertEquals(8, collect.frames().size());
            assertEquals(
                    List.of(7L, 8L),
                    protocol.framesFor(1, Map.of()).stream()
                            .map(Frame::sequence)
                            .toList());
        } finally {
            protocol.close();
        }
    }

    /**
     * A restarted incarnation of rank {@link #ME} whose peer, rank 1, answered its rollback request
     * holding {@code peerHolds} on context 2.
     */
    private static SenderLoggingRank restarted(RecoveryLines lines, long peerHolds) {
        SenderLoggingRank protocol = new SenderLoggingRank(
                ME,
                1,
                PayloadLog.open(
                        ME, PayloadLogConfig.builder(StorageBackend.OFF_HEAP).build()),
                new EventLogger(2).clientFor(ME),
                lines);
        protocol.onControl(
                new RecoveryMessages.LastMessages(1, 0, Map.of(2, peerHolds)), new RecordingTransport(false));
        return protocol;
    }

    private static void checkReplay(
            SenderLoggingRank protocol, Map<Integer, Map<Long, TreeMap<Long, Sent>>> model, SplittableRandom random) {
        for (int dest = 1; dest <= 2; dest++) {
            Map<Long, Long> frontiers = new HashMap<>();
            List<Sent> expected = new ArrayList<>();
            for (Map.Entry<Long, TreeMap<Long, Sent>> c :
                    model.getOrDefault(dest, Map.of()).entrySet()) {
                long held = c.getValue().isEmpty()
                        ? 0
                        : c.getValue().firstKey()
                                - 1
                                + random.nextInt(c.getValue().size() + 1);
                frontiers.put(ChannelKey.of(ChannelKey.context(c.getKey()), ME), held);
                expected.addAll(c.getValue().tailMap(held, false).values());
            }
            List<Frame> replay = protocol.framesFor(dest, frontiers);
            Map<Long, List<Sent>> byChannel = new HashMap<>();
            for (Frame f : replay) {
                byte[] bytes = new byte[Math.toIntExact(f.lengthBytes())];
                MemorySegment.copy(f.data(), f.dataOffset(), MemorySegment.ofArray(bytes), 0, bytes.length);
                byChannel
                        .computeIfAbsent(ChannelKey.of(f.context(), dest), k -> new ArrayList<>())
                        .add(new Sent(f.context(), f.source(), f.tag(), f.sequence(), f.line(), bytes));
            }
            int total = 0;
            for (Map.Entry<Long, TreeMap<Long, Sent>> c :
                    model.getOrDefault(dest, Map.of()).entrySet()) {
                long held = frontiers.get(ChannelKey.of(ChannelKey.context(c.getKey()), ME));
                List<Sent> want =
                        new ArrayList<>(c.getValue().tailMap(held, false).values());
                List<Sent> got = byChannel.getOrDefault(c.getKey(), List.of());
                assertEquals(want.size(), got.size(), "frames replayed on channel " + Long.toHexString(c.getKey()));
                for (int i = 0; i < want.size(); i++) {
                    Sent w = want.get(i);
                    Sent g = got.get(i);
                    assertEquals(w.context(), g.context());
                    assertEquals(w.source(), g.source());
                    assertEquals(w.tag(), g.tag());
                    assertEquals(w.sequence(), g.sequence(), "sequence order");
                    assertEquals(w.line(), g.line(), "the line frame " + w.sequence() + " was sent under");
                    assertArrayEquals(w.payload(), g.payload());
                }
                total += want.size();
            }
            assertEquals(expected.size(), total);
            assertEquals(total, replay.size());
        }
    }
}
