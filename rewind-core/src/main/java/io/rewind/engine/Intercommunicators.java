package io.rewind.engine;

/**
 * Creation of intercommunicators, and of the communicators made from one (duplicates, merges).
 *
 * <p>Every creation goes through the job's communicator registry, without messages: each side's
 * members state their part for their local communicator's next creation, and the registry pairs the
 * two sides (see {@link CommunicatorFactory#createInter}). The answer stays recorded, so a rank
 * restarted from the start or from a checkpoint creates the same intercommunicator again before
 * its peers have any part in it, as it does a split.
 */
public final class Intercommunicators {
    /** Tags of the creations on an intercommunicator itself; a program's tags are never negative. */
    private static final int DUP_TAG = -1;

    private static final int MERGE_TAG = -2;

    private Intercommunicators() {}

    /**
     * {@code MPI_Intercomm_create}: joins {@code local}'s group to the group whose leader is rank
     * {@code remoteLeader} of {@code peer}; collective over both groups. {@code peer},
     * {@code remoteLeader} and {@code tag} matter at the local leader only ({@code peer} may be null
     * elsewhere). The leader's bad arguments fail its whole group, not just itself, so no member is
     * left waiting.
     */
    public static Communicator create(
            Communicator local, int localLeader, Communicator peer, int remoteLeader, int tag) {
        local.checkUsable();
        if (local.isInter()) {
            throw RewindException.of(
                    ErrorClass.COMM, "the local communicator %s must be an intracommunicator", local.name());
        }
        if (localLeader < 0 || localLeader >= local.size()) {
            throw RewindException.of(
                    ErrorClass.RANK,
                    "invalid local leader %d in %s of size %d",
                    localLeader,
                    local.name(),
                    local.size());
        }
        CommunicatorFactory.InterLink link;
        if (local.rank() != localLeader) {
            link = new CommunicatorFactory.InterLink(localLeader, false, false, -1, -1, -1, -1, tag, null, 0);
        } else {
            link = leaderLink(local, localLeader, peer, remoteLeader, tag);
        }
        CommunicatorFactory.Created c = factory(local).createInter(local, local.nextCreation(), link);
        return built(local.engine(), c, local.name() + "/inter");
    }

    private static CommunicatorFactory.InterLink leaderLink(
            Communicator local, int localLeader, Communicator peer, int remoteLeader, int tag) {
        int me = local.engine().worldRank();
        ErrorClass bad = null;
        String why = null;
        if (peer == null || peer.isFreed()) {
            bad = ErrorClass.COMM;
            why = "the peer communicator is null or was freed";
        } else if (remoteLeader < 0 || remoteLeader >= peer.remoteSize()) {
            bad = ErrorClass.RANK;
            why = String.format(
                    "invalid remote leader %d in the peer communicator %s of size %d",
                    remoteLeader, peer.name(), peer.remoteSize());
        } else if (tag < 0 || tag > Constants.TAG_UB) {
            bad = ErrorClass.TAG;
            why = "invalid tag " + tag + " (tags are >= 0)";
        }
        if (bad != null) {
            return new CommunicatorFactory.InterLink(localLeader, false, false, -1, -1, me, -1, tag, why, bad.code());
        }
        return new CommunicatorFactory.InterLink(
                localLeader,
                false,
                false,
                peer.context(),
                identity(peer),
                me,
                peer.worldRankOf(remoteLeader),
                tag,
                null,
                0);
    }

    /**
     * The world rank that, with its context, names a communicator the same way on every member: the
     * first member of an intracommunicator; the lower of an intercommunicator's two first members.
     */
    private static int identity(Communicator c) {
        return c.isInter() ? Math.min(c.groupWorldRanks()[0], c.worldRankOf(0)) : c.worldRankOf(0);
    }

    /** {@code MPI_Comm_dup} of an intercommunicator: the same two groups, new contexts. */
    public static Communicator dup(Communicator inter) {
        Communicator local = usableInter(inter);
        CommunicatorFactory.InterLink link = linkOf(inter, false, false, DUP_TAG);
        CommunicatorFactory.Created c = factory(local).createInter(local, local.nextCreation(), link);
        return built(inter.engine(), c, inter.name() + "'");
    }

    /**
     * {@code MPI_Intercomm_merge}: one intracommunicator over both groups, the group that passed
     * {@code high == false} first (when both passed the same, the group whose first member has the
     * lower world rank).
     */
    public static Communicator merge(Communicator inter, boolean high) {
        Communicator local = usableInter(inter);
        CommunicatorFactory.InterLink link = linkOf(inter, true, high, MERGE_TAG);
        CommunicatorFactory.Created c = factory(local).createInter(local, local.nextCreation(), link);
        refuseIfRefused(c);
        inter.engine().contextAgreed(c.context());
        return new Communicator(inter.engine(), c.context(), c.groupWorldRanks(), c.rank(), inter.name() + "/merge");
    }

    /** The link of a creation on an intercommunicator: the leaders are both groups' first members. */
    private static CommunicatorFactory.InterLink linkOf(Communicator inter, boolean merge, boolean high, int tag) {
        return new CommunicatorFactory.InterLink(
                0,
                merge,
                high,
                inter.context(),
                identity(inter),
                inter.groupWorldRanks()[0],
                inter.worldRankOf(0),
                tag,
                null,
                0);
    }

    private static Communicator usableInter(Communicator inter) {
        inter.checkUsable();
        if (!inter.isInter()) {
            throw RewindException.of(ErrorClass.COMM, "%s is not an intercommunicator", inter.name());
        }
        return inter.localPart();
    }

    private static CommunicatorFactory factory(Communicator c) {
        CommunicatorFactory factory = c.engine().communicatorFactory();
        if (factory == null) {
            throw RewindException.of(ErrorClass.OTHER, "intercommunicators need the job's communicator registry");
        }
        return factory;
    }

    private static void refuseIfRefused(CommunicatorFactory.Created c) {
        if (c.refusal() != null) {
            throw new RewindException(ErrorClass.ofCode(c.refusalClass()), c.refusal());
        }
    }

    private static Communicator built(RankEngine engine, CommunicatorFactory.Created c, String name) {
        refuseIfRefused(c);
        engine.contextAgreed(c.context());
        engine.contextAgreed(c.localContext());
        Communicator localPart =
                new Communicator(engine, c.localContext(), c.groupWorldRanks(), c.rank(), name + ".local");
        return new Communicator(engine, c.context(), c.remoteGroupWorldRanks(), c.rank(), name, localPart);
    }
}
