package mpi;

import io.rewind.engine.Communicator;
import io.rewind.engine.FailureDecision;
import io.rewind.engine.PeerFailures;
import io.rewind.engine.RewindException;
import io.rewind.runtime.rank.RankContext;

/**
 * The runtime side of {@code io.rewind.api.Ulfm}, which lives outside this package and reaches the
 * communicators' internals through here. Not part of the API: the compile-only API jar leaves it out.
 *
 * <p>Where the job recovers failures itself ({@code --on-failure recover}, the default) no failure is
 * ever reported, so a program written for ULFM runs unchanged: an agreement is an all-reduce of the
 * flags, a shrink and a replacement a duplicate.
 */
public final class UlfmCalls {
    private UlfmCalls() {}

    private static RankContext context() {
        return RankContext.of(MPI.class);
    }

    private static boolean notifies() {
        return context().reportsFailures();
    }

    public static void revoke(Comm comm) throws MPIException {
        comm.guardedVoid(() -> {
            Communicator c = comm.comm();
            if (!notifies()) {
                throw Failures.error(
                        MPI.ERR_OTHER,
                        "revoke needs a job that reports failures to its program: run it with --on-failure notify");
            }
            context().revoke(c);
            return null;
        });
    }

    public static boolean isRevoked(Comm comm) throws MPIException {
        return comm.guarded(() -> MPI.engine().peerFailures().isRevoked(comm.comm()));
    }

    public static Group getFailed(Comm comm) throws MPIException {
        return comm.guarded(() -> new Group(MPI.engine().peerFailures().failedMembers(comm.comm())));
    }

    public static int ackFailed(Comm comm, int numToAck) throws MPIException {
        return comm.guarded(() -> {
            if (numToAck < 0) {
                throw Failures.error(MPI.ERR_ARG, "ackFailed: cannot acknowledge " + numToAck + " failures");
            }
            return comm.comm().ackFailed(numToAck);
        });
    }

    public static int agree(Comm comm, int flag) throws MPIException {
        return comm.guarded(() -> {
            Communicator c = comm.comm();
            if (!notifies()) {
                int[] v = {flag};
                comm.allReduce(v, 1, MPI.INT, MPI.BAND);
                return v[0];
            }
            PeerFailures.DecisionRequest r = context().failureCall(FailureDecision.Kind.AGREE, c, flag);
            r.await();
            return r.decision().flag();
        });
    }

    public static Request iAgree(Comm comm, int[] flag) throws MPIException {
        return comm.guarded(() -> {
            if (flag == null || flag.length < 1) {
                throw Failures.error(MPI.ERR_ARG, "iAgree: flag must be an int[1] (in: this rank's, out: the agreed)");
            }
            Communicator c = comm.comm();
            if (!notifies()) {
                comm.allReduce(flag, 1, MPI.INT, MPI.BAND);
                return new Request(comm, io.rewind.engine.TaskRequest.completed(MPI.engine()));
            }
            PeerFailures.DecisionRequest r = context().failureCall(FailureDecision.Kind.AGREE, c, flag[0]);
            return new Request(comm, r) {
                @Override
                void onComplete() {
                    flag[0] = r.decision().flag();
                }
            };
        });
    }

    public static Intracomm shrink(Intracomm comm) throws MPIException {
        return comm.guarded(() -> {
            Intracomm out = new Intracomm(decided(comm, FailureDecision.Kind.SHRINK, "/shrunk"));
            out.inheritFrom(comm);
            return out;
        });
    }

    public static Intercomm shrink(Intercomm comm) throws MPIException {
        return comm.guarded(() -> {
            Intercomm out = new Intercomm(decided(comm, FailureDecision.Kind.SHRINK, "/shrunk"));
            out.inheritFrom(comm);
            return out;
        });
    }

    public static Intracomm iShrink(Intracomm comm) throws MPIException {
        return comm.guarded(() -> {
            Communicator c = comm.comm();
            Intracomm out = new Intracomm(null);
            out.inheritFrom(comm);
            bindLater(out, comm, c);
            return out;
        });
    }

    public static Intercomm iShrink(Intercomm comm) throws MPIException {
        return comm.guarded(() -> {
            Communicator c = comm.comm();
            Intercomm out = new Intercomm(null);
            out.inheritFrom(comm);
            bindLater(out, comm, c);
            return out;
        });
    }

    private static void bindLater(Comm out, Comm comm, Communicator c) {
        if (!notifies()) {
            Communicator d = c.dup();
            out.bindOnDecision(completed(), decision -> d);
            return;
        }
        PeerFailures.DecisionRequest r = context().failureCall(FailureDecision.Kind.SHRINK, c, 0);
        out.bindOnDecision(r, d -> c.decided(d, "/shrunk"));
    }

    /** A decision request that is complete (outside notify mode, where nothing is decided). */
    private static PeerFailures.DecisionRequest completed() {
        PeerFailures.DecisionRequest r = MPI.engine().peerFailures().awaitDecision(-1, -1);
        MPI.engine()
                .peerFailures()
                .decided(new FailureDecision(
                        FailureDecision.Kind.SHRINK, -1, -1, 0, new int[0], new int[0], 0, new int[0], new int[0]));
        return r;
    }

    public static Intracomm replace(Intracomm comm) throws MPIException {
        return comm.guarded(() -> {
            Communicator c = comm.comm();
            if (notifies() && c.size() != MPI.engine().worldSize()) {
                throw Failures.error(
                        MPI.ERR_COMM,
                        "replace works on a communicator of every rank of the job ("
                                + MPI.engine().worldSize() + "); " + c.name() + " has " + c.size()
                                + ": shrink it instead");
            }
            Intracomm out = new Intracomm(decided(comm, FailureDecision.Kind.REPLACE, "/replaced"));
            out.inheritFrom(comm);
            return out;
        });
    }

    public static boolean isReplacement() {
        return context().isReplacement();
    }

    /** A shrink or a replacement, blocking: the communicator it decided (a duplicate outside notify mode). */
    private static Communicator decided(Comm comm, FailureDecision.Kind kind, String suffix) throws MPIException {
        Communicator c = comm.comm();
        if (!notifies()) {
            return c.dup();
        }
        PeerFailures.DecisionRequest r = context().failureCall(kind, c, 0);
        try {
            r.await();
        } catch (RewindException e) {
            throw Failures.convertOrRethrow(e);
        }
        return c.decided(r.decision(), suffix);
    }
}
