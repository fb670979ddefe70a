package mpi;

import io.rewind.engine.Communicator;
import io.rewind.engine.InterCollectives;
import io.rewind.engine.ReduceFunction;

/**
 * The collectives of an {@link Intercomm}, with the intercommunicator rules of MPI 3.1 section
 * 5.2.2: in a rooted collective the root passes {@code MPI.ROOT}, the rest of its group
 * {@code MPI.PROC_NULL} (they take no part), and the other group the root's rank in the root's
 * group; counts and displacements that describe one block per peer describe the remote group.
 * Arguments are checked here, before any message, so a bad call is an error on the rank that made
 * it, not a hang. The algorithms are {@link InterCollectives}.
 */
final class InterCollectiveCalls {
    private InterCollectiveCalls() {}

    /** What a rooted collective's {@code root} argument makes of this member. */
    private enum Role {
        ROOT,
        IDLE,
        MEMBER
    }

    private static Role role(Intercomm ic, int root) throws MPIException {
        int remote = ic.comm().remoteSize();
        if (root == MPI.ROOT) {
            return Role.ROOT;
        } else if (root == MPI.PROC_NULL) {
            return Role.IDLE;
        } else if (root >= 0 && root < remote) {
            return Role.MEMBER;
        }
        throw Failures.error(
                MPI.ERR_ROOT,
                "invalid root " + root + " on the intercommunicator " + ic + ": MPI.ROOT at the root, MPI.PROC_NULL"
                        + " at the rest of its group, the root's rank (0 to " + (remote - 1) + ") in the other group");
    }

    /** In place has no meaning between two groups (the data a member sends is never what it receives). */
    static MPIException inPlace(String what) {
        return Failures.error(MPI.ERR_ARG, what + ": MPI_IN_PLACE is not allowed on an intercommunicator");
    }

    static Request barrier(Intercomm ic, boolean async) throws MPIException {
        Communicator c = ic.comm();
        return ic.collective(async, "ibarrier", tag -> InterCollectives.barrier(c, tag));
    }

    static Request bcast(Intercomm ic, boolean async, Object buf, int count, Datatype type, int root)
            throws MPIException {
        Communicator c = ic.comm();
        Role role = role(ic, root);
        Region r = role == Role.IDLE
                ? null
                : Region.of(buf, count, type, role == Role.ROOT ? Region.Use.READ : Region.Use.READ_WRITE, "buffer");
        return ic.collective(
                async,
                "ibcast",
                tag -> InterCollectives.bcast(c, tag, Comm.seg(r), 0, Comm.bytes(r), root),
                role == Role.MEMBER ? r : null);
    }

    static Request gatherv(
            Intercomm ic,
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
        Communicator c = ic.comm();
        Role role = role(ic, root);
        if (role == Role.ROOT) {
            int n = c.remoteSize();
            int items = Comm.span(recvcounts, displs, n, "gatherv");
            Region r = Region.of(recvbuf, items, recvtype, Region.Use.READ_WRITE, "receive buffer");
            long unit = recvtype.sizeBytes();
            long[] rb = Comm.scaled(recvcounts, n, unit);
            long[] rd = displs != null ? Comm.scaled(displs, n, unit) : Comm.prefix(recvcounts, n, unit);
            return ic.collective(
                    async,
                    "igatherv",
                    tag -> InterCollectives.gatherv(c, tag, null, 0, 0, r.segment, 0, rb, rd, root),
                    r);
        }
        Region s = role == Role.IDLE ? null : Region.of(sendbuf, sendcount, sendtype, Region.Use.READ, "send buffer");
        return ic.collective(
                async,
                "igatherv",
                tag -> InterCollectives.gatherv(c, tag, Comm.seg(s), 0, Comm.bytes(s), null, 0, null, null, root));
    }

    static Request scatterv(
            Intercomm ic,
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
        Communicator c = ic.comm();
        Role role = role(ic, root);
        if (role == Role.ROOT) {
            int n = c.remoteSize();
            int items = Comm.span(sendcounts, displs, n, "scatterv");
            Region s = Region.of(sendbuf, items, sendtype, Region.Use.READ, "send buffer");
            long unit = sendtype.sizeBytes();
            long[] sb = Comm.scaled(sendcounts, n, unit);
            long[] sd = displs != null ? Comm.scaled(displs, n, unit) : Comm.prefix(sendcounts, n, unit);
            return ic.collective(
                    async,
                    "iscatterv",
                    tag -> InterCollectives.scatterv(c, tag, s.segment, 0, sb, sd, null, 0, 0, root));
        }
        Region r =
                role == Role.IDLE ? null : Region.of(recvbuf, recvcount, recvtype, Region.Use.WRITE, "receive buffer");
        return ic.collective(
                async,
                "iscatterv",
                tag -> InterCollectives.scatterv(c, tag, null, 0, null, null, Comm.seg(r), 0, Comm.bytes(r), root),
                r);
    }

