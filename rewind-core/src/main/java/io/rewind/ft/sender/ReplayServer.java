package io.rewind.ft.sender;

import io.rewind.engine.ChannelKey;
import io.rewind.engine.Frame;
import io.rewind.engine.SendCancellation;
import io.rewind.engine.Transport;
import io.rewind.ft.RecoveryMessages;
import io.rewind.ft.log.LogEntry;
import io.rewind.ft.log.StoredPayload;
import io.rewind.ft.logger.DumpedPayload;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sender-side layer that serves replays: answers a restarted peer's rollback request from the
 * rank's index and payload log, one batch at a time, each batch sent once the peer acknowledged the
 * one before (so what is replayed waits in this rank's log, not in the peer's memory). It reads the
 * index under the rank's lock; a payload that went to a logger node is read back after the lock is
 * let go (a round trip to a logger process), held by a reference meanwhile so truncation cannot
 * release it.
 *
 * <p>State is guarded by the rank's lock ({@link Host#lock}); {@link #serving()} is read without it.
 */
final class ReplayServer {
    /** What replay serving reads of the rank that logged the frames. */
    interface Host {
        /** The rank's logging lock, which guards the index and this layer's state. */
        Object lock();

        /** The channels of the rank's index. Lock held. */
        Iterable<SentFrames> channels();

        /** Whether send {@code sequence} of channel {@code key} was cancelled: its place is replayed. */
        boolean wasCancelled(long key, long sequence);

        /** The words to carry on a frame to {@code peer} (its outcome log's piggyback). */
        long[] piggybackFor(int peer);

        /** Reads a payload that went to a logger node back (lock not held, or held as a last resort). */
        byte[] readDumped(DumpedPayload payload);
    }

    /** Frames per replay batch: what a restarted rank may have to take in before its next progress. */
    static final int REPLAY_BATCH_FRAMES = 64;
    /** Bytes per replay batch (a batch holds at least one frame, however long). */
    static final long REPLAY_BATCH_BYTES = 4L << 20;
    /** How long a replay waits for a sending thread to finish a log copy it is making (a memory copy). */
    private static final long COPY_WAIT_NANOS = 30_000_000_000L;

    private final int worldRank;
    private final int incarnation;
    private final Host host;
    private final Object lock;

    /** Replays this rank is streaming to restarted peers, by peer. */
    private final Map<Integer, ReplayCursor> replays = new HashMap<>();
    /** Rollback requests that came while frames were in flight, taken up by the next progress. */
    private final List<RecoveryMessages.RollbackRequest> deferred = new ArrayList<>();
    /** Whether a replay or a deferred request waits: read without the lock on every progress call. */
    private volatile boolean serving;
    /** Frames replayed so far. */
    private long replayedFrames;
    /** The faults armed before this layer was made, the only ones it may apply ({@link ReplayFault}). */
    private final long faultArmingsBefore = ReplayFault.armings();

    ReplayServer(int worldRank, int incarnation, Host host) {
        this.worldRank = worldRank;
        this.incarnation = incarnation;
        this.host = host;
        this.lock = host.lock();
    }

    /** Whether a replay is under way or a rollback request waits (read without the lock). */
    boolean serving() {
        return serving;
    }

    /** Lock held: whether {@code peer} is being recovered from this log (replay under way or asked for). */
    boolean recovering(int peer) {
        return replays.containsKey(peer) || deferred.stream().anyMatch(r -> r.sourceWorld() == peer);
    }

    /** Lock held: a request to take up once no frame is between its hand-off and its log entry. */
    void defer(RecoveryMessages.RollbackRequest r) {
        deferred.add(r);
        serving = true;
    }

    /** Lock held: the deferred requests, taken, if nothing is in flight any more (else none). */
    List<RecoveryMessages.RollbackRequest> takeDeferred(int inFlight) {
        if (deferred.isEmpty() || inFlight > 0) {
            return List.of();
        }
        List<RecoveryMessages.RollbackRequest> ready = new ArrayList<>(deferred);
        deferred.clear();
        return ready;
    }

    /**
     * Lock held: starts a replay to incarnation {@code peerIncarnation} of {@code peer}, which holds up to
     * {@code held} per context: every channel to it, up to what the log holds now (frames sent from
     * here on go to the new incarnation directly).
     */
    void open(int peer, int peerIncarnation, Map<Integer, Long> held) {
        Map<Integer, Long> end = new HashMap<>();
        Map<Integer, Long> next = new HashMap<>();
        for (SentFrames channel : host.channels()) {
            if (ChannelKey.peer(channel.key) == peer && channel.size() > 0) {
                int context = ChannelKey.context(channel.key);
                end.put(context, channel.sequence(channel.tail() - 1));
                next.put(context, held.getOrDefault(context, 0L));
            }
        }
        replays.put(peer, new ReplayCursor(peer, peerIncarnation, next, end));
        serving = true;
    }

