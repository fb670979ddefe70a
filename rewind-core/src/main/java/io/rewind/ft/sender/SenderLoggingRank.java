package io.rewind.ft.sender;

import io.netty.util.collection.LongObjectHashMap;
import io.rewind.engine.ChannelKey;
import io.rewind.engine.Contexts;
import io.rewind.engine.ControlMessage;
import io.rewind.engine.Frame;
import io.rewind.engine.MessageDigests;
import io.rewind.engine.RankEngine;
import io.rewind.engine.ReplayMismatch;
import io.rewind.engine.SharedPayload;
import io.rewind.engine.StagedPayload;
import io.rewind.engine.Transport;
import io.rewind.ft.EventLogClient;
import io.rewind.ft.RankProtocol;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.RecoveryMessages;
import io.rewind.ft.log.CopyMethod;
import io.rewind.ft.log.LogEntry;
import io.rewind.ft.log.LogLease;
import io.rewind.ft.log.LogStatistics;
import io.rewind.ft.log.MessageKey;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.log.PipelinedCopier;
import io.rewind.ft.log.StoredPayload;
import io.rewind.ft.logger.DumpedPayload;
import io.rewind.ft.logger.LoggerClient;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;

/**
 * Sender-based payload logging in one rank incarnation: the rank part of every protocol that keeps
 * the payloads it sends and replays them to a restarted peer ({@code pessimistic}, {@code causal},
 * {@code mcml}, {@code spbc}).
 * Which outgoing channels are logged ({@link #logsTo}: every one, or only those that leave the rank's
 * cluster) and what becomes of the outcomes of non-deterministic events (the {@link OutcomeLog}: kept
 * by the job's event logger, or not kept at all) are what tell the protocols apart.
 *
 * <p>Every logged frame is logged before its send completes. A collective's result, sent alike to
 * every member, is logged once and shared by the frames that carry it. The index below maps each
 * logged outgoing channel to its frames by sequence number ({@link SentFrames}, primitive arrays,
 * nothing allocated per frame); it is what replay reads and what truncation trims. A frame keeps its
 * pattern and iteration ids and the recovery line it was sent under in the index, and its replay
 * carries them again.
 *
 * <p>A restarted incarnation skips the frames its peers already hold (their arrival frontier when it
 * first sends on the channel again) and takes the outcomes of its non-deterministic events from its
 * {@link OutcomeLog} as long as that has them.
 *
 * <p>This class is the top of the sender-side stack (see the package's description): it owns the
 * logged send path, the index and the restart handshake, and composes the layers that own the rest:
 * {@link ReplayServer} (serving replays), {@link LogSpill} (dumps to logger nodes), {@link
 * ChannelQuota} (switching channels off under a quota), {@link LogTruncation} and {@link
 * SenderStatistics}. They all share this rank's one lock, and none holds it across a round trip to
 * another process.
 */
public final class SenderLoggingRank implements RankProtocol {
    private final String protocolName;
    /** Whether frames to a destination world rank are logged (the others are only sent). */
    private final IntPredicate logsTo;

    private final int worldRank;
    private final int incarnation;
    private final boolean restarted;
    private final PayloadLog log;
    private final OutcomeLog outcomes;
    /** Which outgoing channels are logged under the log's quota (memory-constrained logging). */
    private final ChannelSwitch channels;
    /** The layer that keeps the log under that quota by switching channels off ({@link ChannelSwitch}). */
    private final ChannelQuota quota;
    /** The layer that lets logged frames go (after a checkpoint, or when a channel is switched off). */
    private final LogTruncation truncation;
    /** Per destination: the incarnation its latest rollback request came from (absent: 0). */
    private final Map<Integer, Integer> peerIncarnation = new HashMap<>();
    /**
     * Payload bytes the index holds (a frame carrying a shared result counts it, so this is never less
     * than what the log holds) plus what is staged: what the quota is checked against. Lock held.
     */
    private long heldBytes;

    private final long pipelineChunkBytes;

    private final Object lock = new Object();
    /**
     * Outgoing channel key (communicator context, destination world rank) to logged frames by
     * sequence. Keyed by the primitive key: a collective's sends go round the destinations, and a
     * boxed key per logged message showed in profiles of short-message workloads.
     */
    private final LongObjectHashMap<SentFrames> index = new LongObjectHashMap<>();
    /**
     * The channels sent on recently, one per slot by a hash of the key: a rank's sends go round a few
     * peers, and a slot costs one array read where the map costs a hash and a probe. Entries leave the
     * index only all at once ({@link #close}), which empties these slots too.
     */
    private final SentFrames[] recentChannels = new SentFrames[ChannelKey.RECENT_SLOTS];
    /**
     * For a restarted rank: per outgoing channel, what the peer already holds, as the peers answered
     * (or, for a peer that restarted since, as its own rollback request said).
     */
    private final Map<Long, Long> skipUpTo = new HashMap<>();
    /**
     * Per channel key, the digests its receiver kept of the frames it holds from this rank, as its
     * answer said: the sends this restarted rank skips are checked against them. Lock held.
     */
    private final Map<Long, PeerDigests> peerDigests = new HashMap<>();
    /** Whether logged frames carry digests and skipped re-executed sends are checked ({@link PayloadLogConfig#verifyReplays}). */
    private final boolean verify;
    /** Per peer, the incarnation whose word {@link #skipUpTo} holds. */
    private final Map<Integer, Integer> skipReportedBy = new HashMap<>();
    /**
     * For a restarted rank: per outgoing channel, the most that incarnations of the peer since replaced
     * held, as they said ({@link #mayCancel}).
     */
    private final Map<Long, Long> heldByReplacedIncarnations = new HashMap<>();
    /** Peers whose answer to this restarted incarnation's rollback request has come. */
    private final Set<Integer> answered = new HashSet<>();
    /**
     * Per outgoing channel, the sequence numbers of cancelled sends (withdrawn before any receive took
     * them): replay sends their place, not the message. Written by whichever thread completes the
     * cancel, without the lock; trimmed with the log.
     */
    private final Map<Long, Set<Long>> cancelled = new java.util.concurrent.ConcurrentHashMap<>();
    /** The replay-serving layer: streams the log to restarted peers. */
    private final ReplayServer replay;
    /**
     * Frames handed off but not in the log yet (a sending thread between its hand-off and its log
     * entry). A rollback request is taken up only when there are none: the replay it starts covers
     * what the log holds then, which must include every frame that may have reached the requester's
     * dead incarnation.
     */
    private int inFlight;
    /** What this incarnation's checkpoint held per incoming channel (its rollback request says so). */
    private Map<Long, Long> restoredHeld = Map.of();
    /**
     * Replay batches that reached this restarted incarnation and are not acknowledged yet, by the
     * replaying peer: the acknowledgement waits until the rank has taken in most of what that peer
     * replayed, or waits for it (see {@link #releaseReplayAcks}). Touched by the rank's progress only.
     */
    private final Map<Integer, RecoveryMessages.ReplayBatch> unacknowledged = new HashMap<>();
    /** Whether {@link #unacknowledged} has anything: read by any thread of the rank, without the lock. */
    private volatile boolean acknowledgementsDue;

