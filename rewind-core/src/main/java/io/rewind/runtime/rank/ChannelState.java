package io.rewind.runtime.rank;

import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointStore;
import io.rewind.engine.ChannelKey;
import io.rewind.engine.Frame;
import io.rewind.engine.MailboxSnapshot;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What a restarted rank's queues hold at its line: the snapshot plus the messages in transit across it. */
final class ChannelState {
    /** The section holding what the rank had sent per channel at the line (for a resumed job's planning). */
    static final String SENT_SECTION = "rewind.sent";

    private ChannelState() {}

    /**
     * The line's mailbox snapshot with the messages kept in transit across the line appended, as if
     * they had arrived right after it: in the order they arrived, each channel's frontier moved past
     * them. A frame already held, or beyond a gap (a part that could not be read), is left out; the
     * sender's log or re-execution sends those again.
     */
    static MailboxSnapshot withInTransit(MailboxSnapshot snapshot, CheckpointImage image) {
        List<byte[]> parts = CheckpointStore.splitParts(image);
        if (parts.isEmpty()) {
            return snapshot;
        }
        Map<Long, Long> frontiers = new HashMap<>(snapshot.frontiers());
        List<Frame> unexpected = new ArrayList<>(snapshot.unexpected());
        List<Long> withdrawn = new ArrayList<>();
        for (long w : snapshot.withdrawn()) {
            withdrawn.add(w);
        }
        for (byte[] part : parts) {
            for (Frame f : EngineStateCodec.decodeFrames(part)) {
                long key = ChannelKey.of(f.context(), f.sourceWorld());
                long arrived = frontiers.getOrDefault(key, 0L);
                if (f.sequence() != arrived + 1) {
                    continue;
                }
                frontiers.put(key, f.sequence());
                if (f.isWithdrawn()) {
                    withdrawn.add(key);
                    withdrawn.add(f.sequence());
                } else {
                    unexpected.add(f);
                }
            }
        }
        long[] w = new long[withdrawn.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = withdrawn.get(i);
        }
        return new MailboxSnapshot(frontiers, unexpected, snapshot.held(), w);
    }

    /** The per-channel counts as a section's bytes: count i32, then channel key i64, count i64 each. */
    static byte[] encodeCounts(Map<Long, Long> counts) {
        ByteBuffer b = ByteBuffer.allocate(4 + 16 * counts.size()).putInt(counts.size());
        counts.forEach((k, v) -> b.putLong(k).putLong(v));
        return b.array();
    }

    /** What a line's image says the rank had sent per channel, or null if the file predates the record. */
    static Map<Long, Long> sent(CheckpointImage image) {
        byte[] bytes = image.sections().get(SENT_SECTION);
        if (bytes == null) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int n = b.getInt();
        Map<Long, Long> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            counts.put(b.getLong(), b.getLong());
        }
        return counts;
    }
}
