package io.rewind.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * The channel state of every rank's lines (the messages in transit across them, in parts), appended to
 * segment files of the rank's folder:
 *
 * <pre>
 *   jobDir/rank-00003/transit-0000000007-3fa2b1c0.log      sequence number, then the writing store's id
 *
 *   record:  length i32 | kind u8 | line i64 | part i32 | payload | crc32c u32
 *            (length counts kind to payload; the checksum covers them)
 *   PART:    payload = one part of the line's channel state, as {@link CheckpointFormat} encodes it
 *   RESET:   no payload; the line's parts appended before it belong to an earlier file of that line
 * </pre>
 *
 * <p>A part costs one write into a file that stays open, where a file of its own cost an open, a write,
 * a close and a rename, then a deletion when its line was pruned, and made every listing of the folder
 * longer: with messages crossing every line that was most of what keeping them cost.
 *
 * <p>A line's parts are its PART records that come after the line's last RESET, segments taken in the
 * order of their sequence numbers and records in the order of the file. A line is written again only by
 * a later incarnation after a rollback, or after a {@link #reset} of it, so the RESET that {@link
 * CheckpointStore} appends then keeps parts of the incarnation that died with the old file out of the
 * new one (they described an execution that is redone), where a file per part was deleted.
 *
 * <p>A store appends only to segments it created itself: one an earlier run or another node left may
 * end in a record torn by a crash. A reader stops in a segment at the first record that does not check
 * and reports it. A segment is rolled once it holds {@link #ROLL_BYTES} or {@link #ROLL_RECORDS}, and
 * deleted once every line it has a record of is older than the rank's oldest kept line. At most {@link
 * #MAX_OPEN} segments are open at once (thousands of ranks in one JVM would otherwise hold a file
 * descriptor each); one closed for another is opened again when its rank appends.
 *
 * <p>Thread-safe: every method holds the log's lock (parts come from the channel-state writer, resets
 * and prunes from the ranks' line writes, reads from a recovery).
 */
final class ChannelStateLog {
    static final int ROLL_BYTES = 1 << 20;
    static final int ROLL_RECORDS = 256;
    static final int MAX_OPEN = 64;

    private static final byte PART = 1;
    private static final byte RESET = 2;
    /** Length, kind, line, part. */
    private static final int HEADER = 4 + 1 + 8 + 4;

    private static final Pattern SEGMENT = Pattern.compile("transit-(\\d{10})-([0-9a-f]{8})\\.log");

    /** One part of a line's channel state as a reader found it. */
    record Part(int number, byte[] encoded) {}

    /** A segment this store appends to. */
    private static final class Segment {
        final Path path;
        long bytes;
        int records;

        Segment(Path path) {
            this.path = path;
        }
    }

    /** Per rank: the segment appended to, the next sequence number, the newest line of each segment. */
    private static final class RankLog {
        Segment current;
        long nextSequence = -1; // not yet looked up
        final Map<Path, Long> newestLine = new HashMap<>();
    }

    private final String writerId =
            String.format("%08x", ThreadLocalRandom.current().nextInt());
    private final int rollBytes;
    private final int rollRecords;
    private final Map<Integer, RankLog> ranks = new HashMap<>();
    private final Map<Path, FileChannel> open;
    private final CRC32C crc = new CRC32C();

    ChannelStateLog() {
        this(ROLL_BYTES, ROLL_RECORDS, MAX_OPEN);
    }

