package io.rewind.api;

import mpi.Comm;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPIException;
import mpi.Request;
import mpi.UlfmCalls;

/**
 * User-level failure mitigation (ULFM) for Java: the program learns of failed ranks and decides what to
 * do. The names are those of Open MPI 5's {@code MPIX_} extension in Java form.
 *
 * <p>Run the job with {@code --on-failure notify}. Then no rank rolls back: an operation that involves a
 * failed rank throws an {@link MPIException} whose {@link MPIException#getErrorClass() error class} is
 * {@link #ERR_PROC_FAILED}; a receive of any source that a failed rank could have satisfied throws
 * {@link #ERR_PROC_FAILED_PENDING} (the request stays posted until {@link #ackFailed} acknowledges the
 * failure; a blocking receive throws {@link #ERR_PROC_FAILED} and is taken back); every operation on a
 * revoked communicator throws {@link #ERR_REVOKED}, except the calls of this class. A communicator
 * whose members are all alive raises nothing. Set {@code MPI.ERRORS_RETURN} (the default); with {@code
 * MPI.ERRORS_ARE_FATAL} a failure ends the job as before.
 *
 * <pre>{@code
 * Intracomm world = MPI.COMM_WORLD;
 * while (step < steps) {
 *     try {
 *         iterate(world);
 *         step++;
 *     } catch (MPIException e) {
 *         if (e.getErrorClass() != Ulfm.ERR_PROC_FAILED && e.getErrorClass() != Ulfm.ERR_REVOKED) throw e;
 *         Ulfm.revoke(world);              // the others stop waiting too
 *         world = Ulfm.shrink(world);      // the survivors, in their old order
 *     }
 * }
 * }</pre>
 *
 * Under {@code --on-failure recover} (the default) the job recovers failed ranks itself and never
 * reports a failure, so the same program runs unchanged: {@link #agree} is an all-reduce of the flags,
 * {@link #shrink} and {@link #replace} duplicate the communicator; only {@link #revoke} is refused.
 */
public final class Ulfm {
    /** A rank that the operation involves failed ({@code MPIX_ERR_PROC_FAILED}). */
    public static final int ERR_PROC_FAILED = 75;
    /**
     * A receive of any source could have been satisfied by a failed rank; the request stays posted
     * ({@code MPIX_ERR_PROC_FAILED_PENDING}).
     */
    public static final int ERR_PROC_FAILED_PENDING = 76;
    /** The communicator was revoked ({@code MPIX_ERR_REVOKED}). */
    public static final int ERR_REVOKED = 77;

    private Ulfm() {}

    /**
     * Revokes the communicator at every member ({@code MPIX_Comm_revoke}): their pending and later
     * operations on it throw {@link #ERR_REVOKED}, wherever they wait. Not collective; returns at once.
     */
    public static void revoke(Comm comm) throws MPIException {
        UlfmCalls.revoke(comm);
    }

    /** Whether the communicator was revoked, here or by another member ({@code MPIX_Comm_is_revoked}). */
    public static boolean isRevoked(Comm comm) throws MPIException {
        return UlfmCalls.isRevoked(comm);
    }

    /**
     * The live members of {@code comm} as a new communicator, in their old order ({@code
     * MPIX_Comm_shrink}). Collective over the live members; works on a revoked communicator, and every
     * member that returns gets the same group, whoever fails meanwhile.
     */
    public static Intracomm shrink(Intracomm comm) throws MPIException {
        return UlfmCalls.shrink(comm);
    }

    /** An intercommunicator of the live members of both groups ({@code MPIX_Comm_shrink}). */
    public static Intercomm shrink(Intercomm comm) throws MPIException {
        return UlfmCalls.shrink(comm);
    }

    /**
     * A non-blocking {@link #shrink} ({@code MPIX_Comm_ishrink}): the communicator returned is usable once
     * its {@link Comm#getRequest() request} has completed.
     */
    public static Intracomm iShrink(Intracomm comm) throws MPIException {
        return UlfmCalls.iShrink(comm);
    }

    /** A non-blocking {@link #shrink} of an intercommunicator. */
    public static Intercomm iShrink(Intercomm comm) throws MPIException {
        return UlfmCalls.iShrink(comm);
    }

    /**
     * Agrees on a value ({@code MPIX_Comm_agree}): returns the bitwise AND of the flags of the live
     * members that called it, the same at every member that returns, even when members fail during it.
     * Works on a revoked communicator. When it returns, {@link #getFailed} names at least the failures
     * the agreement saw, at every member alike.
     */
    public static int agree(Comm comm, int flag) throws MPIException {
        return UlfmCalls.agree(comm, flag);
    }

    /**
     * A non-blocking {@link #agree} ({@code MPIX_Comm_iagree}): {@code flag[0]} is this rank's flag, and
     * holds the agreed value once the request has completed.
     */
    public static Request iAgree(Comm comm, int[] flag) throws MPIException {
        return UlfmCalls.iAgree(comm, flag);
    }

    /**
     * The members of {@code comm} known to have failed, in the order the job learned of them ({@code
     * MPIX_Comm_get_failed}). Local: another member may know of more.
     */
    public static Group getFailed(Comm comm) throws MPIException {
        return UlfmCalls.getFailed(comm);
    }

    /**
     * Acknowledges the first {@code numToAck} failures of {@link #getFailed} ({@code
     * MPIX_Comm_ack_failed}): receives and probes of any source work again while no other member
     * fails. Returns how many failures are acknowledged; {@code ackFailed(comm, 0)} only asks.
     */
    public static int ackFailed(Comm comm, int numToAck) throws MPIException {
        return UlfmCalls.ackFailed(comm, numToAck);
    }

    /**
     * Replaces the failed members of {@code comm}, a communicator of every rank of the job, and returns a
     * communicator of the same size and rank order with the replacements in it (ULFM's
     * respawn-and-merge in one call). Collective over the live members. Each replacement runs the
     * program from its start, as the failed rank's number, with {@link Checkpointer#restore()} loading
     * that rank's newest checkpoint, and its {@code MPI.COMM_WORLD} is the communicator returned here;
     * {@link #isReplacement()} is true there. With {@code --spares K} the job makes at most K
     * replacements; past them this call shrinks instead, with a warning.
     */
    public static Intracomm replace(Intracomm comm) throws MPIException {
        return UlfmCalls.replace(comm);
    }

    /** Whether this rank replaces one that failed ({@link #replace}). */
    public static boolean isReplacement() {
        return UlfmCalls.isReplacement();
    }
}
