package mpi;

import io.rewind.engine.Communicator;
import io.rewind.engine.Intercommunicators;
import java.nio.Buffer;

/**
 * An intercommunicator: two disjoint groups, the local one (this process's) and the remote one.
 * {@link #getRank()}, {@link #getSize()} and {@link #getGroup()} are the local group's; the ranks of
 * point-to-point calls (destinations, sources, {@code Status.getSource()}) are ranks in the remote
 * group. The collectives move data between the groups, with the root rules of MPI 3.1 section
 * 5.2.2 (see {@link InterCollectiveCalls}); MPI_IN_PLACE is not allowed on an intercommunicator.
 *
 * <p>Created by {@link Comm#createIntercomm}, {@link #dup()}; {@link #merge(boolean)} makes an
 * intracommunicator over both groups.
 */
public final class Intercomm extends Comm {
    Intercomm(Communicator comm) {
        super(comm);
    }

    static Intercomm create(Comm localComm, Communicator peer, int localLeader, int remoteLeader, int tag)
            throws MPIException {
        Intercomm out =
                new Intercomm(Intercommunicators.create(localComm.comm(), localLeader, peer, remoteLeader, tag));
        out.inheritFrom(localComm);
        return out;
    }

    /** {@code MPI_Comm_compare} when either communicator is an intercommunicator. */
    static int compare(Communicator a, Communicator b) {
        if (a.isInter() != b.isInter()) {
            return MPI.UNEQUAL;
        }
        int local = Group.compareMembers(a.groupWorldRanks(), b.groupWorldRanks());
        int remote = Group.compareMembers(a.remoteWorldRanks(), b.remoteWorldRanks());
        if (local == MPI.IDENT && remote == MPI.IDENT) {
            return MPI.CONGRUENT;
        }
        return local != MPI.UNEQUAL && remote != MPI.UNEQUAL ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    // --- management ----------------------------------------------------------------------------------

    @Override
    public Intercomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /** Collective over both groups: the same groups, a new context. */
    @Override
    public Intercomm dup() throws MPIException {
        return guarded(() -> {
            Intercomm c = new Intercomm(Intercommunicators.dup(comm()));
            c.inheritFrom(this);
            return c;
        });
    }

    /** Duplicates the communicator; the info hints are accepted and not used. */
    @Override
    public Intercomm dupWithInfo(Info info) throws MPIException {
        return dup();
    }

    /** Duplicates the communicator; Rewind completes the duplication at once, {@link #getRequest()} is complete. */
    @Override
    public Intercomm iDup() throws MPIException {
        Intercomm c = dup();
        c.completedRequest();
        return c;
    }

    public int getRemoteSize() throws MPIException {
        return guarded(() -> comm().remoteSize());
    }

    public Group getRemoteGroup() throws MPIException {
        return guarded(() -> new Group(comm().remoteWorldRanks()));
    }

    /**
     * {@code MPI_Intercomm_merge}, collective over both groups: an intracommunicator with the group
     * that passed {@code high == false} first. Every member of a group passes the same value; when
     * both groups pass the same, the group whose rank 0 has the lower rank in {@code MPI.COMM_WORLD}
     * comes first.
     */
    public Intracomm merge(boolean high) throws MPIException {
        return guarded(() -> {
            Intracomm c = new Intracomm(Intercommunicators.merge(comm(), high));
            c.inheritFrom(this);
            return c;
        });
    }

    /**
     * {@code MPI_Comm_get_parent}: Rewind starts no processes dynamically, so there is never a
     * parent; the result's {@link #isNull()} is true.
     */
    public static Intercomm getParent() throws MPIException {
        MPI.check();
        return new Intercomm(null);
    }

    // --- collectives (MPI 3.1 section 5.2.2) -----------------------------------------------------------

    @Override
    public void barrier() throws MPIException {
        guarded(() -> InterCollectiveCalls.barrier(this, false));
    }

    @Override
    public Request iBarrier() throws MPIException {
        return guarded(() -> InterCollectiveCalls.barrier(this, true));
    }

    @Override
    public void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        guarded(() -> InterCollectiveCalls.bcast(this, false, buf, count, type, root));
    }

