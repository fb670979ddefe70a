package io.rewind.runtime.rank;

import io.rewind.checkpoint.CheckpointException;
import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointStore;
import io.rewind.checkpoint.CheckpointWriter;
import io.rewind.engine.ChannelKey;
import io.rewind.engine.Frame;
import io.rewind.engine.InTransitSink;
import io.rewind.notice.RuntimeNotices;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executor;

/**
 * Keeps, with each recovery line of one rank incarnation, the messages that were in transit across it:
 * sent before their sender wrote the line, arrived after this rank wrote it. The mailbox hands over a
 * copy as such a frame is admitted; {@link ChannelStateWriter}'s thread, not the rank's, writes the
 * copies taken since its last turn as one part of each line they crossed (usually one line; a frame
 * that crossed several goes to each one still kept), then tells the coordinator how far each
 * channel's messages are kept, which is what makes a line complete for a group restart ({@link
 * io.rewind.ft.RecoveryLines#complete}). Until then the line counts as lacking them, so a recovery
 * that comes first goes back further and loses nothing; the rank does not wait.
 *
 * <p>A copy taken for the line the rank is writing waits until that line is written ({@link
 * #lineWritten}): the mailbox hands copies over from the moment the rank takes the line's snapshot,
 * before its file is written, and writing a line deletes the parts kept with an earlier file of its
 * number ({@link CheckpointStore#writeEncoded}): a part written first went with them, and the report
 * of a later part of the same channel, which counts every message of the channel up to its own, made
 * the line count as holding the lost ones. Written after the line, a part survives it, and its report
 * reaches the coordinator after the line it is for (one that came first was ignored).
 *
 * <p>An incarnation that ends {@link #close closes} its keeper before it is reported gone: copies not
 * yet written are dropped, as a crash drops them, and no part of a dead incarnation is written after
 * the coordinator has chosen the line its successor restarts from (which may rewrite the same lines).
 *
 * <p>Parts are numbered per incarnation (the incarnation times {@link #PARTS_PER_INCARNATION} plus a
 * count), so that the parts an incarnation adds to its restart line, or to an older line, never
 * replace those of the incarnation before it.
 */
final class ChannelStateKeeper implements InTransitSink {
    /** Parts one incarnation may add to one line; past that its crossings are not kept (see {@link #keep}). */
    static final int PARTS_PER_INCARNATION = 100_000;

    /** Reports what was kept: (line, highest sequence number kept per incoming channel). */
    interface Reporter {
        void kept(long line, Map<Long, Long> upTo);
    }

    private record Crossing(Frame frame, int receiverLine) {}

    private final int rank;
    private final int incarnation;
    private final int keepLines;
    private final CheckpointWriter writer;
    private final Reporter reporter;
    private final Executor writingThread;
    /** Guarded by itself: filled under mailbox locks, emptied by the writing thread. */
    private final List<Crossing> taken = new ArrayList<>();
    /** Guarded by {@link #taken}: a turn of the writing thread is due (handed over, not yet begun). */
    private boolean scheduled;
    /** Guarded by {@link #taken}: the incarnation ended; nothing more is taken or written. */
    private boolean closed;
    /**
     * Guarded by {@link #taken}: the newest line the incarnation has written or restarted from (0: none);
     * copies taken for a newer line (the one being written) wait for it.
     */
    private long written;
    /** Held for each turn of the writing thread: {@link #close} waits for the one under way. */
    private final Object writing = new Object();
    /** Per line, the parts this incarnation wrote. Under {@link #writing}. */
    private final Map<Long, Integer> partsWritten = new HashMap<>();

    ChannelStateKeeper(int rank, int incarnation, int keepLines, CheckpointWriter writer, Reporter reporter) {
        this(rank, incarnation, keepLines, writer, reporter, ChannelStateWriter.executor());
    }

    /** As above, the parts written by {@code writingThread} (tests: {@code Runnable::run}, on the caller's). */
    ChannelStateKeeper(
            int rank,
            int incarnation,
            int keepLines,
            CheckpointWriter writer,
            Reporter reporter,
            Executor writingThread) {
        this.rank = rank;
        this.incarnation = incarnation;
        this.keepLines = keepLines;
        this.writer = writer;
        this.reporter = reporter;
        this.writingThread = writingThread;
    }

