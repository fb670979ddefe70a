package io.rewind.engine;

import java.lang.foreign.MemorySegment;

/**
 * Collectives as used under a logging protocol: members send their contribution to a root, the root
 * computes, and sends each member its result. Every message is then a rank's own contribution or
 * the call's result, which is exactly the application-level log entry of the call (the result is
 * logged once however many members receive it), and a restarted rank gets its results again from
 * the root's log. Intermediate partial results of tree algorithms never exist, so are never logged.
 *
 * <p>Reductions combine at the root in the order the tree algorithms of {@link Collectives} use, so
 * results are bit-identical whichever protocol runs.
 */
final class RootedCollectives {
    private RootedCollectives() {}

    private static SendRequest sendResult(
            Communicator c, int tag, MemorySegment b, long off, long len, int dest, SharedPayload result) {
        return c.sendOn(c.collectiveContext(), b, off, len, dest, tag, SendMode.STANDARD, result);
    }

    /** At the root: receive every other member's contribution of {@code bytes} into slot r of {@code all}. */
    private static void collect(Communicator c, int tag, MemorySegment all, long bytes, int root) {
        int n = c.size();
        Request[] reqs = new Request[n];
        for (int r = 0; r < n; r++) {
            if (r != root) {
                reqs[r] = c.recvOn(c.collectiveContext(), all, bytes * r, bytes, r, tag);
            }
        }
        c.engine().waitAll(reqs);
    }

    /** At the root: send the same result to every other member. */
    private static void distribute(Communicator c, int tag, MemorySegment b, long off, long len, int root) {
        int n = c.size();
        Request[] reqs = new Request[n];
        SharedPayload result = new SharedPayload();
        for (int r = 0; r < n; r++) {
            if (r != root) {
                reqs[r] = sendResult(c, tag, b, off, len, r, result);
            }
        }
        c.engine().waitAll(reqs);
    }

    static void barrier(Communicator c, int tag) {
        MemorySegment none = MemorySegment.NULL;
        if (c.rank() == 0) {
            collect(c, tag, none, 0, 0);
            distribute(c, tag, none, 0, 0, 0);
        } else {
            Collectives.send(c, tag, none, 0, 0, 0);
            Collectives.recv(c, tag, none, 0, 0, 0);
        }
    }

    static void bcast(Communicator c, int tag, MemorySegment buf, long off, long bytes, int root) {
        if (c.rank() == root) {
            distribute(c, tag, buf, off, bytes, root);
        } else {
            Collectives.recv(c, tag, buf, off, bytes, root);
        }
    }

    /**
     * Combines the contributions (slot r holds rank r's) exactly as the binomial tree rooted at
     * {@code root} would: at each level, the node at virtual rank v folds in the partial result of
     * v + mask, partner's value as the left operand.
     */
    private static MemorySegment binomialFold(
            MemorySegment all, long bytes, int n, int root, int count, BaseType type, ReduceFunction op) {
        MemorySegment[] acc = new MemorySegment[n];
        for (int v = 0; v < n; v++) {
            acc[v] = all.asSlice(bytes * ((v + root) % n), bytes);
        }
        for (int mask = 1; mask < n; mask <<= 1) {
            for (int v = 0; v + mask < n; v += 2 * mask) {
                op.apply(acc[v + mask], 0, acc[v], 0, count, type);
            }
        }
        return acc[0];
    }

    /** Rank-order fold for non-commutative operators: x0 op (x1 op (... op x(n-1))). */
    private static MemorySegment rankOrderFold(
            MemorySegment all, long bytes, int n, int count, BaseType type, ReduceFunction op) {
        MemorySegment acc = all.asSlice(bytes * (n - 1), bytes);
        for (int r = n - 2; r >= 0; r--) {
            op.apply(all, bytes * r, acc, 0, count, type);
        }
        return acc;
    }

    static void reduce(
            Communicator c,
            MemorySegment send,
            long sOff,
            MemorySegment recv,
            long rOff,
            int tag,
            int count,
            BaseType type,
            ReduceFunction op,
            int root) {
        int n = c.size();
        long bytes = (long) count * type.sizeBytes();
        MemorySegment own = send != null ? send : recv;
        long ownOff = send != null ? sOff : rOff;
        if (c.rank() != root) {
            Collectives.send(c, tag, own, ownOff, bytes, root);
            return;
        }
        MemorySegment all = Collectives.scratch(bytes * n);
        if (bytes > 0) {
            MemorySegment.copy(own, ownOff, all, bytes * root, bytes);
        }
        collect(c, tag, all, bytes, root);
        MemorySegment result = op.isCommutative()
                ? binomialFold(all, bytes, n, root, count, type, op)
                : rankOrderFold(all, bytes, n, count, type, op);
        if (bytes > 0) {
            MemorySegment.copy(result, 0, recv, rOff, bytes);
        }
    }

    static void allReduce(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            MemorySegment recv,
            long rOff,
            int count,
            BaseType type,
            ReduceFunction op) {
        reduce(c, send, sOff, recv, rOff, tag, count, type, op, 0);
        bcast(c, tag, recv, rOff, (long) count * type.sizeBytes(), 0);
    }

    /** Prefix reductions computed at rank 0 in chain order; {@code exclusive} leaves rank 0's buffer alone. */
    static void scan(
            Communicator c,
            int tag,
            MemorySegment send,
            long sOff,
            MemorySegment recv,
            long rOff,
            int count,
            BaseType type,
            ReduceFunction op,
            boolean exclusive) {
        int n = c.size();
        long bytes = (long) count * type.sizeBytes();
        MemorySegment own = send != null ? send : recv;
        long ownOff = send != null ? sOff : rOff;
        if (c.rank() != 0) {
            Collectives.send(c, tag, own, ownOff, bytes, 0);
            Collectives.recv(c, tag, recv, rOff, bytes, 0);
            return;
        }
        MemorySegment all = Collectives.scratch(bytes * n);
        if (bytes > 0) {
            MemorySegment.copy(own, ownOff, all, 0, bytes);
        }
        collect(c, tag, all, bytes, 0);
        // prefix[r] = prefix[r-1] op x[r], with the running prefix as the left operand.
        MemorySegment prefix = Collectives.scratch(bytes * n);
        if (bytes > 0) {
            MemorySegment.copy(all, 0, prefix, 0, bytes);
        }
        for (int r = 1; r < n; r++) {
            if (bytes > 0) {
                MemorySegment.copy(all, bytes * r, prefix, bytes * r, bytes);
            }
            op.apply(prefix, bytes * (r - 1), prefix, bytes * r, count, type);
        }
        Request[] reqs = new Request[n];
        for (int r = 1; r < n; r++) {
            long from = exclusive ? bytes * (r - 1) : bytes * r;
            reqs[r] = c.sendOn(c.collectiveContext(), prefix, from, bytes, r, tag, SendMode.STANDARD, null);
        }
        if (!exclusive && bytes > 0) {
            MemorySegment.copy(prefix, 0, recv, rOff, bytes);
        }
        c.engine().waitAll(reqs);
    }
}
