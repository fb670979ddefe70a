package mpi;

import io.rewind.engine.Collectives;
import io.rewind.engine.Communicator;
import io.rewind.engine.Constants;
import io.rewind.engine.ProbeResult;
import io.rewind.engine.ReduceFunction;
import io.rewind.engine.RewindException;
import io.rewind.engine.SendMode;
import io.rewind.engine.SendRequest;
import io.rewind.engine.TaskRequest;
import io.rewind.runtime.rank.RankContext;
import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A communicator: point-to-point communication, the collectives, and the communicator's own
 * management. Every method checks that MPI is initialised, turns engine failures into
 * {@link MPIException}s and applies the communicator's error handler.
 *
 * <p>Buffers are primitive arrays whose element type matches the datatype, or NIO buffers (heap or
 * direct, for the blocking and the non-blocking calls alike); an NIO buffer's data starts at its
 * index 0, whatever its position.
 */
public class Comm implements Freeable, Cloneable {
    /** Marks an in-place argument inside the collective implementations. */
    static final Object IN_PLACE = new Object();

    /** The split type of {@link Intracomm#splitType}: processes that can share memory (one host). */
    public static final int TYPE_SHARED = 0;

    private static final AtomicInteger NEXT_KEYVAL = new AtomicInteger(100);

    private Communicator comm;
    private Errhandler errhandler;
    private boolean predefined;
    private String name;
    private Request request;
    private Map<Integer, Object> attributes;

    protected Comm() {}

    Comm(Communicator comm) {
        this.comm = comm;
        this.name = comm == null ? "MPI_COMM_NULL" : comm.name();
    }

    final void bindPredefined(Communicator c, String n) {
        this.comm = c;
        this.name = n;
        this.predefined = true;
    }

    /** An iShrink's result, bound when its decision comes ({@link #bindOnDecision}). */
    private volatile io.rewind.engine.PeerFailures.DecisionRequest awaitedDecision;

    private java.util.function.Function<io.rewind.engine.FailureDecision, Communicator> onDecision;

    /** The communicator becomes {@code make}'s once {@code r} is decided (a non-blocking shrink). */
    final void bindOnDecision(
            io.rewind.engine.PeerFailures.DecisionRequest r,
            java.util.function.Function<io.rewind.engine.FailureDecision, Communicator> make) {
        this.onDecision = make;
        this.awaitedDecision = r;
        this.request = new Request(this, r);
        this.name = "shrinking";
    }

    /** Binds a decided non-blocking shrink's communicator, if it is decided. */
    private void bindIfDecided() {
        io.rewind.engine.PeerFailures.DecisionRequest r = awaitedDecision;
        if (r != null && r.isComplete()) {
            synchronized (this) {
                if (awaitedDecision != null) {
                    Communicator c = onDecision.apply(r.decision());
                    this.comm = c;
                    this.name = c.name();
                    awaitedDecision = null;
                }
            }
        }
    }

    final Communicator comm() throws MPIException {
        bindIfDecided();
        Communicator c = comm;
        if (c == null || c.isFreed()) {
            throw Failures.error(MPI.ERR_COMM, "communicator " + name + " is null or was freed");
        }
        return c;
    }

    final Errhandler errhandler() {
        return errhandler;
    }

    final void inheritFrom(Comm parent) {
        this.errhandler = parent.errhandler;
    }

    /** A body of an MPI call, run by {@link #guarded}. */
    @FunctionalInterface
    interface Body<T> {
        T run() throws MPIException;
    }

    final MPIException fail(MPIException e) {
        return Failures.handle(errhandler, e);
    }

    final MPIException fail(RewindException e) {
        return Failures.handle(errhandler, Failures.convertOrRethrow(e));
    }

    /** Runs an MPI call: checks the MPI state, converts failures and applies the error handler. */
    final <T> T guarded(Body<T> body) throws MPIException {
        MPI.check();
        try {
            return body.run();
        } catch (RewindException e) {
            throw fail(e);
        } catch (MPIException e) {
            throw fail(e);
        }
    }

    final void guardedVoid(Body<?> body) throws MPIException {
        guarded(body);
    }

    // --- communicator management -------------------------------------------------------------------

    @Override
    public Comm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    public Comm dup() throws MPIException {
        return guarded(() -> {
            Comm c = new Comm(comm().dup());
            c.inheritFrom(this);
            return c;
        });
    }

    /** Duplicates the communicator; the info hints are accepted and not used. */
    public Comm dupWithInfo(Info info) throws MPIException {
        return dup();
    }

    /** Duplicates the communicator; Rewind completes the duplication at once, {@link #getRequest()} is complete. */
    public Comm iDup() throws MPIException {
        Comm c = dup();
        c.completedRequest();
        return c;
    }

    public final Request getRequest() {
        return request;
    }

    final void completedRequest() {
        this.request = new Request(this, TaskRequest.completed(MPI.engine()));
    }

    public final int getSize() throws MPIException {
        return guarded(() -> comm().size());
    }

