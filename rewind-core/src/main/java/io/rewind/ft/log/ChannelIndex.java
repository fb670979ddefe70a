package io.rewind.ft.log;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The live entries of one channel, sorted by sequence number, with that channel's accounting.
 * Entries normally arrive in sequence order (appended at the end) and leave from the front
 * (truncation), so the array is consumed from a moving head and compacted now and then. Gaps are
 * allowed (a channel whose logging was switched off for a while); duplicates are not.
 */
final class ChannelIndex {

    private static final int COMPACT_MIN_HEAD = 64;

    private final Channel channel;
    private final ArrayList<LogEntry> entries = new ArrayList<>();
    private int head;

    long payloadBytes;
    long appendedEntries;
    long appendedBytes;
    long truncatedUpToSequence;

    ChannelIndex(Channel channel) {
        this.channel = channel;
    }

    boolean matches(MessageKey key) {
        return key.contextId() == channel.contextId()
                && key.source() == channel.source()
                && key.destination() == channel.destination();
    }

    int size() {
        return entries.size() - head;
    }

    /** Index of {@code sequence} in {@link #entries}, or {@code -(insertion point) - 1}. */
    private int find(long sequence) {
        int lo = head;
        int hi = entries.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long midSequence = entries.get(mid).key().sequence();
            if (midSequence < sequence) {
                lo = mid + 1;
            } else if (midSequence > sequence) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    /** Rejects a sequence number that is obsolete or already logged, before any storage is used. */
    void checkInsertable(long sequence) {
        if (sequence <= truncatedUpToSequence) {
            throw new IllegalArgumentException("sequence " + sequence + " on " + channel
                    + " is already obsolete: the channel was" + " truncated up to " + truncatedUpToSequence);
        }
        if (size() > 0 && entries.getLast().key().sequence() < sequence) {
            return;
        }
        if (find(sequence) >= 0) {
            throw new IllegalArgumentException("sequence " + sequence + " on " + channel + " is already logged");
        }
    }

    void insert(LogEntry entry) {
        long sequence = entry.key().sequence();
        if (size() == 0 || entries.getLast().key().sequence() < sequence) {
            entries.add(entry);
        } else {
            entries.add(-find(sequence) - 1, entry);
        }
        payloadBytes += entry.lengthBytes();
        appendedEntries++;
        appendedBytes += entry.lengthBytes();
    }

    List<LogEntry> range(long fromSequenceInclusive, long toSequenceInclusive) {
        List<LogEntry> out = new ArrayList<>();
        if (fromSequenceInclusive > toSequenceInclusive) {
            return out;
        }
        int at = find(fromSequenceInclusive);
        if (at < 0) {
            at = -at - 1;
        }
        for (int i = at; i < entries.size(); i++) {
            LogEntry entry = entries.get(i);
            if (entry.key().sequence() > toSequenceInclusive) {
                break;
            }
            out.add(entry);
        }
        return out;
    }

    long lastSequence() {
        return size() == 0 ? truncatedUpToSequence : entries.getLast().key().sequence();
    }

    /** Removes entries up to {@code upToSequenceInclusive}, oldest first, handing each to {@code removed}. */
    void removeUpTo(long upToSequenceInclusive, Consumer<LogEntry> removed) {
        while (head < entries.size() && entries.get(head).key().sequence() <= upToSequenceInclusive) {
            LogEntry entry = entries.set(head, null);
            head++;
            payloadBytes -= entry.lengthBytes();
            removed.accept(entry);
        }
        truncatedUpToSequence = Math.max(truncatedUpToSequence, upToSequenceInclusive);
        if (head >= COMPACT_MIN_HEAD && head * 2 >= entries.size()) {
            entries.subList(0, head).clear();
            head = 0;
        }
    }

    /**
     * Removes one live entry (its payload moved elsewhere, a logger node): unlike truncation, later
     * sequence numbers stay live and the channel's obsolete bound does not move.
     */
    boolean remove(LogEntry entry) {
        int at = find(entry.key().sequence());
        if (at < 0 || entries.get(at) != entry) {
            return false;
        }
        if (at == head) {
            entries.set(head, null);
            head++;
        } else {
            entries.remove(at);
        }
        payloadBytes -= entry.lengthBytes();
        if (head >= COMPACT_MIN_HEAD && head * 2 >= entries.size()) {
            entries.subList(0, head).clear();
            head = 0;
        }
        return true;
    }

    ChannelStatistics statistics() {
        return new ChannelStatistics(size(), payloadBytes, appendedEntries, appendedBytes, truncatedUpToSequence);
    }
}
