package io.rewind.transport.shm;

import io.rewind.engine.ControlCodec;
import io.rewind.engine.ControlMessage;
import io.rewind.engine.ErrorClass;
import io.rewind.engine.Frame;
import io.rewind.engine.FrameSink;
import io.rewind.engine.RewindException;
import io.rewind.engine.Transport;
import io.rewind.transport.EarlyArrivals;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The transport of one rank incarnation to the rank processes of its own host, through shared memory:
 * one single-producer ring per ordered pair of incarnations ({@link Ring}), in the job's folder of
 * memory files ({@link ShmFolder}), and one {@link Bell} per incarnation to wake a poller that sleeps.
 *
 * <p>Peers. The transport reaches the ranks it was told of ({@link #peer}): for each, it maps the ring
 * it writes to that incarnation and the ring that incarnation writes to it, whichever process comes
 * first making the file. News of a later incarnation drops both rings of the earlier one (what the
 * earlier one still had in its ring is never read: it is fenced), and the new incarnation gets fresh
 * rings. {@link #peerGone} stops sending to a dead incarnation (its frames are dropped, their senders
 * let go, as a crashed process drops its inbound traffic) but still reads what it committed before it
 * died.
 *
 * <p>Records. A message is one record if it fits ({@link Ring#maxRecord}, an eighth of the ring), else
 * a first record and continuation records, written back to back under the sender's lock of that ring,
 * so that messages never interleave:
 *
 * <pre>
 *   FRAME (1), SYNCHRONOUS_FRAME (3): int context, source, sourceWorld, destinationWorld, tag,
 *       incarnation, patternId, iterationId, line, int 0 (so that the longs stay 8-byte aligned);
 *       long sequence, payload length; then the payload's first bytes
 *   CONTROL (2): int length of the ControlCodec's bytes, int 0; then the first bytes
 *   MORE (4): the next bytes of the message being written
 *   PIGGYBACK (5): int count, int 0; then that many longs: words the next frame carries for the
 *       receiving rank's protocol (several records back to back if they do not fit in one; the frame
 *       follows under the same lock and takes them all)
 * </pre>
 *
 * The receiver checks every field against the ring it came in (its sender, the sender's incarnation,
 * this rank, lengths within the maximum) before it allocates anything; a ring that breaks the format is
 * read no more, with one line on the log, and the other rings are untouched.
 *
 * <p>Sending copies the payload into the ring at once ({@link #sharesMemory()} is false: the engine
 * completes the send when this returns), through the frame's log tee when the message is one record.
 * When the ring is full the sender waits, reading its own rings meanwhile (its peer may be waiting for
 * room in the other direction), until the receiver makes room, the peer is gone, or the receiver took
 * nothing for the stall timeout; then the send fails, as over TCP.
 *
 * <p>Receiving. The rings are read by whoever is there: the rank's thread while it busy-polls in a wait
 * ({@link #poll}), so a message to a spinning rank costs no system call and wakes no thread; and the
 * poller thread ({@code rewind-shm-R-poller}) otherwise, which, once the rings are empty, sleeps on the
 * rank's bell until a sender rings it. While the rank polls, the poller looks every millisecond whether
 * it still does, and takes over at once when it stops ({@link #pollingPaused}).
 */
public final class ShmTransport implements Transport {
    static final int FRAME = 1;
    static final int CONTROL = 2;
    static final int SYNCHRONOUS_FRAME = 3;
    static final int MORE = 4;
    static final int PIGGYBACK = 5;
    /** A {@link #FRAME} replayed from its sender's log ({@link Frame#isReplayed()}). */
    static final int REPLAYED_FRAME = 6;
    /** The most words one frame may carry: a ring whose sender sends more is refused. */
    static final int MAX_PIGGYBACK_WORDS = 1 << 24;

    /**
     * Ten ints (the last the frame's digest, {@link Frame#digest()}) and two longs, so that the longs
     * stay 8-byte aligned in a record that starts so.
     */
    static final int FRAME_HEADER_BYTES = 10 * Integer.BYTES + 2 * Long.BYTES;

    static final int CONTROL_HEADER_BYTES = 2 * Integer.BYTES;
    /** Records one reader takes from one ring before it goes on to the next. */
    private static final int READ_LIMIT = 64;

    private final int worldRank;
    private final int incarnation;
    private final int worldSize;
    private final ShmFolder folder;
    private final ControlCodec codec;
    private final ShmOptions options;
    private final Bell bell;
    private final String bellFile;
    private final EarlyArrivals arrivals = new EarlyArrivals();
    /** What is known of each other rank; guarded by {@code this}. */
    private final Peer[] peers;
    /** The ring to each rank's current live incarnation, or null. Replaced whole under {@code this}. */
    private volatile Outbound[] outbound;
    /** The rings read. Replaced whole under {@code this}. */
    private volatile Inbound[] inbound = new Inbound[0];

    private final AtomicBoolean reading = new AtomicBoolean();
    private final Poller poller;
    private volatile boolean closed;

    private ShmTransport(
            int worldRank, int incarnation, int worldSize, ShmFolder folder, ControlCodec codec, ShmOptions options) {
        this.worldRank = worldRank;
        this.incarnation = incarnation;
        this.worldSize = worldSize;
        this.folder = folder;
        this.codec = codec;
        this.options = options;
        this.peers = new Peer[worldSize];
        for (int r = 0; r < worldSize; r++) {
            peers[r] = new Peer();
        }
        this.outbound = new Outbound[worldSize];
        this.bellFile = Bell.fileName(worldRank, incarnation);
        // This rank's earlier incarnations are dead (a new one is started only then): their rings and
        // bell go, or every rollback would leave its rings in memory until the job ends.
        folder.removeIncarnationsBefore(worldRank, incarnation);
        this.bell = new Bell(folder.map(bellFile, Bell.BYTES));
        this.poller = new Poller();
        poller.thread.start();
    }

    /**
     * The transport of incarnation {@code incarnation} of rank {@code worldRank} (of {@code worldSize}),
     * with its files in {@code folder}.
     *
     * @throws java.io.UncheckedIOException if its bell cannot be made in the folder
     */
    public static ShmTransport open(
            int worldRank, int incarnation, int worldSize, ShmFolder folder, ControlCodec codec, ShmOptions options) {
        if (worldSize < 1 || worldRank < 0 || worldRank >= worldSize) {
            throw new IllegalArgumentException("rank " + worldRank + " of a job of " + worldSize + " ranks");
        }
        if (incarnation < 0) {
            throw new IllegalArgumentException("negative incarnation " + incarnation);
        }
        return new ShmTransport(
                worldRank,
                incarnation,
                worldSize,
                Objects.requireNonNull(folder, "folder"),
                Objects.requireNonNull(codec, "codec"),
                Objects.requireNonNull(options, "options"));
    }

    /** The id of the folder this transport's files are in: peers with the same one share its memory. */
    public String domain() {
        return folder.domain();
    }

    /**
     * Incarnation {@code incarnation} of rank {@code worldRank} is alive on this host (in this folder):
     * frames to the rank go to it from now on, through rings made for the two incarnations. Earlier
     * incarnations' rings are dropped; news of an earlier incarnation than one known, and of this rank
     * itself, is ignored.
     *
     * @throws java.io.UncheckedIOException if a ring cannot be made (the rank is then not reached)
     */
    public void peer(int worldRank, int incarnation) {
        checkRank(worldRank);
        if (incarnation < 0) {
            throw new IllegalArgumentException("negative incarnation " + incarnation);
        }
        if (worldRank == this.worldRank) {
            return;
        }
        Outbound oldOut;
        Inbound oldIn;
        synchronized (this) {
            if (closed) {
                return;
            }
            Peer p = peers[worldRank];
            if (incarnation < p.incarnation || (incarnation == p.incarnation && p.out != null)) {
                return;
            }
            boolean newer = incarnation > p.incarnation;
            // Both rings are mapped before anything changes: if one cannot be, the peer is left as it was.
            Inbound in = newer || p.in == null ? new Inbound(worldRank, incarnation) : p.in;
            Outbound out;
            try {
                out = new Outbound(worldRank, incarnation);
            } catch (RuntimeException e) {
                if (in != p.in) {
                    in.close();
                }
                throw e;
            }
            oldOut = p.out;
            oldIn = in != p.in ? p.in : null;
            p.incarnation = incarnation;
            if (oldIn != null) {
                removeInbound(oldIn);
            }
            if (in != p.in) {
                p.in = in;
                addInbound(in);
            }
            p.out = out;
            setOutbound(worldRank, out);
        }
        close(oldOut);
        close(oldIn);
    }

    /**
     * Incarnation {@code incarnation} of rank {@code worldRank} is dead: frames to the rank are dropped
     * until a later {@link #peer} call. What it committed to its ring before it died is still read.
     */
    public void peerGone(int worldRank, int incarnation) {
        checkRank(worldRank);
        if (worldRank == this.worldRank) {
            return;
        }
        Outbound old;
        synchronized (this) {
            Peer p = peers[worldRank];
            if (incarnation < p.incarnation) {
                return;
            }
            p.incarnation = incarnation;
            old = p.out;
            p.out = null;
            setOutbound(worldRank, null);
        }
        close(old);
    }

    /** Whether frames to {@code worldRank} go through a ring now (a live incarnation is known). */
    public boolean reaches(int worldRank) {
        return worldRank == this.worldRank || outbound[worldRank] != null;
    }

    @Override
    public void send(int destinationWorldRank, Frame frame) {
        checkRank(destinationWorldRank);
        if (closed) {
            frame.releaseSender();
            return;
        }
        if (destinationWorldRank == worldRank) {
            arrivals.frame(frame.receivedCopy()); // acknowledged like any other if synchronous
            return;
        }
        if (frame.lengthBytes() > options.maxPayloadBytes()) {
            throw new RewindException(
                    ErrorClass.COUNT,
                    "rewind: shm: a message of " + frame.lengthBytes() + " bytes is larger than the "
                            + options.maxPayloadBytes() + " bytes the transport carries (maxPayloadBytes)");
        }
        String invalid = invalid(frame);
        if (invalid != null) {
            throw new IllegalArgumentException("rewind: shm: cannot send " + invalid);
        }
        Outbound o = outbound[destinationWorldRank];
        if (o == null || !o.send(frame)) {
            frame.releaseSender(); // no live incarnation, or it went while this waited: dropped
        }
    }

    @Override
    public void sendControl(int destinationWorldRank, ControlMessage message) {
        checkRank(destinationWorldRank);
        if (closed) {
            return;
        }
        if (destinationWorldRank == worldRank) {
            arrivals.control(message);
            return;
        }
        byte[] bytes = codec.encode(message);
        if (bytes.length > options.maxPayloadBytes()) {
            throw new RewindException(
                    ErrorClass.OTHER, "rewind: shm: a control message of " + bytes.length + " bytes is too long");
        }
        Outbound o = outbound[destinationWorldRank];
        if (o != null) {
            o.sendControl(bytes);
        }
    }

    @Override
    public void attach(int worldRank, FrameSink sink) {
        if (worldRank != this.worldRank) {
            throw new IllegalArgumentException(
                    "the shm transport of rank " + this.worldRank + " cannot attach rank " + worldRank);
        }
        arrivals.attach(Objects.requireNonNull(sink, "sink"));
    }

    /** Reads the rings in the calling thread (a rank spinning in a wait); the poller stays off them meanwhile. */
    @Override
    public boolean poll() {
        poller.callerPolls++;
        if (poller.callerPaused) {
            poller.callerPaused = false;
        }
        return readAll();
    }

    @Override
    public void pollingPaused() {
        poller.callerPaused = true;
        if (poller.deferring) {
            LockSupport.unpark(poller.thread);
        }
    }

    /**
     * Always false: a frame handed to another process cannot be taken back from here. A cancelled
     * synchronous send asks its receiver instead ({@link io.rewind.engine.SendCancellation}).
     */
    @Override
    public boolean withdraw(int destinationWorldRank, Frame frame) {
        return false;
    }

    @Override
    public boolean sharesMemory() {
        return false; // the rings are shared, the address spaces are not: payloads are copied at send
    }

    @Override
    public String name() {
        return "shm";
    }

    /** Stops the poller, drops every ring and removes this incarnation's files. */
    @Override
    public void close() {
        List<AutoCloseable> toClose = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            for (Peer p : peers) {
                if (p.out != null) {
                    toClose.add(p.out::close);
                }
                if (p.in != null) {
                    toClose.add(p.in::close);
                }
                p.out = null;
                p.in = null;
            }
            outbound = new Outbound[worldSize];
            inbound = new Inbound[0];
        }
        arrivals.close();
        poller.stop();
        for (AutoCloseable c : toClose) {
            try {
                c.close();
            } catch (Exception e) {
                // closing anyway
            }
        }
        folder.remove(bellFile);
    }

    /** How much arrived before {@link #attach} and waits for it (tests). */
    int waitingForAttach() {
        return arrivals.waiting();
    }

    // --- reading -------------------------------------------------------------------------------------

    /** Reads every ring once, if no other thread is reading them; returns whether anything was read. */
    private boolean readAll() {
        if (!reading.compareAndSet(false, true)) {
            return false;
        }
        try {
            boolean any = false;
            for (Inbound in : inbound) {
                any |= in.read() > 0;
            }
            return any;
        } finally {
            reading.set(false);
        }
    }

    private boolean anyRecord() {
        for (Inbound in : inbound) {
            if (in.ring.hasRecord()) {
                return true;
            }
        }
        return false;
    }

    // --- peers ----------------------------------------------------------------------------------------

    private void setOutbound(int rank, Outbound o) {
        Outbound[] next = outbound.clone();
        next[rank] = o;
        outbound = next;
    }

    private void addInbound(Inbound in) {
        Inbound[] now = inbound;
        Inbound[] next = Arrays.copyOf(now, now.length + 1);
        next[now.length] = in;
        inbound = next;
    }

    private void removeInbound(Inbound in) {
        inbound = Arrays.stream(inbound).filter(i -> i != in).toArray(Inbound[]::new);
    }

    private static void close(Outbound o) {
        if (o != null) {
            o.close();
        }
    }

    private static void close(Inbound i) {
        if (i != null) {
            i.close();
        }
    }

    private void checkRank(int rank) {
        if (rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank " + rank + " out of range (the job has " + worldSize + " ranks)");
        }
    }

    private static String invalid(Frame f) {
        if (f.context() < 0
                || f.source() < 0
                || f.sourceWorld() < 0
                || f.destinationWorld() < 0
                || f.tag() < 0
                || f.sequence() < 0
                || f.incarnation() < 0
                || f.patternId() < 0
                || f.iterationId() < 0
                || f.line() < 0) {
            return "a negative identity field in " + f;
        }
        return null;
    }

    private void note(String line) {
        options.log().accept("rewind: shm: " + line);
    }

    /** What is known of one other rank. */
    private static final class Peer {
        int incarnation = -1;
        Outbound out;
        Inbound in;
    }

    // --- one ring written -----------------------------------------------------------------------------

    /** The ring to one incarnation of a peer, written by this process's threads in turn. */
    private final class Outbound {
        private final int rank;
        private final int peerIncarnation;
        private final String file;
        private final Ring ring;
        private final MemorySegment memory;
        private final Bell peerBell;
        private final int maxRecord;
        private final ReentrantLock writing = new ReentrantLock();
        private volatile boolean closing;

        Outbound(int rank, int peerIncarnation) {
            this.rank = rank;
            this.peerIncarnation = peerIncarnation;
            this.file = Ring.fileName(worldRank, incarnation, rank, peerIncarnation);
            this.ring = new Ring(folder.map(file, Ring.fileBytes(options.ringBytes())));
            this.memory = ring.data();
            this.peerBell = new Bell(folder.map(Bell.fileName(rank, peerIncarnation), Bell.BYTES));
            this.maxRecord = ring.maxRecord();
        }

        /** Writes the frame; false if it was dropped (the peer went, or this transport closed). */
        boolean send(Frame f) {
            writing.lock();
            try {
                if (closing) {
                    return false;
                }
                if (f.piggyback() != null && !piggyback(f.piggyback())) {
                    return false;
                }
                long total = f.lengthBytes();
                int first = (int) Math.min(total, maxRecord - FRAME_HEADER_BYTES);
                int i = claim(
                        f.isSynchronous() ? SYNCHRONOUS_FRAME : f.isReplayed() ? REPLAYED_FRAME : FRAME,
                        FRAME_HEADER_BYTES + first);
                if (i < 0) {
                    return false;
                }
                try {
                    MemorySegment m = memory;
                    m.set(ValueLayout.JAVA_INT, i, f.context());
                    m.set(ValueLayout.JAVA_INT, i + 4, f.source());
                    m.set(ValueLayout.JAVA_INT, i + 8, f.sourceWorld());
                    m.set(ValueLayout.JAVA_INT, i + 12, f.destinationWorld());
                    m.set(ValueLayout.JAVA_INT, i + 16, f.tag());
                    m.set(ValueLayout.JAVA_INT, i + 20, f.incarnation());
                    m.set(ValueLayout.JAVA_INT, i + 24, f.patternId());
                    m.set(ValueLayout.JAVA_INT, i + 28, f.iterationId());
                    m.set(ValueLayout.JAVA_INT, i + 32, f.line());
                    m.set(ValueLayout.JAVA_INT, i + 36, f.digest());
                    m.set(ValueLayout.JAVA_LONG, i + 40, f.sequence());
                    m.set(ValueLayout.JAVA_LONG, i + 48, total);
                    if (first == total) {
                        if (total > 0) {
                            f.copyPayloadTo(memory, i + FRAME_HEADER_BYTES); // through the log's tee, if any
                        }
                    } else {
                        MemorySegment.copy(f.data(), f.dataOffset(), memory, i + FRAME_HEADER_BYTES, first);
                    }
                } catch (RuntimeException e) {
                    ring.abort();
                    throw e;
                }
                ring.commit();
                peerBell.ringIfAsleep();
                return rest(f.data(), f.dataOffset(), first, total);
            } finally {
                writing.unlock();
            }
        }

        /** Writing lock held: the words the next frame carries, in as many records as they need. */
        private boolean piggyback(long[] words) {
            if (words.length > MAX_PIGGYBACK_WORDS) {
                throw new IllegalArgumentException(
                        "a frame carrying " + words.length + " protocol words, more than " + MAX_PIGGYBACK_WORDS);
            }
            int perRecord = (maxRecord - CONTROL_HEADER_BYTES) / Long.BYTES;
            for (int from = 0; from < words.length; from += perRecord) {
                int n = Math.min(perRecord, words.length - from);
                int i = claim(PIGGYBACK, CONTROL_HEADER_BYTES + n * Long.BYTES);
                if (i < 0) {
                    return false;
                }
                memory.set(ValueLayout.JAVA_INT, i, n);
                memory.set(ValueLayout.JAVA_INT, i + 4, 0);
                MemorySegment.copy(words, from, memory, ValueLayout.JAVA_LONG, i + CONTROL_HEADER_BYTES, n);
                ring.commit();
            }
            return true;
        }

        void sendControl(byte[] bytes) {
            writing.lock();
            try {
                if (closing) {
                    return;
                }
                int first = Math.min(bytes.length, maxRecord - CONTROL_HEADER_BYTES);
                int i = claim(CONTROL, CONTROL_HEADER_BYTES + first);
                if (i < 0) {
                    return;
                }
                memory.set(ValueLayout.JAVA_INT, i, bytes.length);
                memory.set(ValueLayout.JAVA_INT, i + 4, 0);
                MemorySegment.copy(bytes, 0, memory, ValueLayout.JAVA_BYTE, i + CONTROL_HEADER_BYTES, first);
                ring.commit();
                peerBell.ringIfAsleep();
                rest(MemorySegment.ofArray(bytes), 0, first, bytes.length);
            } finally {
                writing.unlock();
            }
        }

        /** Writes bytes {@code done..total} of the message as continuation records. Lock held. */
        private boolean rest(MemorySegment source, long offset, long done, long total) {
            while (done < total) {
                int n = (int) Math.min(total - done, maxRecord);
                int i = claim(MORE, n);
                if (i < 0) {
                    return false; // the peer went: the rest goes with it
                }
                MemorySegment.copy(source, offset + done, memory, i, n);
                ring.commit();
                peerBell.ringIfAsleep();
                done += n;
            }
            return true;
        }

        /**
         * Room for a record, waiting for the receiver to make it if need be: reading this rank's own rings
         * meanwhile, spinning briefly, then parking for longer and longer (up to a millisecond). -1 if
         * the ring is dropped meanwhile.
         *
         * @throws RewindException if the receiver took nothing for the stall timeout
         */
        private int claim(int type, int length) {
            int i = ring.claim(type, length);
            if (i >= 0) {
                return i;
            }
            long stall = options.stallTimeout().toNanos();
            long seen = ring.consumed();
            long deadline = System.nanoTime() + stall;
            long pause = 1_000;
            int spins = 0;
            while (!closing && !closed) {
                i = ring.claim(type, length);
                if (i >= 0) {
                    return i;
                }
                peerBell.ringIfAsleep();
                long consumed = ring.consumed();
                if (consumed != seen) {
                    seen = consumed;
                    deadline = System.nanoTime() + stall;
                    pause = 1_000;
                    spins = 0;
                } else if (System.nanoTime() - deadline > 0) {
                    throw new RewindException(
                            ErrorClass.OTHER,
                            "rewind: shm: rank " + rank + " (incarnation " + peerIncarnation
                                    + ") has taken nothing for "
                                    + options.stallTimeout().toMillis() + " ms (its ring is full); the send failed");
                }
                if (readAll()) {
                    continue;
                }
                if (spins++ < 200) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(this, pause);
                    pause = Math.min(2 * pause, TimeUnit.MILLISECONDS.toNanos(1));
                }
            }
            return -1;
        }

        /** Drops the ring: senders give up, the file goes (the peer's mapping stays valid). */
        void close() {
            closing = true;
            folder.remove(file);
        }
    }

    // --- one ring read --------------------------------------------------------------------------------

    /** The ring from one incarnation of a peer, read by this process (one reader at a time). */
    private final class Inbound implements Ring.Reader {
        private final int sender;
        private final int senderIncarnation;
        private final String file;
        final Ring ring;
        private volatile boolean closed;
        private boolean refused;
        /** The message being put together from several records, or null. */
        private byte[] assembling;

        private int filled;
        private Frame pending;

        Inbound(int sender, int senderIncarnation) {
            this.sender = sender;
            this.senderIncarnation = senderIncarnation;
            this.file = Ring.fileName(sender, senderIncarnation, worldRank, incarnation);
            this.ring = new Ring(folder.map(file, Ring.fileBytes(options.ringBytes())));
            this.data = ring.data();
        }

        private final MemorySegment data;

        int read() {
            if (closed || refused) {
                return 0;
            }
            int n = ring.read(this, READ_LIMIT);
            if (n < 0 && !refused) {
                refuse("a record header that runs past the ring");
            }
            return Math.max(n, 0);
        }

        @Override
        public boolean record(int type, int offset, int length) {
            if (refused || closed) {
                return false;
            }
            String refusal;
            try {
                refusal = switch (type) {
                    case FRAME, SYNCHRONOUS_FRAME, REPLAYED_FRAME -> onFrame(
                            data, offset, length, type == SYNCHRONOUS_FRAME, type == REPLAYED_FRAME);
                    case CONTROL -> piggyback != null
                            ? "a control record after words for a frame"
                            : onControl(data, offset, length);
                    case PIGGYBACK -> onPiggyback(data, offset, length);
                    case MORE -> onMore(data, offset, length);
                    default -> "unknown record type " + type;
                };
            } catch (RuntimeException e) {
                refusal = "delivery failed: " + e;
            }
            if (refusal != null) {
                refuse(refusal);
                return false;
            }
            return true;
        }

        private void refuse(String refusal) {
            refused = true;
            assembling = null;
            pending = null;
            piggyback = null;
            note("refused the ring of rank " + sender + " (incarnation " + senderIncarnation + "): " + refusal);
        }

        private String onPiggyback(MemorySegment b, int i, int length) {
            if (assembling != null) {
                return "a new message before the last one ended";
            }
            if (length < CONTROL_HEADER_BYTES) {
                return "a piggyback record of " + length + " bytes";
            }
            int n = b.get(ValueLayout.JAVA_INT, i);
            if (n < 1 || (long) n * Long.BYTES != length - CONTROL_HEADER_BYTES) {
                return n + " piggybacked words in a record of " + length + " bytes";
            }
            int have = piggyback == null ? 0 : piggyback.length;
            if ((long) have + n > MAX_PIGGYBACK_WORDS) {
                return "more than " + MAX_PIGGYBACK_WORDS + " piggybacked words for one frame";
            }
            long[] words = piggyback == null ? new long[n] : Arrays.copyOf(piggyback, have + n);
            MemorySegment.copy(b, ValueLayout.JAVA_LONG, i + CONTROL_HEADER_BYTES, words, have, n);
            piggyback = words;
            return null;
        }

        /** Words the next frame carries, from the piggyback records before it (null: none). */
        private long[] piggyback;

        private String onFrame(MemorySegment b, int i, int length, boolean synchronous, boolean replayed) {
            if (assembling != null) {
                return "a new message before the last one ended";
            }
            long[] words = piggyback;
            piggyback = null;
            if (length < FRAME_HEADER_BYTES) {
                return "a frame record of " + length + " bytes";
            }
            int context = b.get(ValueLayout.JAVA_INT, i);
            int source = b.get(ValueLayout.JAVA_INT, i + 4);
            int sourceWorld = b.get(ValueLayout.JAVA_INT, i + 8);
            int destinationWorld = b.get(ValueLayout.JAVA_INT, i + 12);
            int tag = b.get(ValueLayout.JAVA_INT, i + 16);
            int inc = b.get(ValueLayout.JAVA_INT, i + 20);
            int patternId = b.get(ValueLayout.JAVA_INT, i + 24);
            int iterationId = b.get(ValueLayout.JAVA_INT, i + 28);
            int line = b.get(ValueLayout.JAVA_INT, i + 32);
            int digest = b.get(ValueLayout.JAVA_INT, i + 36);
            long sequence = b.get(ValueLayout.JAVA_LONG, i + 40);
            long total = b.get(ValueLayout.JAVA_LONG, i + 48);
            int first = length - FRAME_HEADER_BYTES;
            if (context < 0 || source < 0 || tag < 0 || sequence < 0 || patternId < 0 || iterationId < 0 || line < 0) {
                return "a negative field in a frame header";
            }
            if (sourceWorld != sender || inc != senderIncarnation) {
                return "a frame of rank " + sourceWorld + "." + inc + " in the ring of " + sender + "."
                        + senderIncarnation;
            }
            if (destinationWorld != worldRank) {
                return "a frame for rank " + destinationWorld + " at rank " + worldRank;
            }
            if (total < first || total > options.maxPayloadBytes()) {
                return "a payload length of " + total + " in a record of " + first + " payload bytes";
            }
            if (total > first && length != ring.maxRecord()) {
                return "a first record that is not full, of a message that goes on";
            }
            // A message in one record is lent to the sink straight from the ring, which the sender
            // cannot reuse before this read returns (FrameSink#onFrame); a longer one is assembled.
            byte[] payload = first == total ? null : new byte[(int) total];
            if (payload != null) {
                MemorySegment.copy(b, ValueLayout.JAVA_BYTE, i + FRAME_HEADER_BYTES, payload, 0, first);
            }
            Frame f = new Frame(
                    context,
                    source,
                    sourceWorld,
                    destinationWorld,
                    tag,
                    sequence,
                    inc,
                    payload == null ? b : MemorySegment.ofArray(payload),
                    payload == null ? i + FRAME_HEADER_BYTES : 0,
                    total,
                    null);
            f.setPattern(patternId, iterationId);
            f.setLine(line);
            f.setDigest(digest);
            f.setPiggyback(words);
            if (synchronous) {
                f.markSynchronous();
            }
            if (replayed) {
                f.markReplayed();
            }
            if (first == total) {
                arrivals.frame(f);
            } else {
                assembling = payload;
                filled = first;
                pending = f;
            }
            return null;
        }

        private String onControl(MemorySegment b, int i, int length) {
            if (assembling != null) {
                return "a new message before the last one ended";
            }
            if (length < CONTROL_HEADER_BYTES) {
                return "a control record of " + length + " bytes";
            }
            int total = b.get(ValueLayout.JAVA_INT, i);
            int first = length - CONTROL_HEADER_BYTES;
            if (total < first || total > options.maxPayloadBytes()) {
                return "a control length of " + total + " in a record of " + first + " bytes";
            }
            if (total > first && length != ring.maxRecord()) {
                return "a first record that is not full, of a message that goes on";
            }
            byte[] bytes = new byte[total];
            MemorySegment.copy(b, ValueLayout.JAVA_BYTE, i + CONTROL_HEADER_BYTES, bytes, 0, first);
            if (first == total) {
                return deliverControl(bytes);
            }
            assembling = bytes;
            filled = first;
            pending = null;
            return null;
        }

        private String onMore(MemorySegment b, int i, int length) {
            byte[] into = assembling;
            if (into == null) {
                return "a continuation record with no message begun";
            }
            if (length > into.length - filled || (length < ring.maxRecord() && length != into.length - filled)) {
                return "a continuation record of " + length + " bytes where " + (into.length - filled) + " remain";
            }
            MemorySegment.copy(b, ValueLayout.JAVA_BYTE, i, into, filled, length);
            filled += length;
            if (filled < into.length) {
                return null;
            }
            Frame f = pending;
            assembling = null;
            pending = null;
            if (f != null) {
                arrivals.frame(f);
                return null;
            }
            return deliverControl(into);
        }

        private String deliverControl(byte[] bytes) {
            ControlMessage m;
            try {
                m = codec.decode(bytes);
            } catch (IllegalArgumentException e) {
                return "a control message that does not decode: " + e.getMessage();
            }
            if (m.sourceWorld() != sender || m.incarnation() != senderIncarnation) {
                return "a control message of rank " + m.sourceWorld() + "." + m.incarnation() + " in the ring of "
                        + sender + "." + senderIncarnation;
            }
            arrivals.control(m);
            return null;
        }

        void close() {
            closed = true;
            folder.remove(file);
        }
    }

    // --- the poller --------------------------------------------------------------------------------------

    /**
     * Reads the rings when the rank's thread does not: while the rank polls, it parks and looks again
     * every {@value #DEFER_MILLIS} ms; otherwise it reads until the rings are empty and sleeps on the
     * rank's bell (at most {@value #SLEEP_MILLIS} ms at a time, a safety net: a sender rings it).
     */
    private final class Poller implements Runnable {
        static final long DEFER_MILLIS = 1;
        static final long SLEEP_MILLIS = 50;

        final Thread thread;
        /** Changed by every caller poll (only changes matter). */
        volatile long callerPolls;

        volatile boolean callerPaused;
        volatile boolean deferring;
        private volatile boolean stopped;

        Poller() {
            this.thread = new Thread(this, "rewind-shm-" + worldRank + "-poller");
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            MemorySegment timespec = Bell.timespec();
            long seen = callerPolls;
            while (!stopped) {
                try {
                    long polls = callerPolls;
                    if (polls != seen && !callerPaused) {
                        // The rank polls the rings: stay off them, look again later.
                        seen = polls;
                        deferring = true;
                        if (!callerPaused) {
                            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(DEFER_MILLIS));
                        }
                        deferring = false;
                        continue;
                    }
                    if (readAll()) {
                        continue;
                    }
                    int sequence = bell.sequence();
                    bell.sleeping(true);
                    if (stopped || anyRecord() || (callerPolls != seen && !callerPaused)) {
                        bell.sleeping(false);
                        continue;
                    }
                    bell.sleep(sequence, TimeUnit.MILLISECONDS.toNanos(SLEEP_MILLIS), timespec);
                    bell.sleeping(false);
                } catch (RuntimeException e) {
                    if (stopped) {
                        return;
                    }
                    note("the poller of rank " + worldRank + " failed and goes on: " + e);
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(DEFER_MILLIS));
                }
            }
        }

        void stop() {
            stopped = true;
            LockSupport.unpark(thread);
            bell.ring();
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // --- where arrivals go -------------------------------------------------------------------------------

    @Override
    public String toString() {
        return "ShmTransport[rank " + worldRank + "." + incarnation + " of " + worldSize + " in " + folder.path() + "]";
    }
}
