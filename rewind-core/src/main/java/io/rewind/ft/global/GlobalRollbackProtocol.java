package io.rewind.ft.global;

import io.rewind.ft.Capability;
import io.rewind.ft.Protocol;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolServices;
import io.rewind.ft.RankProtocol;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.RecoveryView;
import java.util.List;
import java.util.Set;

/**
 * The coordinated-checkpoint baseline: ranks checkpoint at the same points and log nothing; on any
 * failure every rank rolls back to the newest recovery line all of them hold, and re-executes.
 */
public final class GlobalRollbackProtocol implements Protocol {
    /** The protocol as the registry lists it. */
    public static ProtocolDescriptor descriptor() {
        return ProtocolDescriptor.builder("global", GlobalRollbackProtocol::new)
                .title("coordinated checkpoints")
                .summary("coordinated checkpoints: every rank rolls back to the newest line all ranks hold")
                .capabilities(Capability.RECOVERS, Capability.CHECKPOINTS)
                .build();
    }

    private int ranks;

    @Override
    public String name() {
        return "global";
    }

    @Override
    public boolean recovers() {
        return true;
    }

    @Override
    public void start(ProtocolServices services) {
        this.ranks = services.ranks();
    }

    @Override
    public RankProtocol openRank(int rank, int incarnation) {
        return new GlobalRollbackRank();
    }

    @Override
    public RecoveryPlan plan(Set<Integer> failed, RecoveryView view) {
        return RecoveryPlan.everyRank(ranks, view.newestLineAllHold(), List.of());
    }
}
