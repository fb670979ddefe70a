package io.rewind.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checkpoint files of one job, one folder per rank:
 *
 * <pre>
 *   jobDir/rank-00003/line-000000000007.ckpt
 *   jobDir/rank-00003/transit-0000000002-3fa2b1c0.log    channel state of its lines ({@link ChannelStateLog})
 * </pre>
 *
 * A file is written to a temporary name, forced to disk and renamed, so a crash mid-write never
 * leaves a half file under a real name. After a successful write only the latest {@code keepLines}
 * lines of that rank remain. Reading tries the newest line first and falls back to older ones when a
 * file is corrupt, reporting each one it skips.
 */
public final class CheckpointStore implements CheckpointWriter {
    private static final Pattern LINE_FILE = Pattern.compile("line-(\\d+)\\.ckpt");

    /**
     * The section of a line's channel state: in a part ({@link ChannelStateLog}), the part's messages as
     * the runtime encodes them; in the image {@link #loadWithChannelState} returns, every readable part of the line, as a
     * count of parts (i32) then each part's length (i32) and bytes, in part order.
     */
    public static final String CHANNEL_STATE_SECTION = "rewind.in-transit";

    private final Path jobDir;
    private final int keepLines;
    private final ChannelStateLog channelState;
    /** Prunes share it; a recovery choosing and loading a line holds it exclusively. */
    private final java.util.concurrent.locks.ReentrantReadWriteLock pruning =
            new java.util.concurrent.locks.ReentrantReadWriteLock();
    /** Lines from this one on are held back from pruning, up to {@link #MAX_HELD_BACK} more than kept. */
    private volatile long keepFrom = Long.MAX_VALUE;