    static Request allGatherv(
            Intercomm ic,
            boolean async,
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int[] recvcounts,
            int[] displs,
            Datatype recvtype)
            throws MPIException {
        Communicator c = ic.comm();
        int n = c.remoteSize();
        Region given = Region.of(sendbuf, sendcount, sendtype, Region.Use.READ, "send buffer");
        int items = Comm.span(recvcounts, displs, n, "allGatherv");
        Region r = Region.of(recvbuf, items, recvtype, Region.Use.READ_WRITE, "receive buffer");
        Region s = Region.apart(given, r);
        long unit = recvtype.sizeBytes();
        long[] rb = Comm.scaled(recvcounts, n, unit);
        long[] rd = displs != null ? Comm.scaled(displs, n, unit) : Comm.prefix(recvcounts, n, unit);
        return ic.collective(
                async,
                "iallgatherv",
                tag -> InterCollectives.allGatherv(c, tag, s.segment, 0, s.bytes, r.segment, 0, rb, rd),
                r);
    }

    static Request allToAllv(
            Intercomm ic,
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
        Communicator c = ic.comm();
        int n = c.remoteSize();
        Region given = Region.of(
                sendbuf, Comm.span(sendcounts, sdispls, n, "allToAllv"), sendtype, Region.Use.READ, "send buffer");
        Region r = Region.of(
                recvbuf,
                Comm.span(recvcounts, rdispls, n, "allToAllv"),
                recvtype,
                Region.Use.READ_WRITE,
                "receive buffer");
        Region s = Region.apart(given, r);
        long su = sendtype.sizeBytes();
        long ru = recvtype.sizeBytes();
        long[] sb = Comm.scaled(sendcounts, n, su);
        long[] sd = sdispls != null ? Comm.scaled(sdispls, n, su) : Comm.prefix(sendcounts, n, su);
        long[] rb = Comm.scaled(recvcounts, n, ru);
        long[] rd = rdispls != null ? Comm.scaled(rdispls, n, ru) : Comm.prefix(recvcounts, n, ru);
        return ic.collective(
                async,
                "ialltoallv",
                tag -> InterCollectives.allToAllv(c, tag, s.segment, 0, sb, sd, r.segment, 0, rb, rd),
                r);
    }

    static Request reduce(
            Intercomm ic, boolean async, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        Communicator c = ic.comm();
        Role role = role(ic, root);
        ReduceFunction f = op.forType(type.checkUsable());
        int ecount = type.engineCount(count);
        Region s = role == Role.MEMBER ? Region.of(sendbuf, count, type, Region.Use.READ, "send buffer") : null;
        Region r = role == Role.ROOT ? Region.of(recvbuf, count, type, Region.Use.WRITE, "receive buffer") : null;
        return ic.collective(
                async,
                "ireduce",
                tag -> InterCollectives.reduce(
                        c, tag, Comm.seg(s), 0, Comm.seg(r), 0, ecount, type.engineType, f, root),
                r);
    }

    static Request allReduce(
            Intercomm ic, boolean async, Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        Communicator c = ic.comm();
        ReduceFunction f = op.forType(type.checkUsable());
        int ecount = type.engineCount(count);
        Region r = Region.of(recvbuf, count, type, Region.Use.WRITE, "receive buffer");
        Region s = Region.apart(Region.of(sendbuf, count, type, Region.Use.READ, "send buffer"), r);
        return ic.collective(
                async,
                "iallreduce",
                tag -> InterCollectives.allReduce(c, tag, s.segment, 0, r.segment, 0, ecount, type.engineType, f),
                r);
    }

    /** {@code recvcounts} has one count per member of the local group, alike on every member of it. */
    static Request reduceScatter(
            Intercomm ic, boolean async, Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        Communicator c = ic.comm();
        int n = c.size();
        ReduceFunction f = op.forType(type.checkUsable());
        int total = Comm.span(recvcounts, null, n, "reduceScatter");
        int[] ecounts = new int[n];
        for (int i = 0; i < n; i++) {
            ecounts[i] = type.engineCount(recvcounts[i]);
        }
        Region r = Region.of(recvbuf, recvcounts[c.rank()], type, Region.Use.WRITE, "receive buffer");
        Region s = Region.apart(Region.of(sendbuf, total, type, Region.Use.READ, "send buffer"), r);
        return ic.collective(
                async,
                "ireducescatter",
                tag -> InterCollectives.reduceScatter(c, tag, s.segment, 0, r.segment, 0, ecounts, type.engineType, f),
                r);
    }
}
