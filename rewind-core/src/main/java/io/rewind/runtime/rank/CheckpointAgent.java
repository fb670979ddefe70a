package io.rewind.runtime.rank;

import io.rewind.checkpoint.CheckpointException;
import io.rewind.checkpoint.CheckpointImage;
import io.rewind.engine.Communicator;
import io.rewind.engine.CommunicatorState;
import io.rewind.engine.ErrorClass;
import io.rewind.engine.MailboxSnapshot;
import io.rewind.engine.RankEngine;
import io.rewind.engine.RewindException;
import io.rewind.runtime.StateSection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The checkpoint side of one rank incarnation: the registered state sections, the count of
 * checkpoint points, taking a checkpoint every N-th point, and restoring a restarted rank. Used by
 * the rank's own thread only.
 */
public final class CheckpointAgent {
    static final String RUNTIME_SECTION = "rewind.runtime";
    /** Bytes of the job's standard input the rank had read at the checkpoint: one long. */
    static final String INPUT_SECTION = "rewind.input";

    /** Lines the rank had printed at the checkpoint, per stream: two longs. */
    static final String OUTPUT_SECTION = "rewind.output";
    /** What the rank's protocol keeps in its checkpoint ({@link io.rewind.ft.RankProtocol#checkpointState}). */
    static final String PROTOCOL_SECTION = "rewind.protocol";

    /** The counts of non-deterministic events a line's runtime state holds (wildcard receives, polls). */
    static long[] events(CheckpointImage image) {
        long[] c = EngineStateCodec.decode(image.section(RUNTIME_SECTION)).counters();
        return new long[] {c[0], c[1]};
    }

    private final RankRuntime job;
    private final Incarnation incarnation;
    private final Map<String, StateSection> sections = new LinkedHashMap<>();
    private final CheckpointImage restoreImage;
    private long points;
    private boolean resuming;
    private boolean restoreCalled;

    CheckpointAgent(RankRuntime job, Incarnation incarnation, CheckpointImage restoreImage) {
        this.job = job;
        this.incarnation = incarnation;
        this.restoreImage = restoreImage;
    }

    /** Bytes of standard input the rank had read when it wrote the checkpoint (none if the file predates the record). */
    public static long inputPosition(CheckpointImage image) {
        byte[] b = image.sections().get(INPUT_SECTION);
        return b == null ? 0 : java.nio.ByteBuffer.wrap(b).getLong();
    }