    public final int getRank() throws MPIException {
        return guarded(() -> comm().rank());
    }

    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        MPI.check();
        Communicator a = comm1.comm();
        Communicator b = comm2.comm();
        if (a == b) {
            return MPI.IDENT;
        }
        if (a.isInter() || b.isInter()) {
            return Intercomm.compare(a, b);
        }
        int g = Group.compareMembers(a.groupWorldRanks(), b.groupWorldRanks());
        return g == MPI.IDENT ? MPI.CONGRUENT : g;
    }

    @Override
    public final void free() throws MPIException {
        guardedVoid(() -> {
            Communicator c = comm();
            if (predefined) {
                throw Failures.error(MPI.ERR_COMM, "cannot free predefined communicator " + name);
            }
            c.free();
            comm = null;
            return null;
        });
    }

    public final boolean isNull() {
        return comm == null || comm.isFreed();
    }

    /**
     * The topology attached to this communicator ({@code MPI_TOPO_TEST}): {@code MPI.CART} for a
     * {@link CartComm}, {@code MPI.GRAPH} or {@code MPI.DIST_GRAPH} for a {@link GraphComm},
     * {@code MPI.UNDEFINED} otherwise.
     */
    public final int getTopology() throws MPIException {
        return guarded(() -> {
            comm();
            if (this instanceof GraphComm g) {
                return g.topologyKind();
            }
            return this instanceof CartComm ? MPI.CART : MPI.UNDEFINED;
        });
    }

    public final Group getGroup() throws MPIException {
        return guarded(() -> new Group(comm().groupWorldRanks()));
    }

    public final boolean isInter() throws MPIException {
        return guarded(() -> comm().isInter());
    }

    public final void setName(String name) throws MPIException {
        MPI.check();
        this.name = name;
    }

    public final String getName() throws MPIException {
        MPI.check();
        return name;
    }

    public final void setInfo(Info info) throws MPIException {
        MPI.check();
    }

    public final Info getInfo() throws MPIException {
        MPI.check();
        return new Info();
    }

    /** Ends the whole job with {@code errorcode}. */
    public final void abort(int errorcode) throws MPIException {
        MPI.check();
        RankContext ctx = RankContext.of(MPI.class);
        ctx.abort(errorcode, "MPI_Abort(" + name + ", " + errorcode + ") called by rank " + ctx.rank());
        ctx.engine().checkAlive();
    }

    public final void setErrhandler(Errhandler errhandler) throws MPIException {
        MPI.check();
        this.errhandler = errhandler;
    }

    public final Errhandler getErrhandler() throws MPIException {
        MPI.check();
        return errhandler == null ? MPI.ERRORS_RETURN : errhandler;
    }

    /** Raises {@code errorCode} on this communicator, through its error handler. */
    public final void callErrhandler(int errorCode) throws MPIException {
        MPI.check();
        throw fail(Failures.error(errorCode, "error " + errorCode + " raised on " + name));
    }

    // --- attributes --------------------------------------------------------------------------------

    public static int createKeyval() throws MPIException {
        MPI.check();
        return NEXT_KEYVAL.getAndIncrement();
    }

    public static void freeKeyval(int keyval) throws MPIException {
        MPI.check();
    }

    public final void setAttr(int keyval, Object value) throws MPIException {
        MPI.check();
        if (attributes == null) {
            attributes = new HashMap<>();
        }
        attributes.put(keyval, value);
    }

    public final Object getAttr(int keyval) throws MPIException {
        return guarded(() -> {
            Communicator c = comm();
            if (keyval == MPI.TAG_UB) {
                return Constants.TAG_UB;
            } else if (keyval == MPI.HOST) {
                return MPI.PROC_NULL;
            } else if (keyval == MPI.IO) {
                return MPI.ANY_SOURCE;
            } else if (keyval == MPI.WTIME_IS_GLOBAL) {
                return Boolean.TRUE;
            } else if (keyval == MPI.APPNUM) {
                return 0;
            } else if (keyval == MPI.UNIVERSE_SIZE) {
                return c.engine().worldSize();
            } else if (keyval == MPI.LASTUSEDCODE) {
                return MPI.ERR_LASTCODE;
            }
            return attributes == null ? null : attributes.get(keyval);
        });
    }

    public final void deleteAttr(int keyval) throws MPIException {
        MPI.check();
        if (attributes != null) {
            attributes.remove(keyval);
        }
    }

    // --- point to point ------------------------------------------------------------------------------

    private Request startSend(Object buf, int count, Datatype type, int dest, int tag, SendMode mode)
            throws MPIException {
        Region r = Region.of(buf, count, type, Region.Use.READ, "send buffer");
        SendRequest s = comm().isend(r.segment, 0, r.bytes, dest, tag, mode);
        return new Request(this, s);
    }

    private Request startRecv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        return startRecv(Region.of(buf, count, type, Region.Use.WRITE, "receive buffer"), source, tag);
    }

    private Request startRecv(Region into, int source, int tag) throws MPIException {
        return new Request(this, comm().irecv(into.segment, 0, into.bytes, source, tag), into);
    }

    public final void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        guarded(() -> startSend(buf, count, type, dest, tag, SendMode.STANDARD).waitStatus());
    }

    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        guarded(() -> startSend(buf, count, type, dest, tag, SendMode.BUFFERED).waitStatus());
    }

    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        guarded(() ->
                startSend(buf, count, type, dest, tag, SendMode.SYNCHRONOUS).waitStatus());
    }

    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        guarded(() -> startSend(buf, count, type, dest, tag, SendMode.READY).waitStatus());
    }

    public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        return guarded(() -> startRecv(buf, count, type, source, tag).waitBlocking());
    }

    public final Status sendRecv(
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            int dest,
            int sendtag,
            Object recvbuf,
            int recvcount,
            Datatype recvtype,
            int source,
            int recvtag)
            throws MPIException {
        return guarded(() -> {
            Region given = Region.of(sendbuf, sendcount, sendtype, Region.Use.READ, "send buffer");
            Region into = Region.of(recvbuf, recvcount, recvtype, Region.Use.WRITE, "receive buffer");
            Region s = Region.apart(given, into);
            Request recv = startRecv(into, source, recvtag);
            Request send = new Request(this, comm().isend(s.segment, 0, s.bytes, dest, sendtag, SendMode.STANDARD));
            send.waitFor();
            return recv.waitStatus();
        });
    }

    public final Status sendRecvReplace(
            Object buf, int count, Datatype type, int dest, int sendtag, int source, int recvtag) throws MPIException {
        return guarded(() -> {
            Region r = Region.of(buf, count, type, Region.Use.READ_WRITE, "buffer");
            MemorySegment out = MemorySegment.ofArray(new byte[Math.toIntExact(r.bytes)]);
            if (r.bytes > 0) {
                MemorySegment.copy(r.segment, 0, out, 0, r.bytes);
            }
            Communicator c = comm();
            Request recv = new Request(this, c.irecv(r.segment, 0, r.bytes, source, recvtag), r);
            Request send = new Request(this, c.isend(out, 0, r.bytes, dest, sendtag, SendMode.STANDARD));
            send.waitFor();
            return recv.waitStatus();
        });
    }

    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return guarded(() -> startSend(buf, count, type, dest, tag, SendMode.STANDARD));
    }

    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return guarded(() -> startSend(buf, count, type, dest, tag, SendMode.BUFFERED));
    }

    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return guarded(() -> startSend(buf, count, type, dest, tag, SendMode.SYNCHRONOUS));
    }

    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return guarded(() -> startSend(buf, count, type, dest, tag, SendMode.READY));
    }

    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        return guarded(() -> startRecv(buf, count, type, source, tag));
    }

    // --- persistent requests -------------------------------------------------------------------------

    private Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag, SendMode mode)
            throws MPIException {
        return guarded(() -> {
            Region.of(buf, count, type, Region.Use.READ, "send buffer");
            comm();
            return new Prequest(
                    this,
                    p -> guardedVoid(() -> {
                        Region r = Region.of(buf, count, type, Region.Use.READ, "send buffer");
                        p.activate(comm().isend(r.segment, 0, r.bytes, dest, tag, mode));
                        return null;
                    }));
        });
    }

    public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInit(buf, count, type, dest, tag, SendMode.STANDARD);
    }

    public final Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInit(buf, count, type, dest, tag, SendMode.BUFFERED);
    }

    public final Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInit(buf, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public final Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInit(buf, count, type, dest, tag, SendMode.READY);
    }

    public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        return guarded(() -> {
            Region.of(buf, count, type, Region.Use.WRITE, "receive buffer");
            comm();
            return new Prequest(
                    this,
                    p -> guardedVoid(() -> {
                        Region r = Region.of(buf, count, type, Region.Use.WRITE, "receive buffer");
                        p.activate(comm().irecv(r.segment, 0, r.bytes, source, tag), r);
                        return null;
                    }));
        });
    }

    // --- pack / unpack -------------------------------------------------------------------------------

    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        return guarded(() -> {
            Region r = Region.of(inbuf, incount, type, Region.Use.READ, "input buffer");
            if (position < 0 || position + r.bytes > outbuf.length) {
                throw Failures.error(
                        MPI.ERR_TRUNCATE,
                        "pack: " + r.bytes + " bytes do not fit at position " + position + " of " + outbuf.length);
            }
            if (r.bytes > 0) {
                MemorySegment.copy(r.segment, 0, MemorySegment.ofArray(outbuf), position, r.bytes);
            }
            return (int) (position + r.bytes);
        });
    }

    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type)
            throws MPIException {
        return guarded(() -> {
            Region r = Region.of(outbuf, outcount, type, Region.Use.WRITE, "output buffer");
            if (position < 0 || position + r.bytes > inbuf.length) {
                throw Failures.error(
                        MPI.ERR_TRUNCATE,
                        "unpack: " + r.bytes + " bytes are not there at position " + position + " of " + inbuf.length);
            }
            if (r.bytes > 0) {
                MemorySegment.copy(MemorySegment.ofArray(inbuf), position, r.segment, 0, r.bytes);
            }
            r.finish();
            return (int) (position + r.bytes);
        });
    }

    public final int packSize(int incount, Datatype type) throws MPIException {
        return guarded(() -> Math.toIntExact(incount * type.checkUsable().sizeBytes()));
    }

    // --- probe ---------------------------------------------------------------------------------------

    public final Status iProbe(int source, int tag) throws MPIException {
        return guarded(() -> {
            ProbeResult p = comm().iprobe(source, tag);
            return p == null ? null : new Status(p.source(), p.tag(), MPI.SUCCESS, false, p.lengthBytes());
        });
    }

    public final Status probe(int source, int tag) throws MPIException {
        return guarded(() -> {
            ProbeResult p = comm().probe(source, tag);
            return new Status(p.source(), p.tag(), MPI.SUCCESS, false, p.lengthBytes());
        });
    }

    // --- collectives: plumbing -------------------------------------------------------------------------

    /** An algorithm of {@link Collectives}, given its tag. */
    @FunctionalInterface
    interface Algorithm {
        void run(int tag);
    }

    /**
     * Runs a collective. The tag is reserved now, in program order, on every member; a non-blocking
     * collective then runs the same blocking algorithm on a virtual thread.
     */
    final Request collective(boolean async, String what, Algorithm algorithm, Region... outputs) throws MPIException {
        Communicator c = comm();
        int tag = c.reserveCollectiveTag();
        if (!async) {
            c.awaitCollectives();
            algorithm.run(tag);
            Region.finishAll(outputs);
            return null;
        }
        TaskRequest t = c.startCollective("rank-" + c.engine().worldRank() + "-" + what, () -> algorithm.run(tag));
        return new Request(this, t, outputs);
    }

    final void checkRoot(int root) throws MPIException {
        int n = comm().size();
        if (root < 0 || root >= n) {
            throw Failures.error(MPI.ERR_ROOT, "invalid root " + root + " for " + name + " of size " + n);
        }
    }

    static MemorySegment seg(Region r) {
        return r == null ? null : r.segment;
    }

    static long bytes(Region r) {
        return r == null ? 0 : r.bytes;
    }

    /** Items a vector of (count, displacement) blocks spans; checks the arrays. */
    final int span(int[] counts, int[] displs, String what) throws MPIException {
        return span(counts, displs, comm().size(), what);
    }

    /**
     * Items a vector of {@code n} (count, displacement) blocks spans (one block per rank, or per remote
     * rank on an intercommunicator); checks the arrays. Without displacements the blocks follow each
     * other.
     */
    static int span(int[] counts, int[] displs, int n, String what) throws MPIException {
        if (counts == null || counts.length < n || (displs != null && displs.length < n)) {
            throw Failures.error(
                    MPI.ERR_ARG, what + " needs " + n + " counts" + (displs != null ? " and displacements" : ""));
        }
        long hi = 0;
        long next = 0;
        for (int i = 0; i < n; i++) {
            if (counts[i] < 0) {
                throw Failures.error(MPI.ERR_COUNT, what + ": negative count " + counts[i] + " for rank " + i);
            }
            long d = displs != null ? displs[i] : next;
            if (d < 0) {
                throw Failures.error(MPI.ERR_ARG, what + ": negative displacement " + d + " for rank " + i);
            }
            hi = Math.max(hi, d + counts[i]);
            next += counts[i];
        }
        return Math.toIntExact(hi);
    }

    static long[] scaled(int[] values, int n, long unit) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = values[i] * unit;
        }
        return out;
    }

    static long[] prefix(int[] counts, int n, long unit) {
        long[] out = new long[n];
        long at = 0;
        for (int i = 0; i < n; i++) {
            out[i] = at * unit;
            at += counts[i];
        }
        return out;
    }

    static int[] repeat(int value, int n) {
        int[] out = new int[n];
        java.util.Arrays.fill(out, value);
        return out;
    }

    static int[] blocks(int count, int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = i * count;
        }
        return out;
    }

    // --- barrier, broadcast ----------------------------------------------------------------------------

    public void barrier() throws MPIException {
        guarded(() -> collective(false, "barrier", tag -> Collectives.barrier(comm, tag)));
    }

    public Request iBarrier() throws MPIException {
        return guarded(() -> {
            Communicator c = comm();
            return collective(true, "ibarrier", tag -> Collectives.barrier(c, tag));
        });
    }

    private Request bcastImpl(boolean async, Object buf, int count, Datatype type, int root) throws MPIException {
        checkRoot(root);
        Communicator c = comm();
        Region r = Region.of(buf, count, type, Region.Use.READ_WRITE, "buffer");
        return collective(async, "ibcast", tag -> Collectives.bcast(c, tag, r.segment, 0, r.bytes, root), r);
    }

    public void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        guarded(() -> bcastImpl(false, buf, count, type, root));
    }

    public Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return guarded(() -> bcastImpl(true, buf, count, type, root));
    }

    // --- gather ----------------------------------------------------------------------------------------

    /**
     * Gathers to the root. {@code sendbuf == IN_PLACE} at the root means its block is already in the
     * receive buffer; at a non-root the receive arguments are ignored.
     */
    private Request gathervImpl(
            boolean async,
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int[] recvcounts,
            int[] displs,
            Datatype recvtype,
            int root)
            throws MPIException {
        checkRoot(root);
        Communicator c = comm();
        int n = c.size();
        boolean isRoot = c.rank() == root;
        Region s = sendbuf == IN_PLACE ? null : Region.of(sendbuf, sendcount, sendtype, Region.Use.READ, "send buffer");
        if (!isRoot) {
            Region send = s;
            return collective(
                    async,
                    "igatherv",
                    tag -> Collectives.gatherv(
                            c, tag, send.segment, 0, send.bytes, MemorySegment.NULL, 0, null, null, root));
        }
        int items = span(recvcounts, displs, "gatherv");
        Region r = Region.of(recvbuf, items, recvtype, Region.Use.READ_WRITE, "receive buffer");
        Region sent = Region.apart(s, r);
        long unit = recvtype.sizeBytes();
        long[] rb = scaled(recvcounts, n, unit);
        long[] rd = displs != null ? scaled(displs, n, unit) : prefix(recvcounts, n, unit);
        return collective(
                async,
                "igatherv",
                tag -> Collectives.gatherv(c, tag, seg(sent), 0, bytes(sent), r.segment, 0, rb, rd, root),
                r);
    }

    public void gather(
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int recvcount,
            Datatype recvtype,
            int root)
            throws MPIException {
        guarded(() -> {
            int n = comm().size();
            return gathervImpl(
                    false,
                    sendbuf,
                    sendcount,
                    sendtype,
                    recvbuf,
                    repeat(recvcount, n),
                    blocks(recvcount, n),
                    recvtype,
                    root);
        });
    }

    /** In place: the root's block is already in {@code buf}; other ranks send {@code count} items from {@code buf}. */
    public void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        guarded(() -> {
            int n = comm().size();
            boolean isRoot = comm().rank() == root;
            return gathervImpl(
                    false, isRoot ? IN_PLACE : buf, count, type, buf, repeat(count, n), blocks(count, n), type, root);
        });
    }

    public Request iGather(
            Buffer sendbuf,
            int sendcount,
            Datatype sendtype,
            Buffer recvbuf,
            int recvcount,
            Datatype recvtype,
            int root)
            throws MPIException {
        return guarded(() -> {
            int n = comm().size();
            return gathervImpl(
                    true,
                    sendbuf,
                    sendcount,
                    sendtype,
                    recvbuf,
                    repeat(recvcount, n),
                    blocks(recvcount, n),
                    recvtype,
                    root);
        });
    }

    public Request iGather(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return guarded(() -> {
            int n = comm().size();
            boolean isRoot = comm().rank() == root;
            return gathervImpl(
                    true, isRoot ? IN_PLACE : buf, count, type, buf, repeat(count, n), blocks(count, n), type, root);
        });
    }

    public void gatherv(
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int[] recvcount,
            int[] displs,
            Datatype recvtype,
            int root)
            throws MPIException {
        guarded(() -> gathervImpl(false, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root));
    }

    /** In place, at the root: its block is already in {@code recvbuf}. */
    public void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        guarded(() ->
                gathervImpl(false, rootOnly(root, "gatherv"), 0, recvtype, recvbuf, recvcount, displs, recvtype, root));
    }

    /** The non-root side of the in-place gatherv. */
    public void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        guarded(() -> gathervImpl(
                false, nonRootOnly(root, sendbuf, "gatherv"), sendcount, sendtype, null, null, null, sendtype, root));
    }

    public Request iGatherv(
            Buffer sendbuf,
            int sendcount,
            Datatype sendtype,
            Buffer recvbuf,
            int[] recvcount,
            int[] displs,
            Datatype recvtype,
            int root)
            throws MPIException {
        return guarded(
                () -> gathervImpl(true, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root));
    }

    public Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        return guarded(() ->
                gathervImpl(true, rootOnly(root, "iGatherv"), 0, recvtype, recvbuf, recvcount, displs, recvtype, root));
    }

    public Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        return guarded(() -> gathervImpl(
                true, nonRootOnly(root, sendbuf, "iGatherv"), sendcount, sendtype, null, null, null, sendtype, root));
    }

    private Object rootOnly(int root, String what) throws MPIException {
        checkRoot(root);
        if (comm().rank() != root) {
            throw Failures.error(
                    MPI.ERR_ROOT,
                    "the in-place " + what + " without send arguments is for the root (" + root
                            + ") only; this is rank " + comm().rank());
        }
        return IN_PLACE;
    }

    private Object nonRootOnly(int root, Object buf, String what) throws MPIException {
        checkRoot(root);
        if (comm().rank() == root) {
            throw Failures.error(
                    MPI.ERR_ROOT,
                    "the " + what + " without receive arguments is for non-root ranks;" + " rank " + root
                            + " is the root");
        }
        return buf;
    }

    // --- scatter ---------------------------------------------------------------------------------------

    /** Scatters from the root. {@code recvbuf == IN_PLACE} at the root: its block stays where it is. */
    private Request scattervImpl(
            boolean async,
            Object sendbuf,
            int[] sendcounts,
            int[] displs,
            Datatype sendtype,
            Object recvbuf,
            int recvcount,
            Datatype recvtype,
            int root)
            throws MPIException {
        checkRoot(root);
        Communicator c = comm();
        int n = c.size();
        boolean isRoot = c.rank() == root;
        Region r = recvbuf == IN_PLACE
                ? null
                : Region.of(recvbuf, recvcount, recvtype, Region.Use.WRITE, "receive buffer");
        if (!isRoot) {
            return collective(
                    async,
                    "iscatterv",
                    tag -> Collectives.scatterv(c, tag, null, 0, null, null, r.segment, 0, r.bytes, root),
                    r);
        }
        int items = span(sendcounts, displs, "scatterv");
        Region s = Region.apart(Region.of(sendbuf, items, sendtype, Region.Use.READ, "send buffer"), r);
        long unit = sendtype.sizeBytes();
        long[] sb = scaled(sendcounts, n, unit);
        long[] sd = displs != null ? scaled(displs, n, unit) : prefix(sendcounts, n, unit);
        return collective(
                async,
                "iscatterv",
                tag -> Collectives.scatterv(c, tag, s.segment, 0, sb, sd, seg(r), 0, bytes(r), root),
                r);
    }

    public void scatter(
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int recvcount,
            Datatype recvtype,
            int root)
            throws MPIException {
        guarded(() -> {
            int n = comm().size();
            return scattervImpl(
                    false,
                    sendbuf,
                    repeat(sendcount, n),
                    blocks(sendcount, n),
                    sendtype,
                    recvbuf,
                    recvcount,
                    recvtype,
                    root);
        });
    }

    /** In place: the root sends from {@code buf} and keeps its own block there; others receive into {@code buf}. */
    public void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        guarded(() -> {
            int n = comm().size();
            boolean isRoot = comm().rank() == root;
            return scattervImpl(
                    false, buf, repeat(count, n), blocks(count, n), type, isRoot ? IN_PLACE : buf, count, type, root);
        });
    }

    public Request iScatter(
            Buffer sendbuf,
            int sendcount,
            Datatype sendtype,
            Buffer recvbuf,
            int recvcount,
            Datatype recvtype,
            int root)
            throws MPIException {
        return guarded(() -> {
            int n = comm().size();
            return scattervImpl(
                    true,
                    sendbuf,
                    repeat(sendcount, n),
                    blocks(sendcount, n),
                    sendtype,
                    recvbuf,
                    recvcount,
                    recvtype,
                    root);
        });
    }

    public Request iScatter(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return guarded(() -> {
            int n = comm().size();
            boolean isRoot = comm().rank() == root;
            return scattervImpl(
                    true, buf, repeat(count, n), blocks(count, n), type, isRoot ? IN_PLACE : buf, count, type, root);
        });
    }

    public void scatterv(
            Object sendbuf,
            int[] sendcount,
            int[] displs,
            Datatype sendtype,
            Object recvbuf,
            int recvcount,
            Datatype recvtype,
            int root)
            throws MPIException {
        guarded(() -> scattervImpl(false, sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root));
    }

    /** In place, at the root: its own block stays in {@code sendbuf}. */
    public void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        guarded(() -> scattervImpl(
                false, sendbuf, sendcount, displs, sendtype, rootOnly(root, "scatterv"), 0, sendtype, root));
    }

    /** The non-root side of the in-place scatterv. */
    public void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        guarded(() -> scattervImpl(
                false, null, null, null, recvtype, nonRootOnly(root, recvbuf, "scatterv"), recvcount, recvtype, root));
    }

    public Request iScatterv(
            Buffer sendbuf,
            int[] sendcount,
            int[] displs,
            Datatype sendtype,
            Buffer recvbuf,
            int recvcount,
            Datatype recvtype,
            int root)
            throws MPIException {
        return guarded(
                () -> scattervImpl(true, sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root));
    }

    public Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        return guarded(() -> scattervImpl(
                true, sendbuf, sendcount, displs, sendtype, rootOnly(root, "iScatterv"), 0, sendtype, root));
    }

    public Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return guarded(() -> scattervImpl(
                true, null, null, null, recvtype, nonRootOnly(root, recvbuf, "iScatterv"), recvcount, recvtype, root));
    }

    // --- all-gather ----------------------------------------------------------------------------------

    private Request allGathervImpl(
            boolean async,
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int[] recvcounts,
            int[] displs,
            Datatype recvtype)
            throws MPIException {
        Communicator c = comm();
        int n = c.size();
        Region s = sendbuf == IN_PLACE ? null : Region.of(sendbuf, sendcount, sendtype, Region.Use.READ, "send buffer");
        int items = span(recvcounts, displs, "allGatherv");
        Region r = Region.of(recvbuf, items, recvtype, Region.Use.READ_WRITE, "receive buffer");
        Region sent = Region.apart(s, r);
        long unit = recvtype.sizeBytes();
        long[] rb = scaled(recvcounts, n, unit);
        long[] rd = displs != null ? scaled(displs, n, unit) : prefix(recvcounts, n, unit);
        return collective(
                async,
                "iallgatherv",
                tag -> Collectives.allGatherv(c, tag, seg(sent), 0, bytes(sent), r.segment, 0, rb, rd),
                r);
    }

    public void allGather(
            Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        guarded(() -> {
            int n = comm().size();
            return allGathervImpl(
                    false, sendbuf, sendcount, sendtype, recvbuf, repeat(recvcount, n), blocks(recvcount, n), recvtype);
        });
    }

    public void allGather(Object buf, int count, Datatype type) throws MPIException {
        guarded(() -> {
            int n = comm().size();
            return allGathervImpl(false, IN_PLACE, 0, type, buf, repeat(count, n), blocks(count, n), type);
        });
    }

    public Request iAllGather(
            Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        return guarded(() -> {
            int n = comm().size();
            return allGathervImpl(
                    true, sendbuf, sendcount, sendtype, recvbuf, repeat(recvcount, n), blocks(recvcount, n), recvtype);
        });
    }

    public Request iAllGather(Buffer buf, int count, Datatype type) throws MPIException {
        return guarded(() -> {
            int n = comm().size();
            return allGathervImpl(true, IN_PLACE, 0, type, buf, repeat(count, n), blocks(count, n), type);
        });
    }

    public void allGatherv(
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int[] recvcount,
            int[] displs,
            Datatype recvtype)
            throws MPIException {
        guarded(() -> allGathervImpl(false, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype));
    }

    public void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        guarded(() -> allGathervImpl(false, IN_PLACE, 0, recvtype, recvbuf, recvcount, displs, recvtype));
    }

    public Request iAllGatherv(
            Buffer sendbuf,
            int sendcount,
            Datatype sendtype,
            Buffer recvbuf,
            int[] recvcount,
            int[] displs,
            Datatype recvtype)
            throws MPIException {
        return guarded(() -> allGathervImpl(true, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype));
    }

    public Request iAllGatherv(Buffer buf, int[] count, int[] displs, Datatype type) throws MPIException {
        return guarded(() -> allGathervImpl(true, IN_PLACE, 0, type, buf, count, displs, type));
    }

    // --- all-to-all ----------------------------------------------------------------------------------

    private Request allToAllvImpl(
            boolean async,
            Object sendbuf,
            int[] sendcounts,
            int[] sdispls,
            Datatype sendtype,
            Object recvbuf,
            int[] recvcounts,
            int[] rdispls,
            Datatype recvtype)
            throws MPIException {
        Communicator c = comm();
        int n = c.size();
        Region given =
                Region.of(sendbuf, span(sendcounts, sdispls, "allToAllv"), sendtype, Region.Use.READ, "send buffer");
        Region r = Region.of(
                recvbuf, span(recvcounts, rdispls, "allToAllv"), recvtype, Region.Use.READ_WRITE, "receive buffer");
        Region s = Region.apart(given, r);
        long su = sendtype.sizeBytes();
        long ru = recvtype.sizeBytes();
        long[] sb = scaled(sendcounts, n, su);
        long[] sd = sdispls != null ? scaled(sdispls, n, su) : prefix(sendcounts, n, su);
        long[] rb = scaled(recvcounts, n, ru);
        long[] rd = rdispls != null ? scaled(rdispls, n, ru) : prefix(recvcounts, n, ru);
        return collective(
                async,
                "ialltoallv",
                tag -> Collectives.allToAllv(c, tag, s.segment, 0, sb, sd, r.segment, 0, rb, rd),
                r);
    }

    public void allToAll(
            Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        guarded(() -> {
            int n = comm().size();
            return allToAllvImpl(
                    false,
                    sendbuf,
                    repeat(sendcount, n),
                    blocks(sendcount, n),
                    sendtype,
                    recvbuf,
                    repeat(recvcount, n),
                    blocks(recvcount, n),
                    recvtype);
        });
    }

    public Request iAllToAll(
            Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        return guarded(() -> {
            int n = comm().size();
            return allToAllvImpl(
                    true,
                    sendbuf,
                    repeat(sendcount, n),
                    blocks(sendcount, n),
                    sendtype,
                    recvbuf,
                    repeat(recvcount, n),
                    blocks(recvcount, n),
                    recvtype);
        });
    }

    public void allToAllv(
            Object sendbuf,
            int[] sendcount,
            int[] sdispls,
            Datatype sendtype,
            Object recvbuf,
            int[] recvcount,
            int[] rdispls,
            Datatype recvtype)
            throws MPIException {
        guarded(() ->
                allToAllvImpl(false, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype));
    }

    public Request iAllToAllv(
            Buffer sendbuf,
            int[] sendcount,
            int[] sdispls,
            Datatype sendtype,
            Buffer recvbuf,
            int[] recvcount,
            int[] rdispls,
            Datatype recvtype)
            throws MPIException {
        return guarded(() ->
                allToAllvImpl(true, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype));
    }

    // --- reductions ----------------------------------------------------------------------------------

    private Request reduceImpl(boolean async, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        checkRoot(root);
        Communicator c = comm();
        boolean isRoot = c.rank() == root;
        ReduceFunction f = op.forType(type.checkUsable());
        int ecount = type.engineCount(count);
        Region s;
        Region r = null;
        if (sendbuf == IN_PLACE) {
            if (isRoot) {
                s = null;
                r = Region.of(recvbuf, count, type, Region.Use.READ_WRITE, "buffer");
            } else {
                s = Region.of(recvbuf, count, type, Region.Use.READ, "buffer");
            }
        } else {
            s = Region.of(sendbuf, count, type, Region.Use.READ, "send buffer");
            if (isRoot) {
                r = Region.of(recvbuf, count, type, Region.Use.WRITE, "receive buffer");
                s = Region.apart(s, r);
            }
        }
        Region send = s;
        Region recv = r;
        return collective(
                async,
                "ireduce",
                tag -> Collectives.reduce(c, tag, seg(send), 0, seg(recv), 0, ecount, type.engineType, f, root),
                recv);
    }

    public void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) throws MPIException {
        guarded(() -> reduceImpl(false, sendbuf, recvbuf, count, type, op, root));
    }

    public void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        guarded(() -> reduceImpl(false, IN_PLACE, buf, count, type, op, root));
    }

    public Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        return guarded(() -> reduceImpl(true, sendbuf, recvbuf, count, type, op, root));
    }

    public Request iReduce(Buffer buf, int count, Datatype type, Op op, int root) throws MPIException {
        return guarded(() -> reduceImpl(true, IN_PLACE, buf, count, type, op, root));
    }

    private Request allReduceImpl(boolean async, Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        Communicator c = comm();
        ReduceFunction f = op.forType(type.checkUsable());
        int ecount = type.engineCount(count);
        boolean inPlace = sendbuf == IN_PLACE;
        Region given = inPlace ? null : Region.of(sendbuf, count, type, Region.Use.READ, "send buffer");
        Region r =
                Region.of(recvbuf, count, type, inPlace ? Region.Use.READ_WRITE : Region.Use.WRITE, "receive buffer");
        Region s = Region.apart(given, r);
        return collective(
                async,
                "iallreduce",
                tag -> Collectives.allReduce(c, tag, seg(s), 0, r.segment, 0, ecount, type.engineType, f),
                r);
    }

    public void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        guarded(() -> allReduceImpl(false, sendbuf, recvbuf, count, type, op));
    }

    public void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        guarded(() -> allReduceImpl(false, IN_PLACE, buf, count, type, op));
    }

    public Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return guarded(() -> allReduceImpl(true, sendbuf, recvbuf, count, type, op));
    }

    public Request iAllReduce(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return guarded(() -> allReduceImpl(true, IN_PLACE, buf, count, type, op));
    }

    private Request reduceScatterImpl(
            boolean async, Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op) throws MPIException {
        Communicator c = comm();
        int n = c.size();
        ReduceFunction f = op.forType(type.checkUsable());
        int total = span(recvcounts, null, "reduceScatter");
        int[] ecounts = new int[n];
        for (int i = 0; i < n; i++) {
            ecounts[i] = type.engineCount(recvcounts[i]);
        }
        Region s;
        Region r;
        if (sendbuf == IN_PLACE) {
            s = null;
            r = Region.of(recvbuf, total, type, Region.Use.READ_WRITE, "buffer");
        } else {
            r = Region.of(recvbuf, recvcounts[c.rank()], type, Region.Use.WRITE, "receive buffer");
            s = Region.apart(Region.of(sendbuf, total, type, Region.Use.READ, "send buffer"), r);
        }
        return collective(
                async,
                "ireducescatter",
                tag -> Collectives.reduceScatter(c, tag, seg(s), 0, r.segment, 0, ecounts, type.engineType, f),
                r);
    }

    public void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        guarded(() -> reduceScatterImpl(false, sendbuf, recvbuf, recvcounts, type, op));
    }

    public void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        guarded(() -> reduceScatterImpl(false, IN_PLACE, buf, counts, type, op));
    }

    public Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        return guarded(() -> reduceScatterImpl(true, sendbuf, recvbuf, recvcounts, type, op));
    }

    public Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op) throws MPIException {
        return guarded(() -> reduceScatterImpl(true, IN_PLACE, buf, counts, type, op));
    }

    public void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        guarded(() -> reduceScatterImpl(false, sendbuf, recvbuf, repeat(recvcount, comm().size()), type, op));
    }

    public void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        guarded(() -> reduceScatterImpl(false, IN_PLACE, buf, repeat(count, comm().size()), type, op));
    }

    public Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        return guarded(() -> reduceScatterImpl(true, sendbuf, recvbuf, repeat(recvcount, comm().size()), type, op));
    }

    public Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return guarded(() -> reduceScatterImpl(true, IN_PLACE, buf, repeat(count, comm().size()), type, op));
    }

    /** {@code inOutBuf[i] = inBuf[i] op inOutBuf[i]}, locally. */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) throws MPIException {
        MPI.check();
        try {
            ReduceFunction f = op.forType(type.checkUsable());
            Region in = Region.of(inBuf, count, type, Region.Use.READ, "input buffer");
            Region io = Region.of(inOutBuf, count, type, Region.Use.READ_WRITE, "input/output buffer");
            if (count > 0) {
                f.apply(in.segment, 0, io.segment, 0, type.engineCount(count), type.engineType);
            }
            io.finish();
        } catch (RewindException e) {
            throw Failures.convertOrRethrow(e);
        }
    }

    // --- neighbourhood collectives and allToAllw ----------------------------------------------------------

    /** This process's neighbours in the attached topology; ERR_TOPOLOGY if there is none. */
    Neighbours neighbours() throws MPIException {
        comm();
        throw Failures.error(
                MPI.ERR_TOPOLOGY,
                "neighbourhood collectives need a Cartesian or graph topology, " + name + " has none");
    }

    /** Items a list of {@code k} (count, displacement) blocks spans; checks the arrays. */
    private static int blockSpan(int[] counts, int[] displs, int k, String what) throws MPIException {
        if (counts == null || counts.length < k || displs == null || displs.length < k) {
            throw Failures.error(MPI.ERR_ARG, what + " needs " + k + " counts and displacements, one per neighbour");
        }
        long hi = 0;
        for (int i = 0; i < k; i++) {
            if (counts[i] < 0) {
                throw Failures.error(MPI.ERR_COUNT, what + ": negative count " + counts[i] + " for block " + i);
            }
            if (displs[i] < 0) {
                throw Failures.error(MPI.ERR_ARG, what + ": negative displacement " + displs[i] + " for block " + i);
            }
            hi = Math.max(hi, (long) displs[i] + counts[i]);
        }
        return Math.toIntExact(hi);
    }

    /**
     * The neighbourhood all-to-all with a count and a displacement (in items) per block; the other
     * neighbourhood collectives are special cases of it (all-gather: every send block is the whole
     * send buffer). Blocks of {@code MPI.PROC_NULL} neighbours are neither sent nor received.
     */
    private Request neighborImpl(
            boolean async,
            String what,
            Neighbours nb,
            Object sendbuf,
            int[] sendcounts,
            int[] sdispls,
            Datatype sendtype,
            Object recvbuf,
            int[] recvcounts,
            int[] rdispls,
            Datatype recvtype)
            throws MPIException {
        Communicator c = comm();
        int out = nb.destinations().length;
        int in = nb.sources().length;
        Region given =
                Region.of(sendbuf, blockSpan(sendcounts, sdispls, out, what), sendtype, Region.Use.READ, "send buffer");
        Region r = Region.of(
                recvbuf, blockSpan(recvcounts, rdispls, in, what), recvtype, Region.Use.WRITE, "receive buffer");
        Region s = Region.apart(given, r);
        long su = sendtype.sizeBytes();
        long ru = recvtype.sizeBytes();
        int[] dests = new int[out];
        MemorySegment[] sseg = new MemorySegment[out];
        long[] soff = new long[out];
        long[] sbytes = new long[out];
        for (int j = 0; j < out; j++) {
            int block = nb.sendOrder()[j];
            dests[j] = nb.destinations()[block];
            sseg[j] = s.segment;
            soff[j] = sdispls[block] * su;
            sbytes[j] = sendcounts[block] * su;
        }
        MemorySegment[] rseg = new MemorySegment[in];
        long[] roff = new long[in];
        long[] rbytes = new long[in];
        for (int i = 0; i < in; i++) {
            rseg[i] = r.segment;
            roff[i] = rdispls[i] * ru;
            rbytes[i] = recvcounts[i] * ru;
        }
        int[] sources = nb.sources();
        return collective(
                async,
                what,
                tag -> Collectives.exchange(c, tag, dests, sseg, soff, sbytes, sources, rseg, roff, rbytes),
                r);
    }

    private Request neighborAllGatherImpl(
            boolean async,
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int[] recvcounts,
            int[] displs,
            Datatype recvtype)
            throws MPIException {
        Neighbours nb = neighbours();
        int out = nb.destinations().length;
        return neighborImpl(
                async,
                "neighborAllGather",
                nb,
                sendbuf,
                repeat(sendcount, out),
                new int[out],
                sendtype,
                recvbuf,
                recvcounts,
                displs,
                recvtype);
    }

    /** Sends the same block to every neighbour and receives one block from each, in neighbour order. */
    public final void neighborAllGather(
            Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        guarded(() -> {
            int in = neighbours().sources().length;
            return neighborAllGatherImpl(
                    false,
                    sendbuf,
                    sendcount,
                    sendtype,
                    recvbuf,
                    repeat(recvcount, in),
                    blocks(recvcount, in),
                    recvtype);
        });
    }

    public final Request iNeighborAllGather(
            Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        return guarded(() -> {
            int in = neighbours().sources().length;
            return neighborAllGatherImpl(
                    true,
                    sendbuf,
                    sendcount,
                    sendtype,
                    recvbuf,
                    repeat(recvcount, in),
                    blocks(recvcount, in),
                    recvtype);
        });
    }

    public final void neighborAllGatherv(
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int[] recvcount,
            int[] displs,
            Datatype recvtype)
            throws MPIException {
        guarded(() -> neighborAllGatherImpl(false, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype));
    }

    public final Request iNeighborAllGatherv(
            Buffer sendbuf,
            int sendcount,
            Datatype sendtype,
            Buffer recvbuf,
            int[] recvcount,
            int[] displs,
            Datatype recvtype)
            throws MPIException {
        return guarded(
                () -> neighborAllGatherImpl(true, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype));
    }

    /** Sends block {@code j} to neighbour {@code j} and receives block {@code i} from neighbour {@code i}. */
    public final void neighborAllToAll(
            Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        guarded(() -> neighborAllToAllImpl(false, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    public final Request iNeighborAllToAll(
            Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        return guarded(() -> neighborAllToAllImpl(true, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    private Request neighborAllToAllImpl(
            boolean async,
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int recvcount,
            Datatype recvtype)
            throws MPIException {
        Neighbours nb = neighbours();
        int out = nb.destinations().length;
        int in = nb.sources().length;
        return neighborImpl(
                async,
                "neighborAllToAll",
                nb,
                sendbuf,
                repeat(sendcount, out),
                blocks(sendcount, out),
                sendtype,
                recvbuf,
                repeat(recvcount, in),
                blocks(recvcount, in),
                recvtype);
    }

    public final void neighborAllToAllv(
            Object sendbuf,
            int[] sendcount,
            int[] sdispls,
            Datatype sendtype,
            Object recvbuf,
            int[] recvcount,
            int[] rdispls,
            Datatype recvtype)
            throws MPIException {
        guarded(() -> neighborImpl(
                false,
                "neighborAllToAllv",
                neighbours(),
                sendbuf,
                sendcount,
                sdispls,
                sendtype,
                recvbuf,
                recvcount,
                rdispls,
                recvtype));
    }

    public final Request iNeighborAllToAllv(
            Buffer sendbuf,
            int[] sendcount,
            int[] sdispls,
            Datatype sendtype,
            Buffer recvbuf,
            int[] recvcount,
            int[] rdispls,
            Datatype recvtype)
            throws MPIException {
        return guarded(() -> neighborImpl(
                true,
                "neighborAllToAllv",
                neighbours(),
                sendbuf,
                sendcount,
                sdispls,
                sendtype,
                recvbuf,
                recvcount,
                rdispls,
                recvtype));
    }

    /**
     * All-to-all with a count, a displacement in bytes and a datatype per peer. Each block is a region
     * of its own (packed and unpacked with its own datatype), and each message the sender's own
     * contribution, sent point to point on the collective's tag.
     */
    private Request allToAllwImpl(
            boolean async,
            Buffer sendbuf,
            int[] sendcounts,
            int[] sdispls,
            Datatype[] sendtypes,
            Buffer recvbuf,
            int[] recvcounts,
            int[] rdispls,
            Datatype[] recvtypes)
            throws MPIException {
        Communicator c = comm();
        // One block per peer: on an intercommunicator, per rank of the remote group.
        int n = c.remoteSize();
        if (sendcounts == null
                || sdispls == null
                || sendtypes == null
                || recvcounts == null
                || rdispls == null
                || recvtypes == null) {
            throw Failures.error(MPI.ERR_ARG, "allToAllw: counts, displacements and datatypes must not be null");
        }
        if (sendcounts.length < n
                || sdispls.length < n
                || sendtypes.length < n
                || recvcounts.length < n
                || rdispls.length < n
                || recvtypes.length < n) {
            throw Failures.error(
                    MPI.ERR_ARG, "allToAllw needs " + n + " counts, displacements and datatypes on each side");
        }
        Region[] send = new Region[n];
        Region[] recv = new Region[n];
        for (int i = 0; i < n; i++) {
            Buffer s = sendcounts[i] == 0 ? null : BufferAt.at(sendbuf, sdispls[i], "send buffer");
            send[i] = Region.of(s, sendcounts[i], sendtypes[i], Region.Use.READ, "send buffer");
            Buffer r = recvcounts[i] == 0 ? null : BufferAt.at(recvbuf, rdispls[i], "receive buffer");
            recv[i] = Region.of(r, recvcounts[i], recvtypes[i], Region.Use.WRITE, "receive buffer");
        }
        for (int i = 0; i < n; i++) {
            send[i] = Region.apart(send[i], recv);
        }
        int[] peers = new int[n];
        MemorySegment[] sseg = new MemorySegment[n];
        long[] sbytes = new long[n];
        MemorySegment[] rseg = new MemorySegment[n];
        long[] rbytes = new long[n];
        for (int i = 0; i < n; i++) {
            peers[i] = i;
            sseg[i] = send[i].segment;
            sbytes[i] = send[i].bytes;
            rseg[i] = recv[i].segment;
            rbytes[i] = recv[i].bytes;
        }
        long[] zero = new long[n];
        return collective(
                async,
                "ialltoallw",
                tag -> Collectives.exchange(c, tag, peers, sseg, zero, sbytes, peers, rseg, zero, rbytes),
                recv);
    }

    /** {@code MPI_ALLTOALLW}: displacements are in bytes from index 0 of the buffers, one datatype per peer. */
    public final void allToAllw(
            Buffer sendbuf,
            int[] sendcount,
            int[] sdispls,
            Datatype[] sendtypes,
            Buffer recvbuf,
            int[] recvcount,
            int[] rdispls,
            Datatype[] recvtypes)
            throws MPIException {
        guarded(() ->
                allToAllwImpl(false, sendbuf, sendcount, sdispls, sendtypes, recvbuf, recvcount, rdispls, recvtypes));
    }

    public final Request iAllToAllw(
            Buffer sendbuf,
            int[] sendcount,
            int[] sdispls,
            Datatype[] sendtypes,
            Buffer recvbuf,
            int[] recvcount,
            int[] rdispls,
            Datatype[] recvtypes)
            throws MPIException {
        return guarded(() ->
                allToAllwImpl(true, sendbuf, sendcount, sdispls, sendtypes, recvbuf, recvcount, rdispls, recvtypes));
    }

    // --- intercommunicators -----------------------------------------------------------------------------

    /**
     * Creates an intercommunicator ({@code MPI_Intercomm_create}), called on the peer communicator:
     * joins {@code localComm}'s group to the group whose leader is rank {@code remoteLeader} of this
     * communicator. This communicator, {@code remoteLeader} and {@code tag} matter at the local leader
     * only. See {@link Intercomm}.
     */
    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag)
            throws MPIException {
        return localComm.guarded(() -> Intercomm.create(localComm, comm, localLeader, remoteLeader, tag));
    }

    @Override
    public String toString() {
        return name;
    }
}