    private RankEngine engine;
    /** Short messages handed off and copied aside, in send order, not entered into the log yet. */
    private final ArrayDeque<StagedSend> staged = new ArrayDeque<>();
    /**
     * Where staged payloads wait, one after the other; emptied whenever they are entered. It grows by
     * doubling, up to {@link #STAGE_AREA_BYTES}, as the rank's messages need it: a rank of thousands in
     * one JVM that sends a few short messages does not hold the largest area. Lock held.
     */
    private MemorySegment stageArea = MemorySegment.ofArray(new byte[0]);

    private int stageUsed;
    private final boolean rootedCollectives;
    private long sharedSequence;
    /** What this incarnation's sender side counts. Lock held. */
    private final SenderStatistics statistics = new SenderStatistics();
    /** Frames indexed so far, on every channel: the next one's {@link SentFrames#order}. Lock held. */
    private long indexedFrames;

    public SenderLoggingRank(
            int worldRank, int incarnation, PayloadLog log, EventLogClient events, RecoveryLines lines) {
        this(worldRank, incarnation, log, events, lines, true);
    }

    /** A rank of the pessimistic protocol: every outgoing channel is logged. */
    public SenderLoggingRank(
            int worldRank,
            int incarnation,
            PayloadLog log,
            EventLogClient events,
            RecoveryLines lines,
            boolean rootedCollectives) {
        this(
                "pessimistic",
                destination -> true,
                worldRank,
                incarnation,
                log,
                new EventLoggedOutcomes(events, incarnation > 0),
                lines::safelyHeldUpTo,
                rootedCollectives);
    }

    /**
     * @param protocolName      the protocol's name, for run records
     * @param logsTo            whether frames to a destination world rank are logged
     * @param rootedCollectives log collectives at application level (rooted algorithms, each
     *                          contribution and each result once); false logs every message of the
     *                          tree algorithms, the baseline the application-level log is measured against
     */
    public SenderLoggingRank(
            String protocolName,
            IntPredicate logsTo,
            int worldRank,
            int incarnation,
            PayloadLog log,
            OutcomeLog outcomes,
            HeldBound held,
            boolean rootedCollectives) {
        this(protocolName, logsTo, worldRank, incarnation, log, outcomes, held, rootedCollectives, ChannelSwitch.NONE);
    }

    /** As above, with a quota on the log kept by switching channels off ({@link ChannelSwitch}). */
    public SenderLoggingRank(
            String protocolName,
            IntPredicate logsTo,
            int worldRank,
            int incarnation,
            PayloadLog log,
            OutcomeLog outcomes,
            HeldBound held,
            boolean rootedCollectives,
            ChannelSwitch channels) {
        this.channels = channels;
        this.protocolName = protocolName;
        this.logsTo = logsTo;
        this.rootedCollectives = rootedCollectives;
        this.worldRank = worldRank;
        this.incarnation = incarnation;
        this.restarted = incarnation > 0;
        this.log = log;
        this.outcomes = outcomes;
        this.pipelineChunkBytes = log.config().pipelineChunkBytes();
        this.verify = log.config().verifyReplays();
        this.replay = new ReplayServer(worldRank, incarnation, new ReplayHost());
        this.quota = new ChannelQuota(channels, new QuotaHost());
        this.truncation = new LogTruncation(worldRank, log, held, cancelled, new TruncationHost());
    }

    /** What truncation reads and changes of this rank: its index, its staged payloads, its shared results. */
    private final class TruncationHost implements LogTruncation.Host {
        @Override
        public Iterable<SentFrames> channels() {
            return index.values();
        }

        @Override
        public void enterStaged() {
            SenderLoggingRank.this.enterStaged();
        }

        @Override
        public long sharedSequence() {
            return sharedSequence;
        }

        @Override
        public void leftMemory(long bytes) {
            heldBytes -= bytes;
        }
    }

    /** What the channel quota reads and changes of this rank: its memory figures, its peers, its index. */
    private final class QuotaHost implements ChannelQuota.Host {
        @Override
        public Object lock() {
            return lock;
        }

        @Override
        public long memoryHeld() {
            return SenderLoggingRank.this.memoryHeld();
        }

        @Override
        public long[] heldToEachDestination(boolean pointToPointOnly) {
            return SenderLoggingRank.this.heldToEachDestination(pointToPointOnly);
        }

        @Override
        public boolean recovering(int peer) {
            return replay.recovering(peer);
        }

        @Override
        public int knownIncarnation(int peer) {
            return peer == worldRank ? incarnation : peerIncarnation.getOrDefault(peer, 0);
        }

        @Override
        public void dropChannelsTo(int peer) {
            SenderLoggingRank.this.dropChannelsTo(peer);
        }
    }

    /** What the replay layer reads of this rank: its lock, its index, its cancelled sends, its logger reads. */
    private final class ReplayHost implements ReplayServer.Host {
        @Override
        public Object lock() {
            return lock;
        }

        @Override
        public Iterable<SentFrames> channels() {
            return index.values();
        }

