package io.rewind.launch;

import io.rewind.ft.EventLogger;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * The event logger's append-only file: every determinant it acknowledges is written here first, so a
 * restarted event logger process reads back everything its predecessor acknowledged. A record is
 * written before its answer is sent, into the operating system's cache: it survives the death of the
 * event logger process, not a power cut of its host before the cache reaches the disk.
 *
 * <pre>
 *   record: | length u32 | kind u8 | rank u32 | index u64 | values... u64 | crc32c u32 |
 *            length counts kind..values; kind 1: a wildcard match (source, tag, sequence),
 *            kind 2: a poll's outcome (its values; none: a poll that found nothing)
 * </pre>
 *
 * Reading stops at the first record that is cut short or fails its checksum (the tail a crash left
 * half-written), and the file is cut back to the records before it.
 */
final class EventJournal implements AutoCloseable {
    private static final byte WILDCARD = 1;
    private static final byte POLL = 2;
    private static final int HEAD = 1 + 4 + 8;
    /** No outcome has more values than this: a longer length is a damaged record. */
    private static final int MAX_VALUES = 1 << 20;

    private final FileChannel file;

    private EventJournal(FileChannel file) {
        this.file = file;
    }

    /** Opens (or creates) the journal and replays what it holds into {@code into}; returns the journal. */
    static EventJournal open(Path path, EventLogger into) throws IOException {
        FileChannel ch =
                FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        long good = replay(ch, into);
        if (good < ch.size()) {
            System.err.println("rewind: event journal " + path + ": " + (ch.size() - good)
                    + " bytes of a record cut short or damaged at its end dropped");
            ch.truncate(good);
        }
        ch.position(good);
        return new EventJournal(ch);
    }

    private static long replay(FileChannel ch, EventLogger into) throws IOException {
        ByteBuffer all = ByteBuffer.allocate((int) Math.min(ch.size(), Integer.MAX_VALUE - 8));
        while (all.hasRemaining() && ch.read(all, all.position()) > 0) {
            // read until full or end of file
        }
        all.flip();
        long good = 0;
        while (all.remaining() >= 4) {
            int start = all.position();
            int length = all.getInt();
            if (length < HEAD || length > HEAD + 8 * MAX_VALUES || all.remaining() < length + 4) {
                break;
            }
            CRC32C crc = new CRC32C();
            crc.update(all.array(), start + 4, length);
            byte kind = all.get();
            int rank = all.getInt();
            long index = all.getLong();
            long[] values = new long[(length - HEAD) / 8];
            for (int i = 0; i < values.length; i++) {
                values[i] = all.getLong();
            }
            if (all.getInt() != (int) crc.getValue() || (length - HEAD) % 8 != 0) {
                break;
            }
            switch (kind) {
                case WILDCARD -> into.recordWildcard(rank, index, (int) values[0], (int) values[1], values[2]);
                case POLL -> into.recordPoll(rank, index, values);
                default -> {
                    return good;
                }
            }
            good = all.position();
        }
        return good;
    }

    synchronized void wildcard(int rank, long index, int source, int tag, long sequence) throws IOException {
        append(WILDCARD, rank, index, new long[] {source, tag, sequence});
    }

    synchronized void poll(int rank, long index, long[] outcome) throws IOException {
        append(POLL, rank, index, outcome);
    }

    private void append(byte kind, int rank, long index, long[] values) throws IOException {
        int length = HEAD + 8 * values.length;
        ByteBuffer b = ByteBuffer.allocate(4 + length + 4);
        b.putInt(length).put(kind).putInt(rank).putLong(index);
        for (long v : values) {
            b.putLong(v);
        }
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 4, length);
        b.putInt((int) crc.getValue());
        b.flip();
        while (b.hasRemaining()) {
            file.write(b);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        file.close();
    }
}