    @Override
    public Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return guarded(() -> InterCollectiveCalls.bcast(this, true, buf, count, type, root));
    }

    @Override
    public void gather(
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int recvcount,
            Datatype recvtype,
            int root)
            throws MPIException {
        guarded(() -> gatherBlocks(false, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
    }

    @Override
    public void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        guarded(() -> {
            throw InterCollectiveCalls.inPlace("gather");
        });
    }

    @Override
    public Request iGather(
            Buffer sendbuf,
            int sendcount,
            Datatype sendtype,
            Buffer recvbuf,
            int recvcount,
            Datatype recvtype,
            int root)
            throws MPIException {
        return guarded(() -> gatherBlocks(true, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
    }

    @Override
    public Request iGather(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return guarded(() -> {
            throw InterCollectiveCalls.inPlace("iGather");
        });
    }

    private Request gatherBlocks(
            boolean async,
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int recvcount,
            Datatype recvtype,
            int root)
            throws MPIException {
        int n = comm().remoteSize();
        return InterCollectiveCalls.gatherv(
                this,
                async,
                sendbuf,
                sendcount,
                sendtype,
                recvbuf,
                repeat(recvcount, n),
                blocks(recvcount, n),
                recvtype,
                root);
    }

    @Override
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
        guarded(() -> InterCollectiveCalls.gatherv(
                this, false, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root));
    }

    /** The root's part (it sends nothing on an intercommunicator). */
    @Override
    public void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        guarded(() -> InterCollectiveCalls.gatherv(
                this, false, null, 0, recvtype, recvbuf, recvcount, displs, recvtype, rootSide(root, "gatherv")));
    }

    /** The part of the other group's members (they receive nothing). */
    @Override
    public void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        guarded(() -> InterCollectiveCalls.gatherv(
                this, false, sendbuf, sendcount, sendtype, null, null, null, sendtype, otherSide(root, "gatherv")));
    }

    @Override
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
        return guarded(() -> InterCollectiveCalls.gatherv(
                this, true, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root));
    }

    @Override
    public Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        return guarded(() -> InterCollectiveCalls.gatherv(
                this, true, null, 0, recvtype, recvbuf, recvcount, displs, recvtype, rootSide(root, "iGatherv")));
    }

    @Override
    public Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        return guarded(() -> InterCollectiveCalls.gatherv(
                this, true, sendbuf, sendcount, sendtype, null, null, null, sendtype, otherSide(root, "iGatherv")));
    }

    /** The forms without send arguments are the root group's (MPI.ROOT or MPI.PROC_NULL). */
    private static int rootSide(int root, String what) throws MPIException {
        if (root != MPI.ROOT && root != MPI.PROC_NULL) {
            throw Failures.error(
                    MPI.ERR_ROOT,
                    "the " + what + " without send arguments is for the root's group (MPI.ROOT or MPI.PROC_NULL)"
                            + " on an intercommunicator, not " + root);
        }
        return root;
    }

    /** The forms without receive arguments are the other group's (the root's rank) or idle members'. */
    private static int otherSide(int root, String what) throws MPIException {
        if (root == MPI.ROOT) {
            throw Failures.error(
                    MPI.ERR_ROOT, "the " + what + " without receive arguments cannot be the root's (MPI.ROOT)");
        }
        return root;
    }

    @Override
    public void scatter(
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int recvcount,
            Datatype recvtype,
            int root)
            throws MPIException {
        guarded(() -> scatterBlocks(false, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
    }

    @Override
    public void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        guarded(() -> {
            throw InterCollectiveCalls.inPlace("scatter");
        });
    }

    @Override
    public Request iScatter(
            Buffer sendbuf,
            int sendcount,
            Datatype sendtype,
            Buffer recvbuf,
            int recvcount,
            Datatype recvtype,
            int root)
            throws MPIException {
        return guarded(() -> scatterBlocks(true, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
    }

    @Override
    public Request iScatter(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return guarded(() -> {
            throw InterCollectiveCalls.inPlace("iScatter");
        });
    }

    private Request scatterBlocks(
            boolean async,
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int recvcount,
            Datatype recvtype,
            int root)
            throws MPIException {
        int n = comm().remoteSize();
        return InterCollectiveCalls.scatterv(
                this,
                async,
                sendbuf,
                repeat(sendcount, n),
                blocks(sendcount, n),
                sendtype,
                recvbuf,
                recvcount,
                recvtype,
                root);
    }

    @Override
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
        guarded(() -> InterCollectiveCalls.scatterv(
                this, false, sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root));
    }

    /** The root's part (it receives nothing on an intercommunicator). */
    @Override
    public void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        guarded(() -> InterCollectiveCalls.scatterv(
                this, false, sendbuf, sendcount, displs, sendtype, null, 0, sendtype, rootSide(root, "scatterv")));
    }

    /** The part of the other group's members (they send nothing). */
    @Override
    public void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        guarded(() -> InterCollectiveCalls.scatterv(
                this, false, null, null, null, recvtype, recvbuf, recvcount, recvtype, otherSide(root, "scatterv")));
    }

    @Override
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
        return guarded(() -> InterCollectiveCalls.scatterv(
                this, true, sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root));
    }

    @Override
    public Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        return guarded(() -> InterCollectiveCalls.scatterv(
                this, true, sendbuf, sendcount, displs, sendtype, null, 0, sendtype, rootSide(root, "iScatterv")));
    }

    @Override
    public Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return guarded(() -> InterCollectiveCalls.scatterv(
                this, true, null, null, null, recvtype, recvbuf, recvcount, recvtype, otherSide(root, "iScatterv")));
    }

    @Override
    public void allGather(
            Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        guarded(() -> allGatherBlocks(false, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    @Override
    public void allGather(Object buf, int count, Datatype type) throws MPIException {
        guarded(() -> {
            throw InterCollectiveCalls.inPlace("allGather");
        });
    }

    @Override
    public Request iAllGather(
            Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        return guarded(() -> allGatherBlocks(true, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    @Override
    public Request iAllGather(Buffer buf, int count, Datatype type) throws MPIException {
        return guarded(() -> {
            throw InterCollectiveCalls.inPlace("iAllGather");
        });
    }

    private Request allGatherBlocks(
            boolean async,
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int recvcount,
            Datatype recvtype)
            throws MPIException {
        int n = comm().remoteSize();
        return InterCollectiveCalls.allGatherv(
                this,
                async,
                sendbuf,
                sendcount,
                sendtype,
                recvbuf,
                repeat(recvcount, n),
                blocks(recvcount, n),
                recvtype);
    }

    @Override
    public void allGatherv(
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int[] recvcount,
            int[] displs,
            Datatype recvtype)
            throws MPIException {
        guarded(() -> InterCollectiveCalls.allGatherv(
                this, false, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype));
    }

    @Override
    public void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        guarded(() -> {
            throw InterCollectiveCalls.inPlace("allGatherv");
        });
    }

    @Override
    public Request iAllGatherv(
            Buffer sendbuf,
            int sendcount,
            Datatype sendtype,
            Buffer recvbuf,
            int[] recvcount,
            int[] displs,
            Datatype recvtype)
            throws MPIException {
        return guarded(() -> InterCollectiveCalls.allGatherv(
                this, true, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype));
    }

    @Override
    public Request iAllGatherv(Buffer buf, int[] count, int[] displs, Datatype type) throws MPIException {
        return guarded(() -> {
            throw InterCollectiveCalls.inPlace("iAllGatherv");
        });
    }

    @Override
    public void allToAll(
            Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        guarded(() -> allToAllBlocks(false, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    @Override
    public Request iAllToAll(
            Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        return guarded(() -> allToAllBlocks(true, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    private Request allToAllBlocks(
            boolean async,
            Object sendbuf,
            int sendcount,
            Datatype sendtype,
            Object recvbuf,
            int recvcount,
            Datatype recvtype)
            throws MPIException {
        int n = comm().remoteSize();
        return InterCollectiveCalls.allToAllv(
                this,
                async,
                sendbuf,
                repeat(sendcount, n),
                blocks(sendcount, n),
                sendtype,
                recvbuf,
                repeat(recvcount, n),
                blocks(recvcount, n),
                recvtype);
    }

    @Override
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
        guarded(() -> InterCollectiveCalls.allToAllv(
                this, false, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype));
    }

    @Override
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
        return guarded(() -> InterCollectiveCalls.allToAllv(
                this, true, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype));
    }

    @Override
    public void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) throws MPIException {
        guarded(() -> InterCollectiveCalls.reduce(this, false, sendbuf, recvbuf, count, type, op, root));
    }

    @Override
    public void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        guarded(() -> {
            throw InterCollectiveCalls.inPlace("reduce");
        });
    }

    @Override
    public Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        return guarded(() -> InterCollectiveCalls.reduce(this, true, sendbuf, recvbuf, count, type, op, root));
    }

    @Override
    public Request iReduce(Buffer buf, int count, Datatype type, Op op, int root) throws MPIException {
        return guarded(() -> {
            throw InterCollectiveCalls.inPlace("iReduce");
        });
    }

    @Override
    public void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        guarded(() -> InterCollectiveCalls.allReduce(this, false, sendbuf, recvbuf, count, type, op));
    }

    @Override
    public void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        guarded(() -> {
            throw InterCollectiveCalls.inPlace("allReduce");
        });
    }

    @Override
    public Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return guarded(() -> InterCollectiveCalls.allReduce(this, true, sendbuf, recvbuf, count, type, op));
    }

    @Override
    public Request iAllReduce(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return guarded(() -> {
            throw InterCollectiveCalls.inPlace("iAllReduce");
        });
    }

    @Override
    public void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        guarded(() -> InterCollectiveCalls.reduceScatter(this, false, sendbuf, recvbuf, recvcounts, type, op));
    }

    @Override
    public void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        guarded(() -> {
            throw InterCollectiveCalls.inPlace("reduceScatter");
        });
    }

    @Override
    public Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        return guarded(() -> InterCollectiveCalls.reduceScatter(this, true, sendbuf, recvbuf, recvcounts, type, op));
    }

    @Override
    public Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op) throws MPIException {
        return guarded(() -> {
            throw InterCollectiveCalls.inPlace("iReduceScatter");
        });
    }

    @Override
    public void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        guarded(() -> InterCollectiveCalls.reduceScatter(
                this, false, sendbuf, recvbuf, repeat(recvcount, comm().size()), type, op));
    }

    @Override
    public void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        guarded(() -> {
            throw InterCollectiveCalls.inPlace("reduceScatterBlock");
        });
    }

    @Override
    public Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        return guarded(() -> InterCollectiveCalls.reduceScatter(
                this, true, sendbuf, recvbuf, repeat(recvcount, comm().size()), type, op));
    }

    @Override
    public Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return guarded(() -> {
            throw InterCollectiveCalls.inPlace("iReduceScatterBlock");
        });
    }
}