        @Override
        public boolean wasCancelled(long key, long sequence) {
            return SenderLoggingRank.this.wasCancelled(key, sequence);
        }

        @Override
        public long[] piggybackFor(int peer) {
            return outcomes.piggybackFor(peer);
        }

        @Override
        public byte[] readDumped(DumpedPayload payload) {
            return spill.read(payload);
        }
    }

    /**
     * Shared results are stored on a channel of their own (this rank to itself, in a context no
     * communicator uses), so their numbering never meets a real self-send's.
     */
    static int sharedContext(int context) {
        return context | SHARED_CONTEXT_BIT;
    }

    private static final int SHARED_CONTEXT_BIT = 1 << 30;

    /** Whether {@code context} is one of the channels shared results are stored on. */
    static boolean isSharedContext(int context) {
        return (context & SHARED_CONTEXT_BIT) != 0;
    }

    /**
     * Messages up to this size are staged (see {@link #stage}); longer ones are pulled by their
     * receiver, and their log copy overlaps that transfer already.
     */
    static final long STAGE_MAX_BYTES = 16 << 10;
    /**
     * From this length a payload to a transport that stages payloads (TCP) is logged before the
     * hand-off and written from the log. Shorter ones are logged after it, beside the transport's own
     * copy: a lease of the log's memory costs more than copying a few kilobytes.
     */
    static final long SEND_FROM_LOG_MIN_BYTES = 8 << 10;
    /** Staged messages beyond this many, or this many bytes, are entered at once by the sending thread. */
    private static final int STAGE_LIMIT = 64;

    private static final int STAGE_AREA_BYTES = 256 << 10;
    /** The staging area's first size. */
    private static final int STAGE_AREA_FIRST_BYTES = 4 << 10;

    /**
     * Keeps this rank's log under the loggers' quota by dumping its oldest entries to logger nodes
     * (Algorithm 1 of "Addressing the last roadblock for message logging in HPC"; {@link LoggerSpill}).
     * Call once, before the rank starts.
     */
    public SenderLoggingRank dumpingTo(LoggerClient client) {
        if (client != null) {
            this.spill = new LoggerSpill(client, log, new SpillHost(), "rewind-log-spill-" + worldRank);
        }
        return this;
    }

    /** Where the log's oldest entries go when it would pass the loggers' quota ({@link LogSpill#NONE}: nowhere). */
    private LogSpill spill = LogSpill.NONE;

    /** What the spill layer reads and changes of this rank: its lock, its memory figures and its index. */
    private final class SpillHost implements LoggerSpill.Host {
        @Override
        public Object lock() {
            return lock;
        }

        @Override
        public long memoryHeld() {
            return SenderLoggingRank.this.memoryHeld();
        }

        @Override
        public void enterStaged() {
            SenderLoggingRank.this.enterStaged();
        }

        @Override
        public Iterable<SentFrames> channels() {
            return index.values();
        }

        @Override
        public void leftMemory(long bytes) {
            heldBytes -= bytes;
        }
    }

    @Override
    public String name() {
        return protocolName;
    }

    @Override
    public boolean tracksArrivals() {
        return true;
    }

    @Override
    public boolean logsPayloads() {
        return true;
    }

    @Override
    public boolean rootedCollectives() {
        return rootedCollectives;
    }

