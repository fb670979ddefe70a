package io.rewind.runtime.rank;

import io.rewind.engine.EngineConfig;
import io.rewind.engine.Liveness;
import io.rewind.engine.RankEngine;
import io.rewind.runtime.JobAbortedException;
import io.rewind.transport.local.InJvmTransport;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * What the {@code mpi} facade of one rank talks to: the rank's engine, its identity in the job, and
 * job-level actions (abort). The facade finds it through the class loader that defined it, so each
 * rank's copy of the facade reaches its own rank; a facade loaded outside any job (a program started
 * with plain {@code java}) gets a one-rank job of its own, as MPI's singleton initialisation does.
 */
public final class RankContext {
    private static volatile RankContext singleton;

    private final RankRuntime job;
    private final int rank;
    private final int size;
    private volatile RankEngine engine;
    private volatile CheckpointAgent checkpoints;
    private volatile boolean initialized;
    private volatile boolean finalized;

    RankContext(RankRuntime job, int rank, int size) {
        this.job = job;
        this.rank = rank;
        this.size = size;
    }

    /** The context of the rank whose class loader defined {@code facadeClass}. */
    public static RankContext of(Class<?> facadeClass) {
        if (facadeClass.getClassLoader() instanceof RankClassLoader loader) {
            return loader.context();
        }
        return singleton();
    }

    private static RankContext singleton() {
        RankContext s = singleton;
        if (s == null) {
            synchronized (RankContext.class) {
                s = singleton;
                if (s == null) {
                    s = new RankContext(null, 0, 1);
                    s.engine = new RankEngine(0, 1, new InJvmTransport(1), EngineConfig.forRanks(1), Liveness.ALWAYS);
                    s.engine.attach();
                    singleton = s;
                }
            }
        }
        return s;
    }

    public int rank() {
        return rank;
    }

    /** The job this rank runs in; null outside a launched job. */
    RankRuntime job() {
        return job;
    }

    public int size() {
        return size;
    }

    public RankEngine engine() {
        return engine;
    }

    void bind(RankEngine engine) {
        this.engine = engine;
    }

    void bind(CheckpointAgent agent) {
        this.checkpoints = agent;
    }

    /** The checkpoint agent of this rank incarnation, or null outside a launched job. */
    public CheckpointAgent checkpoints() {
        return checkpoints;
    }

    /** Called by {@code MPI.Init}. */
    public void markInitialized() {
        initialized = true;
    }

    /** Called by {@code MPI.Finalize}. */
    public void markFinalized() {
        finalized = true;
    }

    public boolean isInitialized() {
        return initialized;
    }

    public boolean isFinalized() {
        return finalized;
    }

    /** Ends the whole job with {@code errorCode}; every rank's next or current MPI call fails. */
    public void abort(int errorCode, String reason) {
        if (job != null) {
            job.abort(rank, errorCode, reason);
        } else {
            throw new JobAbortedException(rank, errorCode, reason);
        }
    }

    /** Whether the job reports failures to the program ({@code --on-failure notify}). */
    public boolean reportsFailures() {
        return job != null && job.config().faultTolerance().notifies();
    }

    /** Whether this incarnation replaces one that failed (notify mode, {@code Ulfm.replace}). */
    public boolean isReplacement() {
        return reportsFailures() && engine.incarnation() > 0;
    }

    /**
     * Revokes {@code c} here at once, and through the job at every other member (notify mode): their
     * pending and later operations on it fail with {@code REVOKED}.
     */
    public void revoke(io.rewind.engine.Communicator c) {
        engine.peerFailures().revoked(c.context());
        job.emit(new RankEvent.Revoked(
                rank, engine.incarnation(), System.nanoTime(), c.context(), c.memberWorldRanks()));
    }

    /**
     * Makes this rank's call of a fault-tolerant collective on {@code c} (notify mode); the job's decision
     * completes the request returned.
     */
    public io.rewind.engine.PeerFailures.DecisionRequest failureCall(
            io.rewind.engine.FailureDecision.Kind kind, io.rewind.engine.Communicator c, int flag) {
        int call = c.nextFailureCall();
        io.rewind.engine.PeerFailures.DecisionRequest r = engine.peerFailures().awaitDecision(c.context(), call);
        int[] members = c.memberWorldRanks();
        int localFrom = c.isInter() ? c.remoteSize() : members.length;
        job.emit(new RankEvent.FailureCall(
                rank,
                engine.incarnation(),
                System.nanoTime(),
                kind,
                c.context(),
                call,
                members,
                c.memberIncarnations(),
                localFrom,
                flag));
        return r;
    }

    /** The host name, as {@code MPI.getProcessorName} reports it. */
    public String processorName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
