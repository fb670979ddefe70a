package io.rewind.ft.template;

import io.rewind.ft.Capability;
import io.rewind.ft.Protocol;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolOption;
import io.rewind.ft.ProtocolServices;
import io.rewind.ft.RankProtocol;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.RecoveryView;
import java.util.List;
import java.util.Set;

/**
 * The starting point for a new protocol: the smallest one that is correct for every program. On any
 * crash every rank restarts from the beginning; nothing is checkpointed, logged or replayed. Copy this
 * package, rename it, and grow each method; say in {@link #descriptor} what it does and which options
 * of its own it takes; then add one line to {@link io.rewind.ft.ProtocolRegistry}.
 *
 * <p>Where each part of a protocol goes:
 * <ul>
 *   <li>Job-level state (an event logger, what each rank's checkpoints hold, logger nodes): fields
 *       of this class, made in {@link #start}, fed by {@link #onCheckpoint} and {@link #onRollback}.
 *   <li>Per-rank state and the engine's hooks (what a send logs, what a receive records, the header
 *       fields a frame carries, what a restarted rank is forced to do): a {@link RankProtocol} made
 *       by {@link #openRank}; see {@link TemplateRank}.
 *   <li>The recovery policy: {@link #plan} names the ranks that roll back and the line they restart
 *       from; what the restarted ranks need from the others, their {@link RankProtocol#onStart} asks
 *       for with control messages ({@code io.rewind.ft.RecoveryMessages}).
 * </ul>
 * Run the recovery oracle on it ({@code io.rewind.check.RecoveryCheck}): every program must end as
 * it does without failures.
 */
public final class TemplateProtocol implements Protocol {
    /**
     * The protocol as a registry would list it: its capabilities (answered by the methods below as
     * well) and its options, each a {@link ProtocolOption} whose value {@link #start} reads from {@link
     * ProtocolServices#options()} (this one declares none).
     */
    public static ProtocolDescriptor descriptor() {
        return ProtocolDescriptor.builder("template", TemplateProtocol::new)
                .title("the template protocol")
                .summary("restarts every rank from the beginning")
                .capabilities(Capability.RECOVERS)
                .build();
    }

    private int ranks;

    @Override
    public String name() {
        return "template";
    }

    @Override
    public boolean recovers() {
        return true;
    }

    /** A protocol that always restarts from the beginning has no use for checkpoints. */
    @Override
    public boolean checkpoints() {
        return false;
    }

    @Override
    public void start(ProtocolServices services) {
        this.ranks = services.ranks();
    }

    @Override
    public RankProtocol openRank(int rank, int incarnation) {
        return new TemplateRank();
    }

    /** Every rank, from the beginning: survivors replay nothing, since they re-execute too. */
    @Override
    public RecoveryPlan plan(Set<Integer> failed, RecoveryView view) {
        return RecoveryPlan.everyRank(ranks, 0, List.of());
    }
}