    /**
     * Decides under this protocol's lock (skip, log now, log after), hands the frame off outside it,
     * then logs it: the receiver gets the message without waiting for the log (in a ping-pong the log
     * copy overlaps the peer's reply). Only a pipelined copy that rides on the transfer (a tee) is set
     * up first. Between the hand-off and the log entry the frame is counted in flight, and a rollback
     * request waits for none to be: the replay it starts then finds in the log every frame that may
     * have reached the requester's dead incarnation.
     */
    @Override
    public boolean send(Frame frame, int destinationWorld, SharedPayload shared, Transport transport) {
        long key = ChannelKey.of(frame.context(), destinationWorld);
        if (!logsTo.test(destinationWorld) || !roomToLog(destinationWorld, frame.lengthBytes())) {
            return sendUnlogged(frame, destinationWorld, key, transport);
        }
        if (verify) {
            frame.setDigest(MessageDigests.of(frame)); // before the hand-off: its receiver keeps it
        }
        if (spill.spills()
                && shared == null
                && frame.lengthBytes() > spill.quotaBytes()
                && channels.logs(destinationWorld)) {
            Boolean sent = sendLoggedAtLogger(frame, destinationWorld, key, transport);
            if (sent != null) {
                return sent;
            }
        }
        // The log copies the sender's buffer as given: once handed off, a frame queued unmatched may
        // be switched to a private copy by the receiving side.
        MemorySegment source = frame.data();
        long sourceOffset = frame.dataOffset();
        AfterHandOff after = AfterHandOff.NOTHING;
        CopyMethod method = null;
        synchronized (lock) {
            // A restarted rank logs what it re-executes even when the peer already holds it: if that peer
            // crashes later, this log is the only place left to replay it from.
            boolean peerHasIt = restarted && frame.sequence() <= skipUpTo.getOrDefault(key, 0L);
            if (peerHasIt) {
                checkReexecuted(key, frame, destinationWorld);
            }
            // A synchronous send must wait until the peer matches the message, which it may not have
            // done yet: the copy sent again is dropped there as a duplicate, and this send completes
            // once the first copy is matched. A pulled send too may have been cancelled the first time:
            // the peer then keeps the copy sent again for the re-executed cancel, and otherwise drops
            // it and lets this send complete.
            boolean deliver = !peerHasIt || frame.isSynchronous() || frame.isPulled();
            if (frame.sequence() <= channel(key).truncatedUpTo()) {
                // Every recovery line the peer keeps holds this message already: no replay can ask for
                // it, so it is not logged. This happens to a restarted rank only, when a peer's oldest
                // kept line is ahead of the line this rank restarted from (after a local recovery), or
                // is a line of the execution before a global rollback.
                if (!deliver) {
                    statistics.skipped();
                    return false;
                }
            } else if (deliver
                    && !frame.isPulled()
                    && frame.lengthBytes() >= SEND_FROM_LOG_MIN_BYTES
                    && transport.stagesPayload(destinationWorld)) {
                // The transport would copy the payload into memory of its own before writing it (TCP):
                // the log copy takes that place, and the transport writes from the log. A logged message
                // then costs the copies of an unlogged one, whatever the copy method (the sending thread
                // makes the one copy, as the transport would have).
                LogEntry entry = logFrame(frame, source, sourceOffset, destinationWorld, shared, CopyMethod.PACK);
                frame.setProtocolState(entry);
                indexFrame(key, frame, entry);
                entry.awaitCopy(); // a shared payload's entry may have been made with another method
                LogLease lease = log.lease(entry);
                if (lease != null) { // else (a backend that keeps no payloads) the transport copies as usual
                    frame.setStaged(new LeasedPayload(lease));
                }
            } else {
                method = copyMethodFor(frame);
                // A tee is driven by whoever transfers the payload, which must be this thread: not for a
                // pulled frame, which its receiver copies (and which is logged after the hand-off). Nor
                // for a frame the transport stages whole in a record before writing it (TCP): a tee
                // would put the whole log copy ahead of the transfer; logged after the hand-off instead,
                // chunk by chunk between writes (afterSend), it overlaps what the socket still sends.
                boolean teed = deliver
                        && method == CopyMethod.PIPELINED
                        && !frame.isPulled()
                        && !transport.stagesPayload(destinationWorld)
                        && !(shared != null && shared.protocolState() != null);
                if (deliver
                        && method == CopyMethod.PACK
                        && shared == null
                        && frame.lengthBytes() <= STAGE_MAX_BYTES
                        && !frame.isPulled()) {
                    after = AfterHandOff.STAGE;
                } else if (deliver && !teed) {
                    after = AfterHandOff.LOG;
                } else {
                    LogEntry entry = logFrame(frame, source, sourceOffset, destinationWorld, shared, method);
                    frame.setProtocolState(entry);
                    indexFrame(key, frame, entry);
                    if (!deliver) {
                        statistics.skipped();
                        entry.awaitCopy(); // nothing is transferred, so the log copy is finished here
                        return false;
                    }
                    if (entry.copyMethod() == CopyMethod.PIPELINED) {
                        frame.setTee((src, so, dst, d, n) ->
                                PipelinedCopier.transferAndLog(src, so, dst, d, n, entry, pipelineChunkBytes));
                    }
                }
                if (after != AfterHandOff.NOTHING) {
                    inFlight++; // handed off below, logged after: a rollback request waits for it
                    inFlightBytes += frame.lengthBytes();
                }
            }
        }
        // Handed off outside the lock: a transport may block, or deliver in this thread. The receiver
        // gets the message without waiting for the log (in a ping-pong the log copy overlaps the peer's
        // reply).
        try {
            frame.setPiggyback(outcomes.piggybackFor(destinationWorld));
            transport.send(destinationWorld, frame);
        } finally {
            StagedPayload untaken = frame.takeStaged(); // a transport that stages payloads takes it
            if (untaken != null) {
                untaken.release();
            }
            if (after != AfterHandOff.NOTHING) {
                synchronized (lock) {
                    try {
                        if (after == AfterHandOff.STAGE) {
                            stage(frame, destinationWorld, source, sourceOffset);
                        } else {
                            LogEntry entry = logFrame(frame, source, sourceOffset, destinationWorld, shared, method);
                            frame.setProtocolState(entry);
                            indexFrame(key, frame, entry);
                        }
                    } finally {
                        inFlight--; // never left counted: a rollback request would wait for ever
                        inFlightBytes -= frame.lengthBytes();
                    }
                    spill.dumpIfDue();
                }
            } else if (spill.spills()) {
                synchronized (lock) {
                    spill.dumpIfDue();
                }
            }
        }
        return true;
    }

    /**
     * A frame longer than the whole quota: its log copy goes straight to a logger before it is handed
     * off (the blocking dump of a message that cannot fit), so the rank's log never holds it. Null if
     * every logger declined: it is then logged here like any frame, over the quota.
     */
    private Boolean sendLoggedAtLogger(Frame frame, int destinationWorld, long key, Transport transport) {
        boolean deliver;
        boolean store;
        synchronized (lock) {
            boolean peerHasIt = restarted && frame.sequence() <= skipUpTo.getOrDefault(key, 0L);
            deliver = !peerHasIt || frame.isSynchronous() || frame.isPulled();
            store = frame.sequence() > channel(key).truncatedUpTo();
            if (store) {
                inFlight++; // stored below, outside the lock: a rollback request waits for it
            }
        }
        if (store) {
            // The logger's round trip runs outside the rank's lock.
            DumpedPayload stored = null;
            try {
                stored = spill.storeWhole(frame, worldRank, destinationWorld, incarnation);
            } finally {
                synchronized (lock) {
                    inFlight--;
                    if (stored != null) {
                        spill.appended(frame.lengthBytes());
                        countCollective(frame);
                        addToIndex(key, frame, stored);
                    }
                }
            }
            if (stored == null) {
                return null;
            }
        }
        if (!deliver) {
            synchronized (lock) {
                statistics.skipped();
            }
            return false;
        }
        frame.setPiggyback(outcomes.piggybackFor(destinationWorld));
        transport.send(destinationWorld, frame);
        return true;
    }

    /** Payload bytes this rank's log holds in memory, or is about to (staged, in flight). Lock held. */
    private long memoryHeld() {
        return heldBytes + stageUsed + inFlightBytes;
    }

    /**
     * Whether a frame of {@code bytes} to {@code destinationWorld} is logged, once there is room: the
     * spill to logger nodes makes room first (waiting for a dump if the log is at the loggers' quota),
     * then the channel quota switches channels off if the log would still pass it ({@link
     * ChannelQuota#roomFor}). Lock not held: both may wait for another process.
     */
    private boolean roomToLog(int destinationWorld, long bytes) {
        if (spill.spills() && bytes <= spill.quotaBytes()) {
            spill.makeRoom(bytes, quota.limits()); // waits outside the lock
        }
        return quota.roomFor(destinationWorld, bytes);
    }

    /** Payload bytes of frames handed off and not logged yet (see {@link #inFlight}). Lock held. */
    private long inFlightBytes;

