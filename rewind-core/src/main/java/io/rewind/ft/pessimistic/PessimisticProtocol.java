package io.rewind.ft.pessimistic;

import io.rewind.ft.Protocol;
import io.rewind.ft.ProtocolServices;
import io.rewind.ft.RankProtocol;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.RecoveryView;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.sender.SenderLoggingRank;
import java.util.List;
import java.util.Set;

/**
 * Pessimistic sender-based message logging with local rollback: only the ranks that crashed
 * restart; the others keep running and replay to them from their payload logs, and the event logger
 * forces every non-deterministic outcome of the re-execution to what it was. It uses the job's event
 * logger and what each rank's kept recovery lines hold (for log truncation), both services of the job.
 */
public final class PessimisticProtocol implements Protocol {
    private ProtocolServices services;
    private RecoveryLines lines;

    @Override
    public String name() {
        return "pessimistic";
    }

    @Override
    public boolean recovers() {
        return true;
    }

    @Override
    public boolean logsPayloads() {
        return true;
    }

    @Override
    public boolean logsDeterminants() {
        return true;
    }

    @Override
    public void start(ProtocolServices s) {
        this.services = s;
        this.lines = s.lines();
    }

    @Override
    public RankProtocol openRank(int rank, int incarnation) {
        PayloadLog log = PayloadLog.open(rank, services.payloadLog());
        return new SenderLoggingRank(
                rank, incarnation, log, services.eventLog().apply(rank), lines, services.applicationLevelCollectives());
    }

    /**
     * The failed ranks restart together, from the newest line they all hold, but no further forward
     * than the newest line every other rank holds: a peer that crashes later restarts from its own
     * newest line and needs what these ranks sent after it, which only their re-execution can send
     * again (their old logs are gone). Ranks whose logs were lost together restart from one common
     * line, since a rank restarting from a later line would not regenerate messages a peer restarting
     * from an earlier one needs. If a failed rank has no valid file among its kept lines, the peers'
     * logs no longer reach back far enough, and every rank rolls back.
     */
    @Override
    public RecoveryPlan plan(Set<Integer> failed, RecoveryView view) {
        long line = view.newestCommonLine(failed, view.newestLineOutside(failed));
        for (int r : failed) {
            long oldestKept = lines.oldestLine(r);
            if (oldestKept > 0 && line < oldestKept) {
                String note = "rank " + r + " has no valid checkpoint "
                        + (failed.size() > 1 ? "common to the ranks " + "that crashed with it " + failed + " " : "")
                        + "among the kept recovery lines; the peers' "
                        + "logs no longer reach back far enough, so every rank rolls back";
                return RecoveryPlan.everyRank(view.ranks(), view.newestLineAllHold(), List.of(note));
            }
        }
        return new RecoveryPlan(failed, line, false, List.of());
    }
}