    /** Lines the rank had printed when it wrote the checkpoint (none if the file predates the record). */
    public static long[] outputPosition(CheckpointImage image) {
        if (!image.sections().containsKey(OUTPUT_SECTION)) {
            return new long[2];
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(image.section(OUTPUT_SECTION));
        return new long[] {b.getLong(), b.getLong()};
    }

    public void register(String name, StateSection section) {
        if (name == null || name.isBlank() || name.startsWith("rewind.")) {
            throw new IllegalArgumentException(
                    "invalid section name '" + name + "' (names starting with 'rewind.' " + "are reserved)");
        }
        if (sections.putIfAbsent(name, section) != null) {
            throw new IllegalArgumentException("state '" + name + "' is already registered");
        }
    }

    /** Whether this incarnation starts from a checkpoint (true only for a restarted rank that has one). */
    public boolean isRestart() {
        return restoreImage != null;
    }

    /**
     * Loads the registered state and the runtime state from the recovery line chosen for this
     * restarted incarnation; false (and nothing changes) on a fresh start.
     */
    public boolean restore() {
        if (restoreCalled) {
            throw new IllegalStateException("restore() may be called once");
        }
        restoreCalled = true;
        if (restoreImage == null) {
            return false;
        }
        long t0 = System.nanoTime();
        for (Map.Entry<String, StateSection> e : sections.entrySet()) {
            e.getValue().load(restoreImage.section(e.getKey()));
        }
        for (String name : restoreImage.sections().keySet()) {
            if (!name.startsWith("rewind.") && !sections.containsKey(name)) {
                throw new CheckpointException("the checkpoint holds state '" + name + "' that the program did not "
                        + "register before restore()");
            }
        }
        long line = restoreImage.line();
        points = line * job.config().faultTolerance().checkpointEvery() - 1;
        if (job.config().faultTolerance().notifies()) {
            // A replacement: its program's state only. Its communicators are the ones it joins now, not
            // its predecessor's.
            resuming = true;
            job.onRestored(incarnation, line, System.nanoTime() - t0);
            return true;
        }
        EngineStateCodec.State state = EngineStateCodec.decode(restoreImage.section(RUNTIME_SECTION));
        RankEngine engine = incarnation.engine;
        engine.restoreCounters(state.counters());
        if (state.patterns() != null) {
            // The iteration ids continue where the checkpoint left them; the program declares its
            // patterns again (before or after this) and keeps the same ids.
            engine.patterns().restore(state.patterns());
        }
        for (CommunicatorState cs : state.communicators()) {
            Communicator c = engine.communicator(cs.context());
            if (c == null) {
                throw new CheckpointException("the checkpoint holds communicator context " + cs.context()
                        + ", which this restarted rank has not created: create communicators before restore()");
            }
            c.restore(cs);
        }
        resuming = true;
        job.onRestored(incarnation, line, System.nanoTime() - t0);
        return true;
    }

    /**
     * A checkpoint point: counts, lets the failure injector strike, and every N-th call writes a
     * checkpoint. Returns whether it wrote one.
     */
    public boolean point() {
        incarnation.engine.checkAlive();
        if (!restoreCalled && incarnation.number > 0 && restoreImage != null) {
            throw new IllegalStateException("a restarted rank reached a checkpoint point before restore(): call "
                    + "Checkpointer.restore() after registering state and before the main loop");
        }
        points++;
        job.onPoint(incarnation, points);
        if (resuming) {
            resuming = false; // the first point after a restore is the one the checkpoint was taken at
            incarnation.engine.patterns().resumed();
            return false;
        }
        incarnation.injector.atPoint(incarnation, points);
        int every = job.config().faultTolerance().checkpointEvery();
        boolean wrote = every > 0
                && points % every == 0
                && (job.protocol().checkpoints()
                        || job.config().faultTolerance().notifies());
        if (wrote) {
            checkpoint(points / every);
        }
        job.config().pointListener().atPoint(incarnation.rank, points);
        return wrote;
    }

    public long points() {
        return points;
    }

    private void checkpoint(long line) {
        long t0 = System.nanoTime();
        if (job.config().faultTolerance().notifies()) {
            programStateOnly(line, t0);
            return;
        }
        RankEngine engine = incarnation.engine;
        MailboxSnapshot mailbox;
        try {
            // From here on, what arrives that its sender sent before this line is kept with the line.
            mailbox = engine.beginLine(Math.toIntExact(line));
        } catch (RewindException e) {
            if (e.errorClass() == ErrorClass.PENDING) {
                throw RewindException.of(
                        ErrorClass.PENDING,
                        "rank %d at checkpoint point %d: %s",
                        incarnation.rank,
                        points,
                        e.getMessage());
            }
            throw e;
        }
        Map<String, byte[]> data = new LinkedHashMap<>();
        for (Map.Entry<String, StateSection> e : sections.entrySet()) {
            data.put(e.getKey(), e.getValue().save());
        }
        data.put(RUNTIME_SECTION, EngineStateCodec.encode(engine, mailbox));
        Map<Long, Long> sent = engine.sentCounts();
        data.put(ChannelState.SENT_SECTION, ChannelState.encodeCounts(sent));
        long[] counters = engine.counters();
        // After the mailbox: the protocol's state then covers every frame the snapshot holds.
        byte[] protocolState = incarnation.protocol.checkpointState();
        if (protocolState != null) {
            data.put(PROTOCOL_SECTION, protocolState);
        }
        long[] printed = incarnation.output().position();
        data.put(
                OUTPUT_SECTION,
                java.nio.ByteBuffer.allocate(16)
                        .putLong(printed[0])
                        .putLong(printed[1])
                        .array());
        data.put(
                INPUT_SECTION,
                java.nio.ByteBuffer.allocate(8)
                        .putLong(incarnation.input().position())
                        .array());
        CheckpointImage image = new CheckpointImage(incarnation.rank, line, data);
        incarnation.injector.duringCheckpoint(incarnation, line, image, job.store());
        long bytes = job.checkpoints().write(image);
        job.onCheckpoint(
                incarnation,
                line,
                mailbox.frontiers(),
                sent,
                new long[] {counters[0], counters[1]},
                bytes,
                System.nanoTime() - t0);
        if (incarnation.channelState != null) {
            // Only now are the messages that crossed the line since its snapshot kept with it: a part
            // written before the file would go with the file's write, and its report would come first.
            incarnation.channelState.lineWritten(line);
        }
    }

    /**
     * A checkpoint of a job that handles failures itself: the program's state alone, for a replacement
     * to restore (nothing rolls back, so neither queues nor channels are kept).
     */
    private void programStateOnly(long line, long t0) {
        Map<String, byte[]> data = new LinkedHashMap<>();
        for (Map.Entry<String, StateSection> e : sections.entrySet()) {
            data.put(e.getKey(), e.getValue().save());
        }
        CheckpointImage image = new CheckpointImage(incarnation.rank, line, data);
        incarnation.injector.duringCheckpoint(incarnation, line, image, job.store());
        long bytes = job.checkpoints().write(image);
        job.onCheckpoint(incarnation, line, Map.of(), Map.of(), new long[] {0, 0}, bytes, System.nanoTime() - t0);
    }
}