    /**
     * Lock held: point-to-point payload bytes the index holds per destination world rank, which rank
     * the channels (collectives carry a small share, and the analysis tools leave them out too).
     */
    private long[] heldToEachDestination(boolean pointToPointOnly) {
        int n = engine == null ? 0 : engine.worldSize();
        long[] out = new long[n];
        for (SentFrames c : index.values()) {
            int peer = ChannelKey.peer(c.key);
            int context = ChannelKey.context(c.key);
            if (peer < n
                    && (context & SHARED_CONTEXT_BIT) == 0
                    && !(pointToPointOnly && Contexts.isCollective(context))) {
                out[peer] += c.bytes();
            }
        }
        return out;
    }

    /** Lock held: drops every logged frame to {@code destinationWorld} (its channel was switched off). */
    private void dropChannelsTo(int destinationWorld) {
        truncation.dropChannelsTo(destinationWorld);
    }

    /** Lock held: enters a logged frame in its channel's index, with its place among all indexed frames. */
    private void addToIndex(long key, Frame frame, StoredPayload stored) {
        channel(key)
                .add(
                        frame.context(),
                        frame.source(),
                        frame.tag(),
                        frame.sequence(),
                        pattern(frame),
                        frame.line(),
                        frame.digest(),
                        stored,
                        indexedFrames++);
    }

    /** Lock held: indexes a logged frame and counts its bytes against the quota. */
    private void indexFrame(long key, Frame frame, LogEntry entry) {
        // A collective's shared result may have gone to a logger since its first frame was logged.
        StoredPayload stored = entry.movedTo() instanceof DumpedPayload d && d.reference() ? d : entry;
        addToIndex(key, frame, stored);
        if (stored == entry) {
            heldBytes += entry.lengthBytes();
        }
    }

    /**
     * A frame on a channel that is not logged (inside the rank's cluster): sent, unless the peer, also
     * re-executing from the same line, already holds it.
     */
    private boolean sendUnlogged(Frame frame, int destinationWorld, long key, Transport transport) {
        if (restarted && !frame.isSynchronous()) {
            synchronized (lock) {
                if (frame.sequence() <= skipUpTo.getOrDefault(key, 0L)) {
                    statistics.skipped();
                    return false;
                }
            }
        }
        frame.setPiggyback(outcomes.piggybackFor(destinationWorld));
        transport.send(destinationWorld, frame);
        return true;
    }

    /** What a send still does once its frame is handed off. */
    private enum AfterHandOff {
        /** Nothing: it was logged before (a pipelined copy riding on the transfer), or is not logged. */
        NOTHING,
        /** Copy the short payload aside, to enter the log while the rank waits. */
        STAGE,
        /** Log it (a pulled frame's copy then overlaps its receiver's). */
        LOG
    }

    /**
     * A short message is logged in two steps: right after the hand-off its payload is copied aside
     * (the send may complete then), and the copy enters the log when the rank next waits ({@link
     * #whileWaiting}), or before anything reads or trims the log. Entering it (log and index
     * bookkeeping) costs several times the copy; done while waiting, it overlaps the peer's reply
     * instead of delaying this rank's next receive. Lock held (taken again after the hand-off).
     */
    private void stage(Frame frame, int destinationWorld, MemorySegment source, long sourceOffset) {
        int length = (int) frame.lengthBytes();
        if (stageUsed + length > stageArea.byteSize()) {
            if (stageArea.byteSize() < STAGE_AREA_BYTES) {
                growStageArea(stageUsed + length);
            } else {
                enterStaged();
            }
        }
        MemorySegment.copy(source, sourceOffset, stageArea, stageUsed, length);
        staged.addLast(new StagedSend(frame, destinationWorld, stageUsed));
        stageUsed += length;
        if (staged.size() >= STAGE_LIMIT) {
            enterStaged();
        }
    }

    /** Makes the staging area hold at least {@code needed} bytes, keeping what is staged. Lock held. */
    private void growStageArea(long needed) {
        long size = Math.max(STAGE_AREA_FIRST_BYTES, stageArea.byteSize());
        while (size < needed && size < STAGE_AREA_BYTES) {
            size *= 2;
        }
        MemorySegment grown = MemorySegment.ofArray(new byte[(int) Math.min(size, STAGE_AREA_BYTES)]);
        MemorySegment.copy(stageArea, 0, grown, 0, stageUsed);
        stageArea = grown;
    }

    /** Enters the staged messages into the log, in send order, and empties the staging area. Lock held. */
    private void enterStaged() {
        StagedSend s;
        while ((s = staged.pollFirst()) != null) {
            Frame f = s.frame();
            LogEntry entry = logFrame(f, stageArea, s.offset(), s.destinationWorld(), null, CopyMethod.PACK);
            indexFrame(ChannelKey.of(f.context(), s.destinationWorld()), f, entry);
        }
        stageUsed = 0;
    }

    @Override
    public void whileWaiting() {
        synchronized (lock) {
            if (!staged.isEmpty()) {
                enterStaged();
            }
            spill.dumpIfDue();
        }
    }

    /**
     * Up to which sequence number every recovery line a receiver may restart from holds a channel of
     * it: no recovery can ask for the frames below, so truncation drops them.
     */
    @FunctionalInterface
    public interface HeldBound {
        long safelyHeldUpTo(int receiver, long channelKey);
    }

    /** A short message handed off and copied aside (at {@code offset} in the staging area), not logged yet. */
    private record StagedSend(Frame frame, int destinationWorld, int offset) {}