    /** Lock held: the peer took batch {@code batch} in: its next batch may go. */
    void acknowledged(RecoveryMessages.ReplayAck a) {
        ReplayCursor c = replays.get(a.sourceWorld());
        if (c != null && c.incarnation == a.incarnation() && c.batch == a.batch()) {
            c.awaitingAck = false;
        }
    }

    /**
     * Lock not held: sends the next batch of every replay whose previous batch was taken in. The batches
     * are chosen under the lock; payloads at loggers are read, and frames handed over, outside it.
     */
    void sendDueBatches(Transport transport) {
        List<ReplayCursor> due = new ArrayList<>();
        List<List<Replayed>> batches = new ArrayList<>();
        synchronized (lock) {
            for (ReplayCursor c : replays.values()) {
                if (!c.awaitingAck) {
                    due.add(c);
                    batches.add(nextBatch(c));
                }
            }
        }
        // Handed over outside the lock: a transport may deliver in this thread.
        for (int i = 0; i < due.size(); i++) {
            ReplayCursor c = due.get(i);
            List<Replayed> batch = batches.get(i);
            // Typed Object, and made only if JFR has started: naming the event class here would load it
            // (and with it JFR) when this class is verified.
            Object event = io.rewind.ft.FlightRecording.started() ? io.rewind.ft.ReplayBatchEvent.begun() : null;
            long bytes = 0;
            for (Replayed r : batch) {
                bytes += r.lengthBytes();
                if (r.withdrawn()) {
                    transport.sendControl(
                            c.peer, new SendCancellation.Withdrawn(worldRank, incarnation, r.context(), r.sequence()));
                    continue;
                }
                Frame f = frameOf(r);
                f.setPiggyback(host.piggybackFor(c.peer));
                transport.send(c.peer, f);
            }
            transport.sendControl(
                    c.peer, new RecoveryMessages.ReplayBatch(worldRank, incarnation, c.batch, batch.size()));
            if (event != null) {
                io.rewind.ft.ReplayBatchEvent.commit(event, worldRank, c.peer, c.batch, batch.size(), bytes);
            }
        }
        synchronized (lock) {
            for (ReplayCursor c : due) {
                if (c.done) {
                    replays.remove(c.peer, c);
                }
            }
            serving = !replays.isEmpty() || !deferred.isEmpty();
        }
    }

    /** Frames replayed so far. Lock held. */
    long replayedFrames() {
        return replayedFrames;
    }

    /**
     * One frame of a batch: its identity and its payload, read from the log under the lock, or still at a
     * logger ({@code dumped}, referenced until it is read).
     */
    record Replayed(
            int context,
            int source,
            int peer,
            int tag,
            long sequence,
            int incarnation,
            long pattern,
            int line,
            int digest,
            boolean withdrawn,
            byte[] payload,
            DumpedPayload dumped,
            long lengthBytes) {
        /** The same frame with another payload (of the same length, or not). */
        Replayed withPayload(byte[] other) {
            return new Replayed(
                    context,
                    source,
                    peer,
                    tag,
                    sequence,
                    incarnation,
                    pattern,
                    line,
                    digest,
                    withdrawn,
                    other,
                    null,
                    other.length);
        }
    }

    /** The frame to hand over for {@code r}; reads a payload at a logger first (lock not held). */
    private Frame frameOf(Replayed r) {
        byte[] bytes = r.payload();
        if (bytes == null) {
            try {
                bytes = host.readDumped(r.dumped());
            } finally {
                r.dumped().unreference();
            }
        }
        Frame f = copyOf(
                r.context(),
                r.source(),
                r.peer(),
                r.tag(),
                r.sequence(),
                r.incarnation(),
                r.pattern(),
                r.line(),
                bytes);
        f.setDigest(r.digest());
        f.markReplayed();
        return f;
    }

