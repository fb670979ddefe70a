package io.rewind.engine;

import java.lang.foreign.MemorySegment;

/**
 * Collective operations built on point-to-point messages in the communicator's private collective
 * context. Every call takes a tag that all members agree on (the communicator's collective sequence
 * number), so several collectives in flight never mix their messages.
 *
 * <p>The algorithms are deterministic functions of the communicator size and root: the same call
 * always combines the same operands in the same order, so floating-point results are reproducible
 * bit for bit, which the recovery tests rely on. Buffers are byte offsets into segments; a null send
 * segment means "in place" (MPI_IN_PLACE).
 */
public final class Collectives {
    private Collectives() {}

    // --- helpers ----------------------------------------------------------------------------------

    static void send(Communicator c, int tag, MemorySegment b, long off, long len, int dest) {
        c.sendOn(c.collectiveContext(), b, off, len, dest, tag, SendMode.STANDARD)
                .await();
    }

    private static SendRequest isend(Communicator c, int tag, MemorySegment b, long off, long len, int dest) {
        return c.sendOn(c.collectiveContext(), b, off, len, dest, tag, SendMode.STANDARD);
    }

    static void recv(Communicator c, int tag, MemorySegment b, long off, long len, int src) {
        c.recvOn(c.collectiveContext(), b, off, len, src, tag).await();
    }

    private static RecvRequest irecv(Communicator c, int tag, MemorySegment b, long off, long len, int src) {
        return c.recvOn(c.collectiveContext(), b, off, len, src, tag);
    }

    static MemorySegment scratch(long bytes) {
        return MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
    }

    /** Under a logging protocol collectives run rooted, so their log is one entry per call. */
    private static boolean rooted(Communicator c) {
        return c.engine().faultTolerance().rootedCollectives();
    }

    private static void checkRoot(Communicator c, int root) {
        if (root < 0 || root >= c.size()) {
            throw RewindException.of(ErrorClass.ROOT, "invalid root %d for communicator of size %d", root, c.size());
        }
    }

    private static void checkOp(ReduceFunction op, BaseType type) {
        if (op instanceof PredefinedOp p) {
            p.checkApplicable(type);
        }
    }

    // --- barrier and broadcast ----------------------------------------------------------------------

    /** Dissemination barrier: ceil(log2 n) rounds of empty messages. */
    public static void barrier(Communicator c, int tag) {
        if (rooted(c)) {
            RootedCollectives.barrier(c, tag);
            return;
        }
        int n = c.size();
        int r = c.rank();
        MemorySegment none = MemorySegment.NULL;
        for (int k = 1; k < n; k <<= 1) {
            SendRequest s = isend(c, tag, none, 0, 0, (r + k) % n);
            recv(c, tag, none, 0, 0, (r - k + n) % n);
            s.await();
        }
    }

