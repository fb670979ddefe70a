package io.rewind.ft.causal;

import io.rewind.ft.RecoveryLines;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.RecoveryView;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.sender.LocalRollback;
import io.rewind.ft.sender.SenderLoggingProtocol;
import io.rewind.ft.sender.SenderLoggingRank;
import java.util.Set;

/**
 * Causal message logging: payloads are logged at the sender, as under {@code pessimistic}, but the
 * outcomes of non-deterministic events travel with the messages instead of going to an event logger
 * ({@link CausalOutcomes}): no rank ever waits for a determinant to be stored. Only the failed ranks
 * restart; the survivors replay their logs to them and give them back their determinants.
 */
public final class CausalProtocol extends SenderLoggingProtocol {
    @Override
    public String name() {
        return "causal";
    }

    /** Every channel logged; outcomes travel with the messages. */
    @Override
    protected SenderLoggingRank composeRank(int rank, int incarnation, PayloadLog log) {
        return new SenderLoggingRank(
                name(),
                destination -> true,
                rank,
                incarnation,
                log,
                outcomes(rank, incarnation, services.ranks(), lines),
                lines::safelyHeldUpTo,
                services.applicationLevelCollectives());
    }

    /** The outcome log of a causal rank (also used by {@code mcml}, which is causal under a log quota). */
    public static io.rewind.ft.sender.OutcomeLog outcomes(int rank, int incarnation, int ranks, RecoveryLines lines) {
        return new CausalOutcomes(rank, incarnation, ranks, lines);
    }

    /**
     * Only the failed ranks restart ({@link LocalRollback#plan}), however many failed together: every
     * determinant a survivor depends on is held by that survivor.
     */
    @Override
    public RecoveryPlan plan(Set<Integer> failed, RecoveryView view) {
        return LocalRollback.plan(failed, view, lines);
    }
}