    /**
     * Lock held: the next frames of a replay, at most {@link #REPLAY_BATCH_FRAMES} frames or {@link
     * #REPLAY_BATCH_BYTES} bytes (at least one frame); marks the cursor as waiting for the batch to be
     * taken in, and done when nothing is left. Each channel's frames go in sequence order, and the
     * peer's channels are interleaved as their frames were sent ({@link SentFrames#order}): a rank
     * takes messages in about the order they were sent, and replaying one channel whole before the
     * next (a program's point-to-point messages of every later iteration before the collective
     * message it needs now, say) would make the restarted rank hold them all.
     */
    private List<Replayed> nextBatch(ReplayCursor c) {
        List<SentFrames> channels = new ArrayList<>(2);
        for (SentFrames channel : host.channels()) {
            if (ChannelKey.peer(channel.key) == c.peer && c.end.containsKey(ChannelKey.context(channel.key))) {
                channels.add(channel);
            }
        }
        int n = channels.size();
        int[] at = new int[n];
        long[] end = new long[n];
        for (int k = 0; k < n; k++) {
            int context = ChannelKey.context(channels.get(k).key);
            at[k] = channels.get(k).firstAbove(c.next.get(context));
            end[k] = c.end.get(context);
        }
        List<Replayed> out = new ArrayList<>();
        long bytes = 0;
        boolean more = false;
        while (true) {
            int pick = -1;
            for (int k = 0; k < n; k++) {
                SentFrames ch = channels.get(k);
                if (at[k] < ch.tail()
                        && ch.sequence(at[k]) <= end[k]
                        && (pick < 0 || ch.order(at[k]) < channels.get(pick).order(at[pick]))) {
                    pick = k;
                }
            }
            if (pick < 0) {
                break;
            }
            if (out.size() >= REPLAY_BATCH_FRAMES || (bytes >= REPLAY_BATCH_BYTES && !out.isEmpty())) {
                more = true;
                break;
            }
            SentFrames channel = channels.get(pick);
            int i = at[pick]++;
            int context = ChannelKey.context(channel.key);
            Replayed r = host.wasCancelled(channel.key, channel.sequence(i))
                    ? new Replayed(
                            context, 0, c.peer, 0, channel.sequence(i), incarnation, 0, 0, 0, true, null, null, 0)
                    : replayed(channel, i, c.peer);
            out.add(r);
            bytes += r.lengthBytes();
            c.next.put(context, channel.sequence(i));
        }
        c.batch++;
        c.awaitingAck = true;
        c.done = !more;
        replayedFrames += out.size();
        return ReplayFault.applyTo(out, faultArmingsBefore);
    }

    /** Lock held: logged frame {@code i} of {@code channel} as replayed to {@code peer}. */
    private Replayed replayed(SentFrames channel, int i, int peer) {
        StoredPayload stored = channel.payload(i);
        byte[] payload = null;
        DumpedPayload dumped = null;
        if (stored instanceof DumpedPayload d && d.reference()) {
            dumped = d; // read after the lock is let go; the reference keeps it from being released meanwhile
        } else {
            payload = payloadOf(stored);
        }
        return new Replayed(
                channel.context(i),
                channel.source(i),
                peer,
                channel.tag(i),
                channel.sequence(i),
                incarnation,
                channel.pattern(i),
                channel.line(i),
                channel.digest(i),
                false,
                payload,
                dumped,
                stored.lengthBytes());
    }

    /**
     * Lock held: a private copy of logged frame {@code i} of {@code channel}, addressed to {@code peer},
     * its payload read now (wherever it is).
     */
    Frame copyOf(SentFrames channel, int i, int peer) {
        byte[] payload = payloadOf(channel.payload(i));
        Frame f = copyOf(
                channel.context(i),
                channel.source(i),
                peer,
                channel.tag(i),
                channel.sequence(i),
                incarnation,
                channel.pattern(i),
                channel.line(i),
                payload);
        f.setDigest(channel.digest(i));
        f.markReplayed();
        return f;
    }

    private Frame copyOf(
            int context,
            int source,
            int peer,
            int tag,
            long sequence,
            int incarnation,
            long pattern,
            int line,
            byte[] payload) {
        return Frame.rebuilt(
                context,
                source,
                worldRank,
                peer,
                tag,
                sequence,
                incarnation,
                (int) (pattern >>> 32),
                (int) pattern,
                line,
                MemorySegment.ofArray(payload),
                0,
                payload.length);
    }

    /** A logged payload, from this rank's log or (read under the lock) from the logger that holds it. */
    private byte[] payloadOf(StoredPayload stored) {
        if (stored instanceof DumpedPayload dumped) {
            return host.readDumped(dumped);
        }
        LogEntry entry = (LogEntry) stored;
        // A frame handed off just now may still be on its way into the log: the sending thread copies
        // it right after the hand-off, without this lock.
        if (!entry.awaitCopyDone(COPY_WAIT_NANOS)) {
            throw new IllegalStateException("rank " + worldRank + " did not finish logging " + entry.key() + " within "
                    + COPY_WAIT_NANOS / 1_000_000_000L + " s; cannot replay it");
        }
        return entry.payloadToArray();
    }

    /** Where a replay to one restarted peer stands. Guarded by the rank's lock. */
    private static final class ReplayCursor {
        final int peer;
        final int incarnation;
        /** By context, the last sequence number the peer has (from its checkpoint, then from this replay). */
        final Map<Integer, Long> next;
        /** By context, the last sequence number logged when the peer asked: the replay ends there. */
        final Map<Integer, Long> end;

        int batch;
        boolean awaitingAck;
        boolean done;

        ReplayCursor(int peer, int incarnation, Map<Integer, Long> next, Map<Integer, Long> end) {
            this.peer = peer;
            this.incarnation = incarnation;
            this.next = next;
            this.end = end;
        }
    }
}
