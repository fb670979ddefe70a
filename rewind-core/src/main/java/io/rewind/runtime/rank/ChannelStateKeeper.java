package io.rewind.runtime.rank;

import io.rewind.checkpoint.CheckpointException;
import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointStore;
import io.rewind.checkpoint.CheckpointWriter;
import io.rewind.engine.ChannelKey;
import io.rewind.engine.Frame;
import io.rewind.engine.InTransitSink;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Keeps, with each recovery line of one rank incarnation, the messages that were in transit across it:
 * sent before their sender wrote the line, arrived after this rank wrote it. The mailbox hands over a
 * copy as such a frame is admitted; the rank's progress writes the copies taken since the last time
 * as one part of each line they crossed (usually one line; a frame that crossed several goes to each
 * one still kept), then tells the coordinator how far each channel's messages are kept, which is
 * what makes a line complete for a group restart ({@link io.rewind.ft.RecoveryLines#complete}).
 *
 * <p>Parts are numbered per incarnation (the incarnation times {@link #PARTS_PER_INCARNATION} plus a
 * count), so that the parts an incarnation adds to its restart line, or to an older line, never
 * replace those of the incarnation before it.
 */
final class ChannelStateKeeper implements InTransitSink {
    /** Parts one incarnation may add to one line; past that its crossings are not kept (see {@link #flush}). */
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
    /** Guarded by itself: filled under mailbox locks, emptied by the rank's progress. */
    private final List<Crossing> taken = new ArrayList<>();

    private volatile boolean pending;
    /** Per line, the parts this incarnation wrote. Rank thread only. */
    private final Map<Long, Integer> partsWritten = new HashMap<>();

    ChannelStateKeeper(int rank, int incarnation, int keepLines, CheckpointWriter writer, Reporter reporter) {
        this.rank = rank;
        this.incarnation = incarnation;
        this.keepLines = keepLines;
        this.writer = writer;
        this.reporter = reporter;
    }

    @Override
    public void crossed(Frame copy, int receiverLine) {
        synchronized (taken) {
            taken.add(new Crossing(copy, receiverLine));
            pending = true;
        }
    }

    @Override
    public boolean pending() {
        return pending;
    }

    @Override
    public void flush() {
        List<Crossing> batch;
        synchronized (taken) {
            batch = new ArrayList<>(taken);
            taken.clear();
            pending = false;
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
            keep(e.getKey(), e.getValue());
        }
    }

    private void keep(long line, List<Frame> frames) {
        int count = partsWritten.getOrDefault(line, 0) + 1;
        if (count >= PARTS_PER_INCARNATION) {
            // Not kept: the line is then not complete for a restart that needs these messages, and a
            // recovery goes back further. Said once per line.
            if (count == PARTS_PER_INCARNATION) {
                System.err.println("rewind: rank " + rank + " kept " + (count - 1) + " parts of line " + line
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
            System.err.println("rewind: rank " + rank + " could not keep the messages in transit across line " + line
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
