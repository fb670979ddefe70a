package io.rewind.engine;

import java.lang.foreign.MemorySegment;

/**
 * Collectives on an intercommunicator (MPI 3.1 section 5.2.2): data goes from one group to the
 * other. Messages between the groups travel on the intercommunicator's collective context; the
 * steps inside one group run the intracommunicator algorithms of {@link Collectives} on the
 * intercommunicator's private local communicator, with the same tag (that communicator serves only
 * this intercommunicator's collectives, which run one after another, so the tag is unique there
 * too). Every step is deterministic, with explicit sources, so replay reproduces it; the local steps
 * run rooted under a logging protocol like any other collective.
 *
 * <p>{@code root} is as the program passes it: {@link Constants#ROOT} at the root,
 * {@link Constants#PROC_NULL} at the other members of the root's group, and the root's rank in the
 * remote group at the members of the other group.
 */
public final class InterCollectives {
    private InterCollectives() {}

    private static SendRequest isend(Communicator c, int tag, MemorySegment b, long off, long len, int dest) {
        return c.sendOn(c.collectiveContext(), b, off, len, dest, tag, SendMode.STANDARD);
    }

    private static RecvRequest irecv(Communicator c, int tag, MemorySegment b, long off, long len, int src) {
        return c.recvOn(c.collectiveContext(), b, off, len, src, tag);
    }

    private static Communicator local(Communicator c) {
        if (!c.isInter()) {
            throw RewindException.of(ErrorClass.INTERN, "%s is not an intercommunicator", c.name());
        }
        return c.localPart();
    }

    private static boolean isLeader(Communicator local) {
        return local.rank() == 0;
    }

    /** Leaders only: sends {@code out} to the remote leader and receives its counterpart into {@code in}. */
    private static void exchange(
            Communicator c,
            int tag,
            MemorySegment out,
            long outOff,
            long outLen,
            MemorySegment in,
            long inOff,
            long inLen) {
        SendRequest s = isend(c, tag, out, outOff, outLen, 0);
        irecv(c, tag, in, inOff, inLen, 0).await();
        s.await();
    }

    /** Every member leaves once every member of both groups has entered. */
    public static void barrier(Communicator c, int tag) {
        Communicator local = local(c);
        MemorySegment none = MemorySegment.NULL;
        Collectives.barrier(local, tag);
        if (isLeader(local)) {
            exchange(c, tag, none, 0, 0, none, 0, 0);
        }
        Collectives.bcast(local, tag, none, 0, 0, 0);
    }

    public static void bcast(Communicator c, int tag, MemorySegment buf, long off, long bytes, int root) {
        Communicator local = local(c);
        if (root == Constants.ROOT) {
            isend(c, tag, buf, off, bytes, 0).await();
        } else if (root != Constants.PROC_NULL) {
            if (isLeader(local)) {
                irecv(c, tag, buf, off, bytes, root).await();
            }
            Collectives.bcast(local, tag, buf, off, bytes, 0);
        }
    }