    /**
     * Rank folders this store has made or found. A write into one of them does not ask for it again (a
     * {@code mkdir} that fails, an exception and a {@code stat} per part and line); one removed since
     * is made again when a write finds it missing.
     */
    private final java.util.Set<Path> madeDirs = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Each rank's folder, resolved once. */
    private final java.util.concurrent.ConcurrentHashMap<Integer, Path> rankDirs =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** Lines a rank holds back beyond {@code keepLines} for {@link #keepFrom(long)} at most. */
    public static final int MAX_HELD_BACK = 8;

    public CheckpointStore(Path jobDir, int keepLines) {
        this(jobDir, keepLines, new ChannelStateLog());
    }

    /** As above, the channel state kept in {@code channelState} (tests: other bounds). */
    CheckpointStore(Path jobDir, int keepLines, ChannelStateLog channelState) {
        if (keepLines < 1) {
            throw new IllegalArgumentException("keepLines must be >= 1, was " + keepLines);
        }
        this.jobDir = jobDir;
        this.keepLines = keepLines;
        this.channelState = channelState;
    }

    public Path jobDir() {
        return jobDir;
    }

    public int keepLines() {
        return keepLines;
    }

    Path rankDir(int rank) {
        return rankDirs.computeIfAbsent(rank, r -> jobDir.resolve("rank-" + zeroPadded(r, 5)));
    }

    Path file(int rank, long line) {
        return rankDir(rank).resolve("line-" + zeroPadded(line, 12) + ".ckpt");
    }

    /** The rank's channel-state segments, oldest first ({@link ChannelStateLog}). */
    List<Path> channelStateSegments(int rank) {
        return ChannelStateLog.segments(rankDir(rank));
    }

    /**
     * {@code value} in decimal, with zeros in front up to {@code width} digits, as {@code %0<width>d}
     * formats it: names are made for every line and part, and {@code String.format} (a format string
     * parsed each time) was 6 % of a rank thread's samples with messages crossing every line.
     */
    static String zeroPadded(long value, int width) {
        if (value < 0) {
            return String.format("%0" + width + "d", value); // not a name the store makes; as it was
        }
        String digits = Long.toString(value);
        if (digits.length() >= width) {
            return digits;
        }
        return "0".repeat(width - digits.length()) + digits;
    }

    /**
     * Closes the channel-state segments the store holds open (at the end of the job, before its folder
     * goes). The store can still be used: a later part opens its segment again.
     */
    public void closeFiles() {
        channelState.closeAll();
    }

    /** Writes atomically, then deletes lines older than the latest {@code keepLines}. Returns bytes written. */
    @Override
    public long write(CheckpointImage image) {
        byte[] bytes = CheckpointFormat.encode(image);
        writeEncoded(image.rank(), image.line(), bytes);
        return bytes.length;
    }

    /**
     * Writes a line already encoded by {@link CheckpointFormat#encode} (a copy received from another
     * node, say), as {@link #write} does. Returns the oldest line of the rank's folder after the write
     * and its prune (from the write's own listing: the caller need not list the folder again).
     */
    public long writeEncoded(int rank, long line, byte[] bytes) {
        // One listing of the rank's folder serves the whole write. A line no newer than the rank's newest
        // is written again by an incarnation that redoes it: the parts kept with the earlier file (of an
        // incarnation that died) belong to that file and no longer count. A line newer than every file
        // has no parts yet (a part is kept only for a line its rank has written, and a discarded line
        // was reset as it went). The prune after the write works from the listing too.
        RankFolder before = list(rank);
        if (!before.lines().isEmpty() && line <= before.lines().getLast()) {
            channelState.reset(rankDir(rank), rank, line);
        }
        writeAtomically(file(rank, line), bytes);
        return prune(rank, before.withLine(line));
    }

    @Override
    public long writeInTransit(CheckpointImage image, int part) {
        return writeInTransitEncoded(image.rank(), image.line(), part, CheckpointFormat.encode(image));
    }

    /** Writes a channel-state part already encoded (a copy from another node), as {@link #writeInTransit}. */
    public long writeInTransitEncoded(int rank, long line, int part, byte[] bytes) {
        if (part < 1) {
            throw new IllegalArgumentException("channel-state parts are numbered from 1, was " + part);
        }
        // Appended, not forced to the disk: it then survives the crash of its rank (a process's death
        // leaves the kernel's copy), which is what a recovery needs; a machine that loses power may lose
        // it, and a resumed job, which reads the parts back and checks them, then goes back to an older
        // line. Forcing it cost a disk flush per line and rank.
        channelState.append(rankDir(rank), rank, line, part, bytes);
        return bytes.length;
    }

    private void writeAtomically(Path target, byte[] bytes) {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try {
            Path dir = target.getParent();
            if (!madeDirs.contains(dir)) {
                makeDir(dir);
            }
            try {
                writeFile(tmp, bytes);
            } catch (NoSuchFileException e) {
                makeDir(dir); // removed since: made again, once
                writeFile(tmp, bytes);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the original failure is what matters
            }
            throw new CheckpointException("cannot write checkpoint " + target + ": " + e.getMessage(), e);
        }
    }

    private void makeDir(Path dir) throws IOException {
        Files.createDirectories(dir);
        madeDirs.add(dir);
    }

    private static void writeFile(Path file, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(
                file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
    }

    /**
     * What one listing of a rank's folder found: its line numbers, oldest first, and its channel-state
     * segments.
     */
    private record RankFolder(List<Long> lines, List<Path> segments) {
        /** As after a write of {@code line}. */
        RankFolder withLine(long line) {
            List<Long> more = new ArrayList<>(lines);
            if (!more.contains(line)) {
                more.add(line);
                Collections.sort(more);
            }
            return new RankFolder(more, segments);
        }
    }

    /** Lists the rank's folder once (none yet: nothing in it). */
    private RankFolder list(int rank) {
        List<Long> lines = new ArrayList<>();
        List<Path> segments = new ArrayList<>();
        Path dir = rankDir(rank);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path p : files) {
                String name = p.getFileName().toString();
                if (name.startsWith("line-") && name.endsWith(".ckpt")) {
                    Matcher m = LINE_FILE.matcher(name);
                    if (m.matches()) {
                        lines.add(Long.parseLong(m.group(1)));
                    }
                } else if (ChannelStateLog.isSegment(name)) {
                    segments.add(p);
                } // temporary files, and whatever else is there
            }
        } catch (NoSuchFileException | java.nio.file.NotDirectoryException e) {
            return new RankFolder(lines, segments); // not made yet; a write reports what is in its way
        } catch (IOException e) {
            throw new CheckpointException("cannot list checkpoints in " + dir + ": " + e.getMessage(), e);
        }
        Collections.sort(lines);
        return new RankFolder(lines, segments);
    }

