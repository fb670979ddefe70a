package io.rewind.ft;

import java.util.Map;
import java.util.Set;

/**
 * A fault-tolerance protocol: everything a job does to survive crashes, behind one interface the
 * runtime calls without knowing which protocol it holds. One instance per job, made by the {@link
 * ProtocolRegistry}; one {@link RankProtocol} per rank incarnation carries the engine hooks.
 *
 * <p>What a protocol decides, the runtime carries out: the protocol says which ranks roll back to
 * which recovery line ({@link #plan}); the runtime stops them and restarts them from that line. What
 * the restarted ranks need from the others, their protocols ask for with control messages
 * ({@link RankProtocol#onStart}); the runtime carries those like any message and reads no rank's
 * memory on another's behalf.
 *
 * <p>To add a protocol: one package under {@code io.rewind.ft}, this interface (start from {@link
 * io.rewind.ft.template.TemplateProtocol}), a {@link ProtocolDescriptor} that declares its capabilities
 * and its options, and one line in {@link ProtocolRegistry} (or, outside this module, one line naming a
 * {@link ProtocolProvider}). The methods below that say what the protocol does answer the same as the
 * {@link Capability capabilities} its descriptor declares.
 */
public interface Protocol extends AutoCloseable {
    /** The name on the command line and in run records. */
    String name();

    /** Whether a crash can be recovered; if not, a crash aborts the job. */
    boolean recovers();

    /** Whether checkpoint points write checkpoints (a protocol that never restores needs none). */
    default boolean checkpoints() {
        return recovers();
    }

    /** Whether senders keep payloads for replay (a storage that keeps none cannot serve this protocol). */
    default boolean logsPayloads() {
        return false;
    }

    /**
     * Whether ranks record the outcomes of their non-deterministic events at the job's event logger
     * (which then has to run).
     */
    default boolean logsDeterminants() {
        return false;
    }

    /** Whether the protocol partitions the ranks into clusters (by an option of its own). */
    default boolean usesClusters() {
        return false;
    }

    /** Called once, before any rank starts, with what the job offers. */
    void start(ProtocolServices services);

    /** The engine hooks of one incarnation of {@code rank} (0 for the first, more after restarts). */
    RankProtocol openRank(int rank, int incarnation);

    /**
     * Which ranks roll back, and to which line, now that {@code failed} crashed (ranks whose state is
     * lost together). Called by the runtime's coordinator only.
     */
    RecoveryPlan plan(Set<Integer> failed, RecoveryView view);

    /** A rank wrote recovery line {@code line}; {@code frontiers} is what it had received per channel. */
    default void onCheckpoint(int rank, long line, Map<Long, Long> frontiers) {}

    /**
     * A rank's protocol reported {@code words} ({@link ProtocolServices#reports}); what this returns
     * (null for nothing) is the report's answer. Called on the reporting rank's thread or on the
     * launcher's, concurrently with {@link #plan}: synchronise.
     */
    default long[] onReport(int rank, int incarnation, long[] words) {
        return null;
    }

    /** What the protocol adds to the job's run record when the job ends (JSON-friendly values). */
    default java.util.Map<String, Object> runRecord() {
        return java.util.Map.of();
    }

    /** Lines the protocol adds to the job's summary when the job ends. */
    default java.util.List<String> summary() {
        return java.util.List.of();
    }

    /** The ranks of a plan are about to restart from {@code line}. */
    default void onRollback(RecoveryPlan plan) {}

    /** The job ended. */
    @Override
    default void close() {}
}
