package io.rewind.ft.pessimistic;

import io.rewind.ft.Capability;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.RecoveryView;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.sender.LocalRollback;
import io.rewind.ft.sender.SenderLoggingProtocol;
import io.rewind.ft.sender.SenderLoggingRank;
import java.util.Set;

/**
 * Pessimistic sender-based message logging with local rollback: only the ranks that crashed
 * restart; the others keep running and replay to them from their payload logs, and the event logger
 * forces every non-deterministic outcome of the re-execution to what it was. It uses the job's event
 * logger and what each rank's kept recovery lines hold (for log truncation), both services of the job.
 */
public final class PessimisticProtocol extends SenderLoggingProtocol {
    /** The protocol as the registry lists it. */
    public static ProtocolDescriptor descriptor() {
        return ProtocolDescriptor.builder("pessimistic", PessimisticProtocol::new)
                .title("pessimistic message logging")
                .summary(
                        "sender-based payload logging and an event logger: only the crashed rank rolls back, survivors "
                                + "replay its messages")
                .capabilities(
                        Capability.RECOVERS,
                        Capability.CHECKPOINTS,
                        Capability.LOGS_PAYLOADS,
                        Capability.LOGS_DETERMINANTS)
                .build();
    }

    @Override
    public String name() {
        return "pessimistic";
    }

    @Override
    public boolean logsDeterminants() {
        return true;
    }

    /** Every channel logged; outcomes kept by the job's event logger. */
    @Override
    protected SenderLoggingRank composeRank(int rank, int incarnation, PayloadLog log) {
        return new SenderLoggingRank(
                rank, incarnation, log, services.eventLog().apply(rank), lines, services.applicationLevelCollectives());
    }

    /** Only the failed ranks restart ({@link LocalRollback#plan}). */
    @Override
    public RecoveryPlan plan(Set<Integer> failed, RecoveryView view) {
        return LocalRollback.plan(failed, view, lines);
    }
}