    /**
     * From now on a write deletes an old line only if it is older than {@code line} (besides the
     * {@code keepLines} newest, at most {@link #MAX_HELD_BACK} more are held back): the coordinator's
     * newest line complete for every rank, where a global rollback may have to go when the newer lines
     * lack a message that was on its way when its receiver crashed.
     */
    public void keepFrom(long line) {
        keepFrom = line;
    }

    /** Line numbers present for the rank, oldest first (whether valid or not). */
    public List<Long> lines(int rank) {
        return list(rank).lines();
    }

    /** The bytes of one line's file, as written (not verified: {@link #load} verifies). */
    public byte[] read(int rank, long line) {
        Path p = file(rank, line);
        try {
            return Files.readAllBytes(p);
        } catch (NoSuchFileException e) {
            throw new CheckpointException(p + ": missing");
        } catch (IOException e) {
            throw new CheckpointException(p + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** Reads and verifies one line. */
    public CheckpointImage load(int rank, long line) {
        Path p = file(rank, line);
        CheckpointImage image = CheckpointFormat.decode(read(rank, line), p.toString());
        if (image.rank() != rank || image.line() != line) {
            throw new CheckpointException(p + ": holds rank " + image.rank() + " line " + image.line()
                    + ", expected rank " + rank + " line " + line);
        }
        return image;
    }

    /**
     * Line {@code line} of the rank as a restart needs it: the verified file, plus its channel state (the
     * messages in transit across it) as {@link #CHANNEL_STATE_SECTION}. A part that cannot be read back is
     * reported to {@code skipped} and left out: the messages in it are then not with the line, which
     * the ranks' reports of what they kept (not this) decide whether a recovery may rely on.
     */
    public CheckpointImage loadWithChannelState(int rank, long line, Consumer<String> skipped) {
        CheckpointImage image = load(rank, line);
        List<byte[]> parts = new ArrayList<>();
        Consumer<String> reported =
                why -> skipped.accept("rank " + rank + ": channel state of line " + line + ": " + why);
        for (ChannelStateLog.Part part : channelState.read(rankDir(rank), line, reported)) {
            String what = "part " + part.number();
            try {
                CheckpointImage partImage = CheckpointFormat.decode(part.encoded(), what);
                if (partImage.rank() != rank || partImage.line() != line) {
                    throw new CheckpointException(
                            what + " holds rank " + partImage.rank() + " line " + partImage.line());
                }
                parts.add(partImage.section(CHANNEL_STATE_SECTION));
            } catch (CheckpointException e) {
                reported.accept(e.getMessage());
            }
        }
        if (parts.isEmpty()) {
            return image;
        }
        java.util.Map<String, byte[]> sections = new java.util.LinkedHashMap<>(image.sections());
        sections.put(CHANNEL_STATE_SECTION, joinParts(parts));
        return new CheckpointImage(rank, line, sections);
    }

    /** The parts of a line's channel state in one section (see {@link #CHANNEL_STATE_SECTION}). */
    public static byte[] joinParts(List<byte[]> parts) {
        int size = 4;
        for (byte[] p : parts) {
            size += 4 + p.length;
        }
        ByteBuffer b = ByteBuffer.allocate(size).putInt(parts.size());
        for (byte[] p : parts) {
            b.putInt(p.length).put(p);
        }
        return b.array();
    }

    /** The parts of a line's channel state out of one section, in part order (empty if it has none). */
    public static List<byte[]> splitParts(CheckpointImage image) {
        byte[] joined = image.sections().get(CHANNEL_STATE_SECTION);
        List<byte[]> parts = new ArrayList<>();
        if (joined == null) {
            return parts;
        }
        ByteBuffer b = ByteBuffer.wrap(joined);
        int n = b.getInt();
        for (int i = 0; i < n; i++) {
            byte[] p = new byte[b.getInt()];
            b.get(p);
            parts.add(p);
        }
        return parts;
    }

    /**
     * The numbers of the channel-state parts kept with one line of the rank, in order: none when the
     * line has no file (the parts of a pruned line may stay in a segment until the segment goes).
     */
    public List<Integer> parts(int rank, long line) {
        List<Integer> parts = new ArrayList<>();
        if (!Files.exists(file(rank, line))) {
            return parts;
        }
        for (ChannelStateLog.Part p : channelState.read(rankDir(rank), line, why -> {})) {
            parts.add(p.number());
        }
        return parts;
    }

    /**
     * The newest recovery line, at most {@code atMost}, that every one of {@code ranks} holds a valid
     * file for (0: none, start over). Walks down from the newest line any of them could share until
     * every one reads it back intact; each file that cannot be used is reported to {@code unusable}.
     */
    public long newestCommonLine(java.util.Collection<Integer> ranks, long atMost, Consumer<String> unusable) {
        long candidate = atMost;
        for (int r : ranks) {
            List<Long> have = lines(r);
            candidate = Math.min(candidate, have.isEmpty() ? 0 : have.getLast());
        }
        for (long line = candidate; line > 0; line--) {
            boolean allValid = true;
            for (int r : ranks) {
                try {
                    load(r, line);
                } catch (RuntimeException e) {
                    unusable.accept("rank " + r + ": cannot use checkpoint line " + line + ": " + e.getMessage());
                    allValid = false;
                    break;
                }
            }
            if (allValid) {
                return line;
            }
        }
        return 0;
    }

    /**
     * The newest valid line of the rank at or below {@code maxLine}; every newer file that is corrupt is
     * reported to {@code skipped} and passed over. Empty when no valid line exists.
     */
    public Optional<CheckpointImage> loadLatestValid(int rank, long maxLine, Consumer<String> skipped) {
        List<Long> lines = lines(rank);
        for (int i = lines.size() - 1; i >= 0; i--) {
            long line = lines.get(i);
            if (line > maxLine) {
                continue;
            }
            try {
                return Optional.of(load(rank, line));
            } catch (CheckpointException e) {
                skipped.accept(e.getMessage());
            }
        }
        return Optional.empty();
    }

    /**
     * Deletes the rank's lines newer than {@code line}: after every rank rolled back to it, those
     * describe an execution that is being redone, and a rank that crashed again must not restart
     * from one of them, ahead of everyone else.
     */
    public void discardAfter(int rank, long line) {
        for (long l : lines(rank)) {
            if (l > line) {
                discard(rank, l);
            }
        }
    }

    /** Deletes one line of the rank, if it is there. */
    public void discard(int rank, long line) {
        channelState.reset(rankDir(rank), rank, line); // a file of this number written later starts without them
        try {
            Files.deleteIfExists(file(rank, line));
        } catch (IOException e) {
            throw new CheckpointException("cannot delete checkpoint " + file(rank, line), e);
        }
    }

    /**
     * Holds back the deletion of old lines until {@link #allowPruning}: a recovery that chose a line
     * from the files must still find it when it loads it, while ranks not yet stopped go on writing
     * newer lines (each write prunes the rank's oldest). Called and released by the same thread.
     */
    public void holdPruning() {
        pruning.writeLock().lock();
    }

    /** Ends {@link #holdPruning}; the next write of each rank deletes what it kept meanwhile. */
    public void allowPruning() {
        pruning.writeLock().unlock();
    }

    /** Deletes what {@code folder} holds beyond the lines kept; the oldest line left. */
    private long prune(int rank, RankFolder folder) {
        if (!pruning.readLock().tryLock()) {
            return folder.lines().getFirst(); // a recovery is reading lines: the rank's next write prunes
        }
        try {
            return pruneHeld(rank, folder);
        } finally {
            pruning.readLock().unlock();
        }
    }

    private long pruneHeld(int rank, RankFolder folder) {
        List<Long> lines = folder.lines();
        long heldFrom = keepFrom;
        int firstKept = 0;
        for (int i = 0; i < lines.size() - keepLines; i++) {
            if (lines.get(i) >= heldFrom && i >= lines.size() - keepLines - MAX_HELD_BACK) {
                break; // held back, and so is every newer one
            }
            try {
                Files.deleteIfExists(file(rank, lines.get(i)));
            } catch (IOException e) {
                throw new CheckpointException("cannot delete old checkpoint " + file(rank, lines.get(i)), e);
            }
            firstKept = i + 1;
        }
        if (firstKept > 0 && !folder.segments().isEmpty()) {
            // The channel state of lines no longer kept goes with them, a segment at a time.
            channelState.prune(rankDir(rank), rank, folder.segments(), lines.get(firstKept));
        }
        return lines.get(firstKept);
    }
}
