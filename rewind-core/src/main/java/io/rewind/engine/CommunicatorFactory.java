package io.rewind.engine;

/**
 * Creates communicators without messages, through a service of the job that outlives every rank:
 * each member states its colour and key for the parent's n-th creation, and all members get the
 * same answer. A restarted rank asking again for a creation it made before its crash gets the
 * recorded answer at once, without its peers, which is what makes communicator creation replayable.
 */
public interface CommunicatorFactory {
    /**
     * Blocks until every member of {@code parent} has asked for creation number {@code creationIndex},
     * then returns this rank's part: the context and group of its new communicator, or null if it
     * belongs to none (negative colour).
     *
     * @param explicitGroup for creation from a group, the group's world ranks in order; null for split
     */
    Created create(Communicator parent, long creationIndex, int color, int key, int[] explicitGroup);

    /**
     * Creation over a subset of {@code parent} that only the subset's members call
     * ({@code MPI_Comm_create_group}): blocks until every member of {@code group} (world ranks, in
     * the new communicator's order) has asked for its {@code occurrence}-th creation with this group
     * and tag on {@code parent}.
     */
    Created createFromGroup(Communicator parent, int[] group, int tag, long occurrence);

    /**
     * One side's part of a creation that joins two disjoint groups: an intercommunicator (created
     * from two intracommunicators, or duplicated) or the intracommunicator of a merge. Blocks until
     * every member of {@code local} has asked for creation number {@code creationIndex} and the
     * other group, named by {@code link}, has done the same; see {@link InterLink}.
     */
    Created createInter(Communicator local, long creationIndex, InterLink link);

    /**
     * The new communicator of one member: its context (even) and group as world ranks, with its rank.
     * An intercommunicator has a remote group too, and the context of its local group's private
     * communicator. A creation the job refused (arguments that cannot work, found where only the job
     * sees them all) has a refusal instead, with its MPI error class.
     */
    record Created(
            int context,
            int[] groupWorldRanks,
            int rank,
            int[] remoteGroupWorldRanks,
            int localContext,
            int refusalClass,
            String refusal)
            implements java.io.Serializable {
        public Created(int context, int[] groupWorldRanks, int rank) {
            this(context, groupWorldRanks, rank, null, -1, 0, null);
        }

        public static Created refused(ErrorClass errorClass, String why) {
            return new Created(-1, null, -1, null, -1, errorClass.code(), why);
        }
    }

    /**
     * How one group names the other in a creation that joins two groups. The two groups meet where
     * their leaders name each other through the same peer communicator and tag: the k-th such
     * request from one side pairs with the k-th from the other, as the leaders' messages would match
     * in MPI. Only the local leader's link counts; the other members give theirs for its
     * {@code localLeader} and {@code high}.
     *
     * @param localLeader       the leader's rank in the local communicator
     * @param merge             a merge (the result is one intracommunicator over both groups)
     * @param high              for a merge: this group's ranks come after the other's
     * @param peerContext       the context of the communicator the leaders share
     * @param peerIdentity      the world rank that, with the context, names that communicator
     * @param leaderWorld       this side's leader, as a world rank
     * @param remoteLeaderWorld the other side's leader, as a world rank
     * @param tag               the program's tag (a negative one for creations on an intercommunicator)
     * @param refusal           non-null when the leader found its own arguments invalid: every member
     *                          of its group then fails with this message, instead of waiting
     * @param refusalClass      the MPI error class of the refusal
     */
    record InterLink(
            int localLeader,
            boolean merge,
            boolean high,
            int peerContext,
            int peerIdentity,
            int leaderWorld,
            int remoteLeaderWorld,
            int tag,
            String refusal,
            int refusalClass) {
        /** The link as integers (the refusal travels apart): what crosses a process boundary. */
        public int[] toArray() {
            return new int[] {
                localLeader,
                merge ? 1 : 0,
                high ? 1 : 0,
                peerContext,
                peerIdentity,
                leaderWorld,
                remoteLeaderWorld,
                tag,
                refusalClass
            };
        }

        public static InterLink fromArray(int[] a, String refusal) {
            return new InterLink(a[0], a[1] != 0, a[2] != 0, a[3], a[4], a[5], a[6], a[7], refusal, a[8]);
        }
    }
}
