package io.rewind.ft.none;

import io.rewind.ft.Protocol;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolServices;
import io.rewind.ft.RankProtocol;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.RecoveryView;
import java.util.Set;

/** No fault tolerance: no checkpoints, no logging, and a crash aborts the job. Costs nothing. */
public final class NoProtocol implements Protocol {
    /** The protocol as the registry lists it. */
    public static ProtocolDescriptor descriptor() {
        return ProtocolDescriptor.builder("none", NoProtocol::new)
                .title("no fault tolerance")
                .summary("no fault tolerance: a crash aborts the job")
                .noCapabilities()
                .build();
    }

    @Override
    public String name() {
        return "none";
    }

    @Override
    public boolean recovers() {
        return false;
    }

    @Override
    public void start(ProtocolServices services) {}

    @Override
    public RankProtocol openRank(int rank, int incarnation) {
        return RankProtocol.NONE;
    }

    @Override
    public RecoveryPlan plan(Set<Integer> failed, RecoveryView view) {
        throw new IllegalStateException("protocol none does not recover");
    }
}