    /** As above with other bounds (tests). */
    ChannelStateLog(int rollBytes, int rollRecords, int maxOpen) {
        this.rollBytes = rollBytes;
        this.rollRecords = rollRecords;
        this.open = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Path, FileChannel> eldest) {
                if (size() <= maxOpen) {
                    return false;
                }
                closeQuietly(eldest.getValue());
                return true;
            }
        };
    }

    static boolean isSegment(String fileName) {
        return SEGMENT.matcher(fileName).matches();
    }

    /** Appends one part of {@code line}'s channel state (already encoded). */
    synchronized void append(Path rankDir, int rank, long line, int part, byte[] encoded) {
        appendRecord(rankDir, rank, PART, line, part, encoded);
    }

    /** The parts of {@code line} appended so far no longer count (its file is written again, or gone). */
    synchronized void reset(Path rankDir, int rank, long line) {
        RankLog log = ranks.get(rank);
        if ((log == null || log.current == null) && segments(rankDir).isEmpty()) {
            return; // the rank has kept no channel state: nothing to void, and no segment made for it
        }
        appendRecord(rankDir, rank, RESET, line, 0, new byte[0]);
    }

    private void appendRecord(Path rankDir, int rank, byte kind, long line, int part, byte[] payload) {
        RankLog log = ranks.computeIfAbsent(rank, r -> new RankLog());
        int length = 1 + 8 + 4 + payload.length;
        ByteBuffer header = ByteBuffer.allocate(HEADER)
                .putInt(length)
                .put(kind)
                .putLong(line)
                .putInt(part)
                .flip();
        crc.reset();
        crc.update(header.array(), 4, HEADER - 4);
        crc.update(payload);
        ByteBuffer[] record = {
            header,
            ByteBuffer.wrap(payload),
            ByteBuffer.allocate(4).putInt((int) crc.getValue()).flip()
        };
        try {
            Segment segment = segmentFor(rankDir, log, length + 8);
            FileChannel channel = channel(segment.path);
            long left = length + 8L;
            while (left > 0) {
                left -= channel.write(record);
            }
            segment.bytes += length + 8L;
            segment.records++;
            log.newestLine.merge(segment.path, line, Math::max);
        } catch (IOException e) {
            // A record written in part ends its segment: the next append starts a new one.
            closeCurrent(log);
            throw new CheckpointException(
                    "cannot keep the channel state of rank " + rank + " line " + line + " in " + rankDir + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** The segment the next record goes to: the current one, or a new one once it is full. */
    private Segment segmentFor(Path rankDir, RankLog log, int recordBytes) throws IOException {
        Segment s = log.current;
        if (s != null && (s.records >= rollRecords || s.bytes + recordBytes > rollBytes) && s.records > 0) {
            closeCurrent(log);
            s = null;
        }
        if (s != null) {
            return s;
        }
        if (log.nextSequence < 0) {
            log.nextSequence = 0;
            for (Path p : segments(rankDir)) {
                log.nextSequence = Math.max(log.nextSequence, sequence(p) + 1);
            }
        }
        Path path = rankDir.resolve(
                "transit-" + CheckpointStore.zeroPadded(log.nextSequence++, 10) + "-" + writerId + ".log");
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (NoSuchFileException e) {
            Files.createDirectories(rankDir); // the rank's first line is written later than its first part
            channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }
        open.put(path, channel);
        s = new Segment(path);
        log.current = s;
        log.newestLine.put(path, -1L);
        return s;
    }

    private FileChannel channel(Path segment) throws IOException {
        FileChannel c = open.get(segment);
        if (c == null) {
            c = FileChannel.open(segment, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            open.put(segment, c);
        }
        return c;
    }

    private void closeCurrent(RankLog log) {
        if (log.current != null) {
            FileChannel c = open.remove(log.current.path);
            if (c != null) {
                closeQuietly(c);
            }
            log.current = null;
        }
    }

    /**
     * The parts of {@code line} in part order (a part number says its incarnation, see {@code
     * ChannelStateKeeper}); what cannot be read is reported to {@code skipped}.
     */
    synchronized List<Part> read(Path rankDir, long line, Consumer<String> skipped) {
        List<Part> parts = new ArrayList<>();
        for (Path segment : segments(rankDir)) {
            readSegment(segment, skipped, (kind, l, part, bytes, offset, len) -> {
                if (l != line) {
                    return;
                }
                if (kind == RESET) {
                    parts.clear();
                } else {
                    byte[] encoded = new byte[len];
                    System.arraycopy(bytes, offset, encoded, 0, len);
                    parts.add(new Part(part, encoded));
                }
            });
        }
        parts.sort(Comparator.comparingInt(Part::number));
        return parts;
    }

    /**
     * Deletes the rank's segments (of {@code listed}, its folder's) that hold records of lines older than
     * {@code oldestKept} only. The segment being appended to stays.
     */
    synchronized void prune(Path rankDir, int rank, List<Path> listed, long oldestKept) {
        RankLog log = ranks.computeIfAbsent(rank, r -> new RankLog());
        for (Path segment : listed) {
            if (log.current != null && log.current.path.equals(segment)) {
                continue;
            }
            Long newest = log.newestLine.get(segment);
            if (newest == null) {
                long[] max = {-1};
                readSegment(segment, why -> {}, (kind, l, part, bytes, offset, len) -> max[0] = Math.max(max[0], l));
                newest = max[0];
                log.newestLine.put(segment, newest);
            }
            if (newest < oldestKept) {
                FileChannel c = open.remove(segment);
                if (c != null) {
                    closeQuietly(c);
                }
                try {
                    Files.deleteIfExists(segment);
                } catch (IOException e) {
                    throw new CheckpointException("cannot delete " + segment + ": " + e.getMessage(), e);
                }
                log.newestLine.remove(segment);
            }
        }
    }

    /** Closes every segment held open; a later append opens its segment again. */
    synchronized void closeAll() {
        for (FileChannel c : open.values()) {
            closeQuietly(c);
        }
        open.clear();
    }

    private interface RecordVisitor {
        void record(byte kind, long line, int part, byte[] bytes, int offset, int length);
    }

    private void readSegment(Path segment, Consumer<String> skipped, RecordVisitor visitor) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(segment);
        } catch (NoSuchFileException e) {
            return; // pruned meanwhile
        } catch (IOException e) {
            skipped.accept(segment + ": cannot read: " + e.getMessage());
            return;
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        while (in.hasRemaining()) {
            int at = in.position();
            int length = in.remaining() < HEADER + 4 ? -1 : in.getInt();
            if (length < HEADER - 4 || length > in.remaining() - 4) {
                skipped.accept(segment + ": a record torn at byte " + at + " and what follows are left out");
                return;
            }
            crc.reset();
            crc.update(bytes, at + 4, length);
            if ((int) crc.getValue() != in.getInt(at + 4 + length)) {
                skipped.accept(segment + ": the record at byte " + at + " does not match its checksum; it and"
                        + " what follows are left out");
                return;
            }
            byte kind = in.get();
            long line = in.getLong();
            int part = in.getInt();
            int payload = length - (HEADER - 4);
            if (kind == PART || kind == RESET) {
                visitor.record(kind, line, part, bytes, in.position(), payload);
            }
            in.position(at + 4 + length + 4);
        }
    }

    /** The segments in the rank's folder, oldest first. */
    static List<Path> segments(Path rankDir) {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(rankDir, "transit-*.log")) {
            for (Path p : files) {
                if (isSegment(p.getFileName().toString())) {
                    found.add(p);
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return found;
        } catch (IOException e) {
            throw new CheckpointException("cannot list " + rankDir + ": " + e.getMessage(), e);
        }
        found.sort(Comparator.comparingLong(ChannelStateLog::sequence)
                .thenComparing(p -> p.getFileName().toString()));
        return found;
    }

    private static long sequence(Path segment) {
        Matcher m = SEGMENT.matcher(segment.getFileName().toString());
        return m.matches() ? Long.parseLong(m.group(1)) : -1;
    }

    private static void closeQuietly(FileChannel c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // a channel that was only appended to: nothing of it is lost by a failed close
        }
    }
}