    /** Appends the frame's payload, or for a shared result the entry its first frame made. Lock held. */
    private LogEntry logFrame(
            Frame frame,
            MemorySegment source,
            long sourceOffset,
            int destinationWorld,
            SharedPayload shared,
            CopyMethod method) {
        if (shared != null) {
            // The entry its first frame made, if it is still kept here or at a logger; else (all frames
            // that carried it trimmed) a new one.
            if (shared.protocolState() instanceof LogEntry entry
                    && (entry.movedTo() instanceof DumpedPayload d ? !d.isReleased() : entry.isLive())) {
                return entry;
            }
            LogEntry entry = log.append(
                    new MessageKey(
                            sharedContext(frame.context()),
                            worldRank,
                            worldRank,
                            frame.tag(),
                            ++sharedSequence,
                            incarnation),
                    source,
                    sourceOffset,
                    frame.lengthBytes(),
                    method);
            shared.setProtocolState(entry);
            countCollective(frame);
            spill.appended(frame.lengthBytes());
            return entry;
        }
        LogEntry entry = log.append(
                new MessageKey(
                        frame.context(), worldRank, destinationWorld, frame.tag(), frame.sequence(), incarnation),
                source,
                sourceOffset,
                frame.lengthBytes(),
                method);
        countCollective(frame);
        spill.appended(frame.lengthBytes());
        return entry;
    }

    private void countCollective(Frame frame) {
        statistics.logged(frame.context(), frame.lengthBytes());
    }

    /** A frame's pattern id and iteration id in one long, as the index keeps them. */
    private static long pattern(Frame frame) {
        return ((long) frame.patternId() << 32) | (frame.iterationId() & 0xffffffffL);
    }

    private SentFrames channel(long key) {
        int slot = ChannelKey.recentSlot(key);
        SentFrames recent = recentChannels[slot];
        if (recent != null && recent.key == key) {
            return recent;
        }
        SentFrames c = index.get(key);
        if (c == null) {
            c = new SentFrames(key);
            index.put(key, c);
        }
        recentChannels[slot] = c;
        return c;
    }

    /**
     * The policy's copy method, except for a frame its receiver pulls: the receiving thread makes the
     * transfer copy, so this thread copies into the log after the hand-off (a pipelined entry without
     * a tee, finished in one go by {@link #afterSend}) instead of before it, and the two copies overlap.
     * A helper-thread copy overlaps either way.
     */
    private CopyMethod copyMethodFor(Frame frame) {
        CopyMethod m = log.policy().methodFor(frame.lengthBytes());
        return frame.isPulled() && m == CopyMethod.PACK ? CopyMethod.PIPELINED : m;
    }

    /**
     * Finishes the frame's log copy before its send completes. A pipelined copy not made by a tee (a
     * frame its transport stages whole, see {@link #send}) is made here, a chunk at a time, and between chunks
     * the transport writes what of the message still waits for room in its socket.
     */
    @Override
    public void afterSend(Frame frame) {
        if (frame.protocolState() instanceof LogEntry entry) {
            RankEngine e = engine;
            if (entry.copyMethod() == CopyMethod.PIPELINED
                    && e != null
                    && e.transport().stagesPayload(frame.destinationWorld())) {
                Transport transport = e.transport();
                while (!entry.isCopyDone()) {
                    entry.copyNextChunk(Math.min(pipelineChunkBytes, entry.lengthBytes() - entry.copiedBytes()));
                    transport.flushOutbound();
                }
            }
            entry.awaitCopy();
        }
    }

    @Override
    public boolean readsPiggybacks() {
        return outcomes.readsPiggybacks();
    }

    @Override
    public void onPiggyback(Frame frame) {
        outcomes.onPiggyback(frame);
    }

    @Override
    public void onSendCancelled(int context, int destinationWorld, long sequence) {
        cancelled
                .computeIfAbsent(
                        ChannelKey.of(context, destinationWorld),
                        k -> java.util.concurrent.ConcurrentHashMap.newKeySet())
                .add(sequence);
    }

    /** Whether send {@code sequence} of channel {@code key} was cancelled. */
    private boolean wasCancelled(long key, long sequence) {
        if (cancelled.isEmpty()) {
            return false;
        }
        Set<Long> s = cancelled.get(key);
        return s != null && s.contains(sequence);
    }

    @Override
    public byte[] checkpointState() {
        return outcomes.checkpointState();
    }

    @Override
    public void restoreState(byte[] state) {
        outcomes.restoreState(state);
    }

    @Override
    public long[] determinantFigures() {
        return outcomes.figures();
    }

    @Override
    public void onWildcardMatch(long index, Frame frame) {
        outcomes.wildcardMatched(index, frame);
    }

    @Override
    public ForcedMatch forcedWildcard(long index) {
        return restarted ? outcomes.forcedWildcard(index) : null;
    }

    @Override
    public void onPollOutcome(long index, long[] outcome) {
        outcomes.polled(index, outcome);
    }

    @Override
    public void onCompletionOutcome(long index, long[] outcome) {
        outcomes.completed(index, outcome);
    }

    @Override
    public long[] forcedPollOutcome(long index) {
        return restarted ? outcomes.forcedPoll(index) : null;
    }

    /**
     * The logged frames a restarted peer needs, as private copies in sequence order per channel: those
     * numbered above what its restored checkpoint holds ({@code frontiers}, keyed by the peer's incoming
     * channel keys).
     */
    public List<Frame> framesFor(int destinationWorld, Map<Long, Long> frontiers) {
        List<Frame> out = new ArrayList<>();
        synchronized (lock) {
            enterStaged();
            for (SentFrames c : index.values()) {
                if (ChannelKey.peer(c.key) != destinationWorld) {
                    continue;
                }
                int context = ChannelKey.context(c.key);
                long held = frontiers.getOrDefault(ChannelKey.of(context, worldRank), 0L);
                for (int i = c.firstAbove(held); i < c.tail(); i++) {
                    out.add(replay.copyOf(c, i, destinationWorld));
                }
            }
        }
        return out;
    }

    @Override
    public void wroteLine(long line) {
        outcomes.atLine(line);
    }

    @Override
    public void restartedFrom(long line) {
        outcomes.atLine(line);
    }

    @Override
    public void afterCheckpoint() {
        truncate();
        outcomes.afterCheckpoint();
    }

    @Override
    public long[] collectiveLogFigures() {
        return new long[] {collectiveEntries(), collectiveBytes()};
    }

    // ---------------------------------------------------------------------------------------------
    // Recovery by messages (see RecoveryMessages)

