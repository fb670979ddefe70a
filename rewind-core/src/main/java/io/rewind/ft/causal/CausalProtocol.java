package io.rewind.ft.causal;

import io.rewind.ft.Capability;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.RecoveryView;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.piggyback.CausalOutcomes;
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
    /** The protocol as the registry lists it. */
    public static ProtocolDescriptor descriptor() {
        return ProtocolDescriptor.builder("causal", CausalProtocol::new)
                .title("causal message logging")
                .summary(
                        "sender-based payload logging with determinants piggybacked on messages, no event logger: only "
                                + "the crashed rank rolls back, survivors replay its messages and return its determinants")
                .capabilities(Capability.RECOVERS, Capability.CHECKPOINTS, Capability.LOGS_PAYLOADS)
                .build();
    }

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
                CausalOutcomes.open(rank, incarnation, services.ranks(), lines),
                lines::safelyHeldUpTo,
                services.applicationLevelCollectives());
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