    @Override
    public void crossed(Frame copy, int receiverLine) {
        synchronized (taken) {
            if (closed) {
                return;
            }
            taken.add(new Crossing(copy, receiverLine));
            if (scheduled || receiverLine > written) {
                return; // the turn already due takes this one too, or its line is still being written
            }
            scheduled = true;
        }
        writingThread.execute(this::writeTaken);
    }

    /**
     * The incarnation has written line {@code line} (after it has reported it), or restarted from it:
     * the copies taken for it may be written now. On the rank's thread.
     */
    void lineWritten(long line) {
        synchronized (taken) {
            if (closed || line <= written) {
                return;
            }
            written = line;
            if (scheduled || taken.isEmpty()) {
                return;
            }
            scheduled = true;
        }
        writingThread.execute(this::writeTaken);
    }

    /**
     * The incarnation ended (a crash, a rollback, or the end of the job): copies not yet written are
     * dropped, and this returns once a write under way has ended. Not under a mailbox lock.
     */
    void close() {
        synchronized (taken) {
            closed = true;
            taken.clear();
        }
        synchronized (writing) {
            // a turn that began before closed was set has ended; later turns write nothing
        }
    }

    /**
     * One turn of the writing thread: every copy taken so far whose lines are written, to the lines it
     * crossed (the others wait for {@link #lineWritten}).
     */
    private void writeTaken() {
        synchronized (writing) {
            List<Crossing> batch = new ArrayList<>();
            synchronized (taken) {
                scheduled = false;
                if (closed) {
                    return;
                }
                for (java.util.Iterator<Crossing> it = taken.iterator(); it.hasNext(); ) {
                    Crossing c = it.next();
                    if (c.receiverLine() <= written) {
                        batch.add(c);
                        it.remove();
                    }
                }
            }
            // Each frame goes to every kept line it crossed: from the line after its sender's, up to the
            // line this rank had written when it arrived.
            TreeMap<Long, List<Frame>> byLine = new TreeMap<>();
            for (Crossing c : batch) {
                long oldestKept = Math.max(1, (long) c.receiverLine() - keepLines + 1);
                for (long l = Math.max(c.frame().line() + 1L, oldestKept); l <= c.receiverLine(); l++) {
                    byLine.computeIfAbsent(l, k -> new ArrayList<>()).add(c.frame());
                }
            }
            for (Map.Entry<Long, List<Frame>> e : byLine.entrySet()) {
                if (isClosed()) {
                    return;
                }
                keep(e.getKey(), e.getValue());
            }
        }
    }

    private boolean isClosed() {
        synchronized (taken) {
            return closed;
        }
    }

    private void keep(long line, List<Frame> frames) {
        int count = partsWritten.getOrDefault(line, 0) + 1;
        if (count >= PARTS_PER_INCARNATION) {
            // Not kept: the line is then not complete for a restart that needs these messages, and a
            // recovery goes back further. Said once per line.
            if (count == PARTS_PER_INCARNATION) {
                RuntimeNotices.print("rewind: rank " + rank + " kept " + (count - 1) + " parts of line " + line
                        + "'s channel state; messages crossing it later are not kept with it");
                partsWritten.put(line, count);
            }
            return;
        }
        int part = incarnation * PARTS_PER_INCARNATION + count;
        Map<String, byte[]> section =
                Map.of(CheckpointStore.CHANNEL_STATE_SECTION, EngineStateCodec.encodeFrames(frames));
        try {
            writer.writeInTransit(new CheckpointImage(rank, line, section), part);
        } catch (CheckpointException e) {
            // The line then stays incomplete for a restart that needs these messages; nothing else is lost.
            RuntimeNotices.print("rewind: rank " + rank + " could not keep the messages in transit across line " + line
                    + ": " + e.getMessage());
            return;
        }
        partsWritten.put(line, count);
        Map<Long, Long> upTo = new HashMap<>();
        for (Frame f : frames) {
            upTo.merge(ChannelKey.of(f.context(), f.sourceWorld()), f.sequence(), Math::max);
        }
        reporter.kept(line, upTo);
    }
}