    /**
     * A restarted incarnation asks every other rank for what its checkpoint does not hold and waits
     * for their answers, which say what each already holds from this rank: before the program runs,
     * this rank then knows which of the sends it re-executes to skip.
     */
    @Override
    public void onStart(RankEngine rankEngine, Map<Long, Long> held) {
        this.engine = rankEngine;
        this.restoredHeld = Map.copyOf(held);
        outcomes.started(rankEngine);
        channels.started();
        if (!restarted) {
            return;
        }
        int n = rankEngine.worldSize();
        Transport transport = rankEngine.transport();
        for (int peer = 0; peer < n; peer++) {
            if (peer != worldRank) {
                transport.sendControl(
                        peer, new RecoveryMessages.RollbackRequest(worldRank, incarnation, byContext(held, peer)));
            }
        }
        while (true) {
            synchronized (lock) {
                if (answered.size() >= n - 1) {
                    return;
                }
            }
            rankEngine.checkAlive();
            LockSupport.parkNanos(this, ANSWER_WAIT_SLICE_NANOS);
        }
    }

    /** The entries of channel-keyed {@code map} whose peer is {@code peer}, by context. */
    private static Map<Integer, Long> byContext(Map<Long, Long> map, int peer) {
        Map<Integer, Long> out = new HashMap<>();
        for (Map.Entry<Long, Long> e : map.entrySet()) {
            if (ChannelKey.peer(e.getKey()) == peer) {
                out.put(ChannelKey.context(e.getKey()), e.getValue());
            }
        }
        return out;
    }

    @Override
    public void onControl(ControlMessage message, Transport transport) {
        switch (message) {
            case RecoveryMessages.RollbackRequest r -> onRollbackRequest(r, transport);
            case RecoveryMessages.LastMessages m -> {
                if (restarted) {
                    outcomes.answered(m.sourceWorld(), m.outcomes());
                }
                synchronized (lock) {
                    peerHolds(m.sourceWorld(), m.incarnation(), m.arrived());
                    peerDigests(m.sourceWorld(), m.incarnation(), m.digests());
                    answered.add(m.sourceWorld());
                }
            }
            case RecoveryMessages.ReplayBatch b -> {
                synchronized (lock) {
                    statistics.replayedIn(b.frames());
                }
                unacknowledged.put(b.sourceWorld(), b);
                acknowledgementsDue = true;
            }
            case RecoveryMessages.ReplayAck a -> {
                synchronized (lock) {
                    replay.acknowledged(a);
                }
            }
            default -> {
                // not a message of this protocol
            }
        }
    }

    /**
     * Another rank restarted: it holds what its checkpoint holds. Answer with what this rank holds
     * from it, and start streaming what it lacks from the log.
     */
    private void onRollbackRequest(RecoveryMessages.RollbackRequest r, Transport transport) {
        int peer = r.sourceWorld();
        Map<Integer, Long> arrived = engine.mailbox().arrivedFrom(peer);
        boolean askAgain = false;
        synchronized (lock) {
            if (inFlight > 0) {
                replay.defer(r); // a sending thread is between its hand-off and its log entry
                return;
            }
            // What it holds now is what this rank may skip, if this rank is re-executing too; and if this
            // rank waits for its answer, this is the answer (it restarted before it could give one),
            // unless the answer must bring outcomes: then it is asked again, in its new incarnation.
            peerHolds(peer, r.incarnation(), r.held());
            peerIncarnation.put(peer, r.incarnation());
            if (!outcomes.answersCarryOutcomes()) {
                answered.add(peer);
            } else if (restarted && !answered.contains(peer)) {
                askAgain = true;
            }
            outcomes.peerRestarted(peer);
            enterStaged();
            // What the log holds for it now: frames sent from here on go to its new incarnation directly.
            replay.open(peer, r.incarnation(), r.held());
        }
        transport.sendControl(
                peer,
                new RecoveryMessages.LastMessages(
                        worldRank,
                        incarnation,
                        arrived,
                        outcomes.outcomesOf(peer),
                        verify ? engine.mailbox().digestsFrom(peer) : new long[0]));
        if (askAgain) {
            transport.sendControl(
                    peer, new RecoveryMessages.RollbackRequest(worldRank, incarnation, byContext(restoredHeld, peer)));
        }
    }

    /**
     * Lock held: incarnation {@code peerIncarnation} of {@code peer} holds, of what this rank sent it,
     * up to {@code held} per context. The word of an incarnation older than the one heard from last is
     * stale and ignored. When a newer incarnation speaks, what the replaced one held is remembered
     * ({@link #heldByReplacedIncarnations}).
     */
    private void peerHolds(int peer, int peerIncarnation, Map<Integer, Long> held) {
        Integer reportedBy = skipReportedBy.get(peer);
        if (reportedBy != null && peerIncarnation < reportedBy) {
            return;
        }
        for (Iterator<Map.Entry<Long, Long>> it = skipUpTo.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Long> e = it.next();
            if (ChannelKey.peer(e.getKey()) == peer) {
                if (reportedBy != null && peerIncarnation > reportedBy) {
                    heldByReplacedIncarnations.merge(e.getKey(), e.getValue(), Math::max);
                }
                it.remove();
            }
        }
        skipReportedBy.put(peer, peerIncarnation);
        // What an earlier incarnation of the peer received is no measure of what this one holds.
        peerDigests.keySet().removeIf(k -> ChannelKey.peer(k) == peer);
        for (Map.Entry<Integer, Long> e : held.entrySet()) {
            skipUpTo.put(ChannelKey.of(e.getKey(), peer), e.getValue());
        }
    }

    /**
     * Lock held: incarnation {@code peerIncarnation} of {@code peer} kept these digests of what it
     * holds from this rank ({@link io.rewind.engine.Mailbox#digestsFrom}); the word of an incarnation
     * older than the one heard from last is stale and ignored.
     */
    private void peerDigests(int peer, int peerIncarnation, long[] words) {
        Integer reportedBy = skipReportedBy.get(peer);
        if (reportedBy != null && peerIncarnation < reportedBy) {
            return;
        }
        for (int at = 0; at + 3 <= words.length; ) {
            int context = (int) words[at];
            long first = words[at + 1];
            int count = (int) words[at + 2];
            at += 3;
            if (count < 0 || at + count > words.length) {
                return; // not words this rank's peers write: nothing to check against
            }
            int[] digests = new int[count];
            for (int i = 0; i < count; i++) {
                digests[i] = (int) words[at + i];
            }
            at += count;
            peerDigests.put(ChannelKey.of(context, peer), new PeerDigests(first, digests));
        }
    }