    /** The root receives block r (at {@code displBytes[r]}) from remote rank r; the other group sends. */
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
        if (root == Constants.ROOT) {
            Request[] reqs = new Request[c.remoteSize()];
            for (int r = 0; r < reqs.length; r++) {
                reqs[r] = irecv(c, tag, recv, rOff + displBytes[r], recvBytes[r], r);
            }
            c.engine().waitAll(reqs);
        } else if (root != Constants.PROC_NULL) {
            isend(c, tag, send, sOff, sendBytes, root).await();
        }
    }

    /** The root sends block r (at {@code displBytes[r]}) to remote rank r; the other group receives. */
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
        if (root == Constants.ROOT) {
            Request[] reqs = new Request[c.remoteSize()];
            for (int r = 0; r < reqs.length; r++) {
                reqs[r] = isend(c, tag, send, sOff + displBytes[r], sendBytes[r], r);
            }
            c.engine().waitAll(reqs);
        } else if (root != Constants.PROC_NULL) {
            irecv(c, tag, recv, rOff, recvBytes, root).await();
        }
    }

    /** Every member receives block r from remote rank r and sends its own block to every remote rank. */
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
        int n = c.remoteSize();
        Request[] reqs = new Request[2 * n];
        for (int r = 0; r < n; r++) {
            reqs[r] = irecv(c, tag, recv, rOff + displBytes[r], recvBytes[r], r);
        }
        SharedPayload same = new SharedPayload();
        for (int r = 0; r < n; r++) {
            reqs[n + r] = c.sendOn(c.collectiveContext(), send, sOff, sendBytes, r, tag, SendMode.STANDARD, same);
        }
        c.engine().waitAll(reqs);
    }

    /** Block r of the send buffer goes to remote rank r; block r of the receive buffer comes from it. */
    public static void allToAllv(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            long[] sendBytes,
            long[] sendDispls,
            MemorySegment recv,
            long rOff,
            long[] recvBytes,
            long[] recvDispls) {
        int n = c.remoteSize();
        Request[] reqs = new Request[2 * n];
        for (int r = 0; r < n; r++) {
            reqs[r] = irecv(c, tag, recv, rOff + recvDispls[r], recvBytes[r], r);
        }
        for (int r = 0; r < n; r++) {
            reqs[n + r] = isend(c, tag, send, sOff + sendDispls[r], sendBytes[r], r);
        }
        c.engine().waitAll(reqs);
    }

    /**
     * The root gets the reduction of the other group's contributions: that group reduces to its
     * leader, which sends the result to the root.
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
        Communicator local = local(c);
        long bytes = (long) count * type.sizeBytes();
        if (root == Constants.ROOT) {
            irecv(c, tag, recv, rOff, bytes, 0).await();
        } else if (root != Constants.PROC_NULL) {
            MemorySegment reduced = isLeader(local) ? Collectives.scratch(bytes) : null;
            Collectives.reduce(local, tag, send, sOff, reduced, 0, count, type, op, 0);
            if (isLeader(local)) {
                isend(c, tag, reduced, 0, bytes, root).await();
            }
        }
    }

    /** Each group gets the reduction of the other group's contributions. */
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
        Communicator local = local(c);
        long bytes = (long) count * type.sizeBytes();
        MemorySegment reduced = isLeader(local) ? Collectives.scratch(bytes) : null;
        Collectives.reduce(local, tag, send, sOff, reduced, 0, count, type, op, 0);
        if (isLeader(local)) {
            exchange(c, tag, reduced, 0, bytes, recv, rOff, bytes);
        }
        Collectives.bcast(local, tag, recv, rOff, bytes, 0);
    }

    /**
     * The reduction of the other group's vectors is scattered over this group, {@code counts[i]}
     * elements (of this group's counts) to member i. Both groups' vectors have the same length, the
     * sum of either group's counts.
     */
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
        Communicator local = local(c);
        int n = local.size();
        long total = 0;
        long[] bytes = new long[n];
        long[] displs = new long[n];
        for (int i = 0; i < n; i++) {
            displs[i] = total * type.sizeBytes();
            bytes[i] = (long) counts[i] * type.sizeBytes();
            total += counts[i];
        }
        long totalBytes = total * type.sizeBytes();
        MemorySegment mine = isLeader(local) ? Collectives.scratch(totalBytes) : null;
        MemorySegment theirs = isLeader(local) ? Collectives.scratch(totalBytes) : null;
        Collectives.reduce(local, tag, send, sOff, mine, 0, Math.toIntExact(total), type, op, 0);
        if (isLeader(local)) {
            exchange(c, tag, mine, 0, totalBytes, theirs, 0, totalBytes);
        }
        Collectives.scatterv(local, tag, theirs, 0, bytes, displs, recv, rOff, bytes[local.rank()], 0);
    }
}