    /** Binomial-tree broadcast. */
    public static void bcast(Communicator c, int tag, MemorySegment buf, long off, long bytes, int root) {
        if (rooted(c)) {
            checkRoot(c, root);
            RootedCollectives.bcast(c, tag, buf, off, bytes, root);
            return;
        }
        checkRoot(c, root);
        int n = c.size();
        int vr = (c.rank() - root + n) % n;
        int mask = 1;
        while (mask < n) {
            if ((vr & mask) != 0) {
                recv(c, tag, buf, off, bytes, (vr - mask + root) % n);
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while (mask > 0) {
            if (vr + mask < n) {
                send(c, tag, buf, off, bytes, (vr + mask + root) % n);
            }
            mask >>= 1;
        }
    }

    // --- reductions ---------------------------------------------------------------------------------

    /**
     * Reduces {@code count} elements to {@code root}. Commutative operators use a binomial tree;
     * others gather to the root and combine in rank order.
     */
    public static void reduce(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            MemorySegment recv,
            long rOff,
            int count,
            BaseType type,
            ReduceFunction op,
            int root) {
        checkRoot(c, root);
        checkOp(op, type);
        if (rooted(c)) {
            RootedCollectives.reduce(c, send, sOff, recv, rOff, tag, count, type, op, root);
            return;
        }
        int n = c.size();
        long bytes = (long) count * type.sizeBytes();
        boolean isRoot = c.rank() == root;
        MemorySegment acc = scratch(bytes);
        MemorySegment own = send != null ? send : recv;
        long ownOff = send != null ? sOff : rOff;
        if (bytes > 0) {
            MemorySegment.copy(own, ownOff, acc, 0, bytes);
        }
        if (op.isCommutative()) {
            int vr = (c.rank() - root + n) % n;
            MemorySegment tmp = scratch(bytes);
            for (int mask = 1; mask < n; mask <<= 1) {
                if ((vr & mask) == 0) {
                    int src = vr | mask;
                    if (src < n) {
                        recv(c, tag, tmp, 0, bytes, (src + root) % n);
                        op.apply(tmp, 0, acc, 0, count, type);
                    }
                } else {
                    send(c, tag, acc, 0, bytes, ((vr & ~mask) + root) % n);
                    break;
                }
            }
        } else if (isRoot) {
            MemorySegment all = scratch(bytes * n);
            RecvRequest[] reqs = new RecvRequest[n];
            for (int r = 0; r < n; r++) {
                if (r != root) {
                    reqs[r] = irecv(c, tag, all, bytes * r, bytes, r);
                } else if (bytes > 0) {
                    MemorySegment.copy(acc, 0, all, bytes * r, bytes);
                }
            }
            c.engine().waitAll(reqs);
            // acc = x0 op (x1 op (... op x(n-1)))
            if (bytes > 0) {
                MemorySegment.copy(all, bytes * (n - 1), acc, 0, bytes);
            }
            for (int r = n - 2; r >= 0; r--) {
                op.apply(all, bytes * r, acc, 0, count, type);
            }
        } else {
            send(c, tag, acc, 0, bytes, root);
        }
        if (isRoot && bytes > 0) {
            MemorySegment.copy(acc, 0, recv, rOff, bytes);
        }
    }

    /** Reduce to rank 0, then broadcast: every member gets the identical result. */
    public static void allReduce(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            MemorySegment recv,
            long rOff,
            int count,
            BaseType type,
            ReduceFunction op) {
        if (rooted(c)) {
            checkOp(op, type);
            RootedCollectives.allReduce(c, tag, send, sOff, recv, rOff, count, type, op);
            return;
        }
        reduce(c, tag, send, sOff, recv, rOff, count, type, op, 0);
        bcast(c, tag, recv, rOff, (long) count * type.sizeBytes(), 0);
    }

    /** Inclusive prefix reduction along rank order. */
    public static void scan(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            MemorySegment recv,
            long rOff,
            int count,
            BaseType type,
            ReduceFunction op) {
        checkOp(op, type);
        if (rooted(c)) {
            RootedCollectives.scan(c, tag, send, sOff, recv, rOff, count, type, op, false);
            return;
        }
        long bytes = (long) count * type.sizeBytes();
        if (send != null && bytes > 0) {
            MemorySegment.copy(send, sOff, recv, rOff, bytes);
        }
        int r = c.rank();
        if (r > 0) {
            MemorySegment prefix = scratch(bytes);
            recv(c, tag, prefix, 0, bytes, r - 1);
            op.apply(prefix, 0, recv, rOff, count, type);
        }
        if (r < c.size() - 1) {
            send(c, tag, recv, rOff, bytes, r + 1);
        }
    }

    /** Exclusive prefix reduction; rank 0's receive buffer is left unchanged. */
    public static void exScan(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            MemorySegment recv,
            long rOff,
            int count,
            BaseType type,
            ReduceFunction op) {
        checkOp(op, type);
        if (rooted(c)) {
            RootedCollectives.scan(c, tag, send, sOff, recv, rOff, count, type, op, true);
            return;
        }
        long bytes = (long) count * type.sizeBytes();
        MemorySegment own = scratch(bytes);
        if (bytes > 0) {
            MemorySegment.copy(send != null ? send : recv, send != null ? sOff : rOff, own, 0, bytes);
        }
        int r = c.rank();
        if (r > 0) {
            recv(c, tag, recv, rOff, bytes, r - 1);
        }
        if (r < c.size() - 1) {
            if (r > 0) {
                op.apply(recv, rOff, own, 0, count, type);
            }
            send(c, tag, own, 0, bytes, r + 1);
        }
    }

    /** Reduces the whole vector to rank 0, then scatters block {@code i} (of {@code counts[i]} elements) to rank i. */
    public static void reduceScatter(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            MemorySegment recv,
            long rOff,
            int[] counts,
            BaseType type,
            ReduceFunction op) {
        int n = c.size();
        if (counts.length < n) {
            throw RewindException.of(ErrorClass.ARG, "reduceScatter needs %d counts, got %d", n, counts.length);
        }
        int total = 0;
        long[] bytes = new long[n];
        long[] displs = new long[n];
        for (int i = 0; i < n; i++) {
            if (counts[i] < 0) {
                throw RewindException.of(ErrorClass.COUNT, "negative count %d for rank %d", counts[i], i);
            }
            displs[i] = (long) total * type.sizeBytes();
            bytes[i] = (long) counts[i] * type.sizeBytes();
            total += counts[i];
        }
        long totalBytes = (long) total * type.sizeBytes();
        MemorySegment full = scratch(totalBytes);
        MemorySegment source = send != null ? send : recv;
        long sourceOff = send != null ? sOff : rOff;
        reduce(c, tag, source, sourceOff, full, 0, total, type, op, 0);
        scatterv(c, tag, full, 0, bytes, displs, recv, rOff, bytes[c.rank()], 0);
    }

    // --- gather / scatter ---------------------------------------------------------------------------

    /** Linear gather of equal blocks; {@code send == null} at the root means its block is already in place. */
    public static void gather(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            long sendBytes,
            MemorySegment recv,
            long rOff,
            long recvBytesPerRank,
            int root) {
        int n = c.size();
        long[] counts = new long[n];
        long[] displs = new long[n];
        for (int i = 0; i < n; i++) {
            counts[i] = recvBytesPerRank;
            displs[i] = recvBytesPerRank * i;
        }
        gatherv(c, tag, send, sOff, sendBytes, recv, rOff, counts, displs, root);
    }

    public static void gatherv(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            long sendBytes,
            MemorySegment recv,
            long rOff,
            long[] recvBytes,
            long[] displBytes,
            int root) {
        checkRoot(c, root);
        int n = c.size();
        if (c.rank() != root) {
            send(c, tag, send, sOff, sendBytes, root);
            return;
        }
        if (recvBytes.length < n || displBytes.length < n) {
            throw RewindException.of(ErrorClass.ARG, "gatherv needs %d counts and displacements", n);
        }
        RecvRequest[] reqs = new RecvRequest[n];
        for (int r = 0; r < n; r++) {
            if (r == root) {
                if (send != null) {
                    long len = Math.min(sendBytes, recvBytes[r]);
                    if (sendBytes > recvBytes[r]) {
                        throw RewindException.of(
                                ErrorClass.TRUNCATE,
                                "root's own block of %d bytes exceeds %d",
                                sendBytes,
                                recvBytes[r]);
                    }
                    if (len > 0) {
                        MemorySegment.copy(send, sOff, recv, rOff + displBytes[r], len);
                    }
                }
            } else {
                reqs[r] = irecv(c, tag, recv, rOff + displBytes[r], recvBytes[r], r);
            }
        }
        c.engine().waitAll(reqs);
    }

    public static void scatter(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            long sendBytesPerRank,
            MemorySegment recv,
            long rOff,
            long recvBytes,
            int root) {
        int n = c.size();
        long[] counts = new long[n];
        long[] displs = new long[n];
        for (int i = 0; i < n; i++) {
            counts[i] = sendBytesPerRank;
            displs[i] = sendBytesPerRank * i;
        }
        scatterv(c, tag, send, sOff, counts, displs, recv, rOff, recvBytes, root);
    }

    /** Linear scatter; {@code recv == null} at the root means its block stays in place. */
    public static void scatterv(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            long[] sendBytes,
            long[] displBytes,
            MemorySegment recv,
            long rOff,
            long recvBytes,
            int root) {
        checkRoot(c, root);
        int n = c.size();
        if (c.rank() != root) {
            recv(c, tag, recv, rOff, recvBytes, root);
            return;
        }
        if (sendBytes.length < n || displBytes.length < n) {
            throw RewindException.of(ErrorClass.ARG, "scatterv needs %d counts and displacements", n);
        }
        SendRequest[] reqs = new SendRequest[n];
        for (int r = 0; r < n; r++) {
            if (r == root) {
                if (recv != null) {
                    if (sendBytes[r] > recvBytes) {
                        throw RewindException.of(
                                ErrorClass.TRUNCATE,
                                "root's own block of %d bytes exceeds %d",
                                sendBytes[r],
                                recvBytes);
                    }
                    if (sendBytes[r] > 0) {
                        MemorySegment.copy(send, sOff + displBytes[r], recv, rOff, sendBytes[r]);
                    }
                }
            } else {
                reqs[r] = isend(c, tag, send, sOff + displBytes[r], sendBytes[r], r);
            }
        }
        c.engine().waitAll(reqs);
    }

    /** Gather to rank 0 then broadcast the whole vector. {@code send == null}: own block already in place. */
    public static void allGather(
            Communicator c, int tag, MemorySegment send, long sOff, MemorySegment recv, long rOff, long bytesPerRank) {
        int n = c.size();
        long[] counts = new long[n];
        long[] displs = new long[n];
        for (int i = 0; i < n; i++) {
            counts[i] = bytesPerRank;
            displs[i] = bytesPerRank * i;
        }
        allGatherv(c, tag, send, sOff, bytesPerRank, recv, rOff, counts, displs);
    }

    public static void allGatherv(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            long sendBytes,
            MemorySegment recv,
            long rOff,
            long[] recvBytes,
            long[] displBytes) {
        int n = c.size();
        int me = c.rank();
        if (send != null) {
            gatherv(c, tag, send, sOff, sendBytes, recv, rOff, recvBytes, displBytes, 0);
        } else if (me == 0) {
            gatherv(c, tag, null, 0, 0, recv, rOff, recvBytes, displBytes, 0);
        } else {
            // In place: my block sits in the receive buffer at my displacement.
            gatherv(c, tag, recv, rOff + displBytes[me], recvBytes[me], recv, rOff, recvBytes, displBytes, 0);
        }
        // Broadcast each block (blocks may be non-contiguous when displacements leave gaps).
        long lo = Long.MAX_VALUE;
        long hi = 0;
        for (int i = 0; i < n; i++) {
            lo = Math.min(lo, displBytes[i]);
            hi = Math.max(hi, displBytes[i] + recvBytes[i]);
        }
        if (n > 0 && hi > lo) {
            if (contiguous(recvBytes, displBytes)) {
                bcast(c, tag, recv, rOff + lo, hi - lo, 0);
            } else {
                for (int i = 0; i < n; i++) {
                    bcast(c, tag, recv, rOff + displBytes[i], recvBytes[i], 0);
                }
            }
        }
    }

    private static boolean contiguous(long[] counts, long[] displs) {
        long next = displs[0];
        for (int i = 0; i < counts.length; i++) {
            if (displs[i] != next) {
                return false;
            }
            next += counts[i];
        }
        return true;
    }

    /** Every rank sends block j to rank j: all receives posted first, then all sends, then wait. */
    public static void allToAll(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            long sendBytesPerRank,
            MemorySegment recv,
            long rOff,
            long recvBytesPerRank) {
        int n = c.size();
        long[] sc = new long[n];
        long[] sd = new long[n];
        long[] rc = new long[n];
        long[] rd = new long[n];
        for (int i = 0; i < n; i++) {
            sc[i] = sendBytesPerRank;
            sd[i] = sendBytesPerRank * i;
            rc[i] = recvBytesPerRank;
            rd[i] = recvBytesPerRank * i;
        }
        allToAllv(c, tag, send, sOff, sc, sd, recv, rOff, rc, rd);
    }

    public static void allToAllv(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            long[] sendBytes,
            long[] sendDispl,
            MemorySegment recv,
            long rOff,
            long[] recvBytes,
            long[] recvDispl) {
        int n = c.size();
        if (sendBytes.length < n || sendDispl.length < n || recvBytes.length < n || recvDispl.length < n) {
            throw RewindException.of(ErrorClass.ARG, "allToAllv needs %d counts and displacements", n);
        }
        if (send == null) {
            // In place: take a copy of the outgoing blocks first.
            long hi = 0;
            for (int i = 0; i < n; i++) {
                hi = Math.max(hi, recvDispl[i] + recvBytes[i]);
            }
            MemorySegment copy = scratch(hi);
            if (hi > 0) {
                MemorySegment.copy(recv, rOff, copy, 0, hi);
            }
            send = copy;
            sOff = 0;
            sendBytes = recvBytes;
            sendDispl = recvDispl;
        }
        Request[] reqs = new Request[2 * n];
        int me = c.rank();
        for (int k = 0; k < n; k++) {
            int src = (me - k + n) % n;
            reqs[k] = irecv(c, tag, recv, rOff + recvDispl[src], recvBytes[src], src);
        }
        for (int k = 0; k < n; k++) {
            int dst = (me + k) % n;
            reqs[n + k] = isend(c, tag, send, sOff + sendDispl[dst], sendBytes[dst], dst);
        }
        c.engine().waitAll(reqs);
    }

    // --- neighbourhood exchange ---------------------------------------------------------------------

    /**
     * Receives block {@code i} from {@code sources[i]} and sends block {@code j} to {@code
     * destinations[j]}: the pattern of the neighbourhood collectives and of allToAllw, where every
     * message is the sender's own contribution (so it is logged and replayed like a point-to-point
     * message, under every protocol). All receives are posted first, in list order, then all sends, in
     * list order; a peer listed several times is therefore matched in list order on both sides.
     * {@code PROC_NULL} peers are skipped, leaving their receive block untouched.
     */
    public static void exchange(
            Communicator c,
            int tag,
            int[] destinations,
            MemorySegment[] send,
            long[] sendOff,
            long[] sendBytes,
            int[] sources,
            MemorySegment[] recv,
            long[] recvOff,
            long[] recvBytes) {
        int in = sources.length;
        int out = destinations.length;
        if (send.length < out || sendOff.length < out || sendBytes.length < out) {
            throw RewindException.of(ErrorClass.ARG, "exchange needs %d send blocks", out);
        }
        if (recv.length < in || recvOff.length < in || recvBytes.length < in) {
            throw RewindException.of(ErrorClass.ARG, "exchange needs %d receive blocks", in);
        }
        Request[] reqs = new Request[in + out];
        for (int i = 0; i < in; i++) {
            if (sources[i] != Constants.PROC_NULL) {
                reqs[i] = irecv(c, tag, recv[i], recvOff[i], recvBytes[i], sources[i]);
            }
        }
        for (int j = 0; j < out; j++) {
            if (destinations[j] != Constants.PROC_NULL) {
                reqs[in + j] = isend(c, tag, send[j], sendOff[j], sendBytes[j], destinations[j]);
            }
        }
        c.engine().waitAll(reqs);
    }
}