    /**
     * Lock held: a send this restarted rank re-executes and skips, since its receiver holds it, must
     * be the message the receiver holds. One that differs ends the job: the re-execution went another
     * way than the original (an outcome not repeated, say), and the receiver's state already depends on
     * what it got.
     */
    private void checkReexecuted(long key, Frame frame, int destinationWorld) {
        PeerDigests d = peerDigests.get(key);
        if (d == null || frame.digest() == 0) {
            return;
        }
        int expected = d.of(frame.sequence());
        if (expected != 0 && expected != frame.digest()) {
            throw new ReplayMismatch(
                            false,
                            frame.context(),
                            worldRank,
                            destinationWorld,
                            frame.sequence(),
                            expected,
                            frame.digest())
                    .error(protocolName);
        }
    }

    /** The digests a receiver kept of consecutive frames of one channel, from sequence {@code first} on. */
    private record PeerDigests(long first, int[] digests) {
        /** The digest of frame {@code sequence}, or 0 if none was kept. */
        int of(long sequence) {
            long i = sequence - first;
            return i >= 0 && i < digests.length ? digests[(int) i] : 0;
        }
    }

    /**
     * A send this restarted rank re-executes may not be withdrawn if an incarnation of its receiver
     * that has since been replaced held it and the current one does not hold it yet. That incarnation
     * may have received it, and this rank may already know so (a barrier it passed with that
     * incarnation's word): the run without failures could not have cancelled it. Whether it was
     * received or withdrawn then is known nowhere now, so the cancel fails, which MPI allows, and the
     * message stays for the receiver's re-execution.
     */
    @Override
    public boolean mayCancel(int context, int destinationWorld, long sequence) {
        if (!restarted) {
            return true;
        }
        long key = ChannelKey.of(context, destinationWorld);
        synchronized (lock) {
            return sequence > heldByReplacedIncarnations.getOrDefault(key, 0L)
                    || sequence <= skipUpTo.getOrDefault(key, 0L);
        }
    }

    @Override
    public boolean hasProgressWork() {
        return replay.serving() || acknowledgementsDue;
    }

    /**
     * Acknowledges each replay batch that this rank has taken in: a peer sends its next batch only
     * then, so what the peers replay waits in their logs, not in this rank's memory. A batch counts as
     * taken in when fewer than one batch's worth of frames from that peer still wait for their receive,
     * or at once when the rank waits for a message from that peer (a receive or probe that nothing
     * queued satisfies): the program may take the peer's messages in another order than they were
     * sent (other tags, other communicators), and then it needs the next batch before it can take the
     * queued ones. At most about two batches per peer wait here, unless the program itself asks for
     * more.
     */
    private void releaseReplayAcks(Transport transport) {
        if (!acknowledgementsDue) {
            return;
        }
        var mailbox = engine == null ? null : engine.mailbox(); // null before the rank started: no pacing
        for (var it = unacknowledged.values().iterator(); it.hasNext(); ) {
            RecoveryMessages.ReplayBatch b = it.next();
            int peer = b.sourceWorld();
            if (mailbox == null
                    || mailbox.acceptsMoreFrom(
                            peer, ReplayServer.REPLAY_BATCH_FRAMES, ReplayServer.REPLAY_BATCH_BYTES)) {
                it.remove();
                transport.sendControl(peer, new RecoveryMessages.ReplayAck(worldRank, incarnation, b.batch()));
            }
        }
        acknowledgementsDue = !unacknowledged.isEmpty();
    }

    /** Takes up the rollback requests that waited for frames in flight, and sends the replays' next batches. */
    @Override
    public void progress(Transport transport) {
        releaseReplayAcks(transport);
        if (!replay.serving()) {
            return;
        }
        List<RecoveryMessages.RollbackRequest> ready;
        synchronized (lock) {
            ready = replay.takeDeferred(inFlight);
        }
        for (RecoveryMessages.RollbackRequest r : ready) {
            onRollbackRequest(r, transport);
        }
        replay.sendDueBatches(transport);
    }

    @Override
    public long replayedToThisRank() {
        synchronized (lock) {
            return statistics.replayedIn();
        }
    }

    /** How long a restarted rank parks between looks for its peers' answers (a control message wakes it). */
    private static final long ANSWER_WAIT_SLICE_NANOS = 20_000_000L;

    /**
     * Drops what every receiver's oldest kept recovery line already holds. Called when this rank
     * checkpoints (and may be called at any time).
     */
    public void truncate() {
        synchronized (lock) {
            truncation.toHeldBounds();
        }
    }

    @Override
    public long heldLogBytes() {
        return log.statistics().payloadBytes();
    }

    @Override
    public long heldLogMemoryBytes() {
        return log.statistics().memoryBytes();
    }

    @Override
    public LogStatistics logStatistics() {
        synchronized (lock) {
            enterStaged();
        }
        return log.statistics();
    }

    /** Log entries made for messages of collectives (a shared result counts once). */
    public long collectiveEntries() {
        synchronized (lock) {
            enterStaged();
            return statistics.collectiveEntries();
        }
    }

    /** Payload bytes logged for messages of collectives (a shared result counts once). */
    public long collectiveBytes() {
        synchronized (lock) {
            enterStaged();
            return statistics.collectiveBytes();
        }
    }

    public long skippedFrames() {
        synchronized (lock) {
            return statistics.skippedFrames();
        }
    }

    public long replayedFrames() {
        synchronized (lock) {
            return replay.replayedFrames();
        }
    }

    /** Frees the log (the incarnation crashed or the job ended). */
    @Override
    public void close() {
        synchronized (lock) {
            staged.clear();
            index.clear();
            Arrays.fill(recentChannels, null);
        }
        spill.close(log.statistics().highWaterPayloadBytes());
        log.close();
    }
}
