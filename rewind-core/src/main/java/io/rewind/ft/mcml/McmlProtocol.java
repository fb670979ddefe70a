package io.rewind.ft.mcml;

import io.rewind.ft.Capability;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolOption;
import io.rewind.ft.ProtocolServices;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.RecoveryView;
import io.rewind.ft.RollbackChains;
import io.rewind.ft.RollbackChains.Chain;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.piggyback.CausalOutcomes;
import io.rewind.ft.sender.SenderLoggingProtocol;
import io.rewind.ft.sender.SenderLoggingRank;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Memory-constrained message logging: {@code causal} with a quota on every rank's payload log. A rank
 * whose log would pass the quota stops logging one outgoing channel after another ({@link
 * SwitchOffOrder}: heaviest first, or nearest in a dendrogram first) and drops what it logged on them;
 * a channel stays off for the rest of the run. The log never holds more than the quota (unless the job
 * refuses a switch-off for a moment, see {@link #onReport}).
 *
 * <p>A failure rolls back the failed ranks and, transitively, every rank whose channel to a rolled-back
 * rank is off (it alone can send those messages again): the rollback chain. All restart from one
 * recovery line, the newest they all hold, no later than every other rank's newest; the other ranks
 * replay to them from their logs and give them back their determinants, as under {@code causal}.
 */
public final class McmlProtocol extends SenderLoggingProtocol {
    /** The option that says which channel a rank over its quota stops logging first ({@link SwitchOffOrder}). */
    public static final ProtocolOption SWITCH_OFF_OPTION = ProtocolOption.of(
                    "--switch-off",
                    "heaviest|dendrogram[:FILE]",
                    "heaviest",
                    "For --protocol mcml, which channel a rank over its quota stops logging first: the heaviest, "
                            + "or the nearest in a dendrogram (halves of contiguous ranks, or FILE as 'rewind analyze "
                            + "mcml --dendrogram-out' writes). Default: heaviest.",
                    McmlProtocol::switchOffSpec)
            .checkedWith((spec, ranks) -> SwitchOffOrder.parse(spec).forRanks(ranks)); // a dendrogram of another size

    /** The protocol as the registry lists it. */
    public static ProtocolDescriptor descriptor() {
        return ProtocolDescriptor.builder("mcml", McmlProtocol::new)
                .title("memory-constrained logging")
                .summary("memory-constrained causal logging: under --log-quota, a rank stops logging its heaviest (or "
                        + "nearest) channels; a crash rolls back the ranks whose channels to it are not logged, "
                        + "transitively")
                .capabilities(
                        Capability.RECOVERS, Capability.CHECKPOINTS, Capability.LOGS_PAYLOADS, Capability.BOUNDS_LOG)
                .option(SWITCH_OFF_OPTION)
                .defaultLogQuota(McmlProtocol::defaultQuotaBytes)
                .build();
    }

    /** {@code heaviest}, {@code dendrogram}, or {@code dendrogram:FILE} read into explicit paths. */
    static String switchOffSpec(String spec) {
        String s = spec.strip();
        if (s.regionMatches(true, 0, "dendrogram:", 0, "dendrogram:".length())) {
            java.nio.file.Path file = java.nio.file.Path.of(s.substring("dendrogram:".length()));
            if (!java.nio.file.Files.isRegularFile(file)) {
                throw new IllegalArgumentException("--switch-off " + spec + ": no dendrogram file " + file);
            }
            try {
                return SwitchOffOrder.readDendrogramFile(file).spec();
            } catch (java.io.UncheckedIOException e) {
                throw new IllegalArgumentException("--switch-off " + spec + ": " + e.getMessage(), e);
            }
        }
        return SwitchOffOrder.parse(s).spec();
    }

    /** Report of a rank starting: the answer lists the destinations its channels to are off. */
    static final long STARTED = 1;
    /** Report of a rank switching a channel off: destination, its incarnation as the rank knows it. */
    static final long SWITCH_OFF = 2;
    /** Report of a frame logged over the quota while recoveries held every candidate channel: the excess. */
    static final long OVER_QUOTA = 3;

    /** Frames logged over the quota, and the largest excess. Guarded by the lock. */
    private long overruns;

    private long largestExcess;

    /**
     * The quota of a job that gives none: {@code -Drewind.mcml.quota=BYTES}, else 8 KiB, small enough
     * that every workload of the repository switches channels off (the recovery oracle runs {@code
     * mcml} with it; a slow tier varies it).
     */
    public static long defaultQuotaBytes() {
        return Long.getLong("rewind.mcml.quota", 8 << 10);
    }

    private final Object lock = new Object();
    private long quotaBytes;
    private SwitchOffOrder order;
    /** off[s][d]: rank s no longer logs what it sends to rank d. Guarded by the lock. */
    private boolean[][] off;
    /** The incarnation each rank last started in, as it reported. Guarded by the lock. */
    private int[] incarnation;
    /** Ranks a plan restarts whose new incarnation has not started yet. Guarded by the lock. */
    private boolean[] restarting;
    /** Every switch-off, in order: source, destination. Guarded by the lock. */
    private final List<int[]> switchOffs = new ArrayList<>();

    @Override
    public String name() {
        return "mcml";
    }

    @Override
    public void start(ProtocolServices s) {
        super.start(s);
        long q = s.payloadLog().quotaBytes();
        this.quotaBytes = q == PayloadLogConfig.UNLIMITED ? Long.MAX_VALUE : q;
        String spec = s.options().get(SWITCH_OFF_OPTION.name());
        this.order = SwitchOffOrder.parse(spec != null ? spec : SWITCH_OFF_OPTION.defaultValue())
                .forRanks(s.ranks());
        int n = s.ranks();
        this.off = new boolean[n][n];
        this.incarnation = new int[n];
        this.restarting = new boolean[n];
    }

    /**
     * The quota is kept by switching channels off before a frame is logged; the log itself only counts
     * (no listener acts on it).
     */
    @Override
    protected PayloadLog openLog(int rank) {
        return PayloadLog.open(rank, services.payloadLog(), event -> {});
    }

    /** {@code causal}'s stack, with the quota policy ({@link McmlChannels}) consulted before each frame is logged. */
    @Override
    protected SenderLoggingRank composeRank(int rank, int incarnationNumber, PayloadLog log) {
        return new SenderLoggingRank(
                name(),
                destination -> true,
                rank,
                incarnationNumber,
                log,
                CausalOutcomes.open(rank, incarnationNumber, services.ranks(), lines),
                // A receiver may roll back in a chain with any rank, to a line they all hold: a channel
                // is trimmed only up to what the oldest line any rank keeps holds.
                (receiver, channel) -> lines.safelyHeldUpTo(receiver, channel, everyRank()),
                services.applicationLevelCollectives(),
                new McmlChannels(rank, incarnationNumber, services.ranks(), quotaBytes, order, services.reports()));
    }

    private int[] everyRank() {
        int[] all = new int[services.ranks()];
        for (int r = 0; r < all.length; r++) {
            all[r] = r;
        }
        return all;
    }

    /**
     * A rank starting learns which of its channels are off. A rank switching a channel off is refused
     * (answer 0) while the destination is being restarted by a plan, or has restarted since the rank
     * last heard from it: that plan counted on the rank's log of the channel, and the restarted
     * destination is about to ask for it. Otherwise the channel is off from now on (answer 1), before
     * the rank drops anything.
     */
    @Override
    public long[] onReport(int rank, int incarnationNumber, long[] words) {
        synchronized (lock) {
            if (words.length == 1 && words[0] == STARTED) {
                incarnation[rank] = Math.max(incarnation[rank], incarnationNumber);
                restarting[rank] = false;
                List<Long> out = new ArrayList<>();
                for (int d = 0; d < off.length; d++) {
                    if (off[rank][d]) {
                        out.add((long) d);
                    }
                }
                return out.stream().mapToLong(Long::longValue).toArray();
            }
            if (words.length == 2 && words[0] == OVER_QUOTA) {
                overruns++;
                largestExcess = Math.max(largestExcess, words[1]);
                return null;
            }
            if (words.length == 3 && words[0] == SWITCH_OFF) {
                int d = (int) words[1];
                if (d < 0 || d >= off.length) {
                    return new long[] {0};
                }
                if (restarting[d] || words[2] != incarnation[d]) {
                    return new long[] {0};
                }
                if (!off[rank][d]) {
                    off[rank][d] = true;
                    switchOffs.add(new int[] {rank, d});
                }
                return new long[] {1};
            }
            return null;
        }
    }

    /**
     * The failed ranks and their rollback chains restart together from one line ({@link
     * io.rewind.ft.RollbackChains#rollbackSet}); if one of them keeps no line that recent, every rank rolls back.
     */
    @Override
    public RecoveryPlan plan(Set<Integer> failed, RecoveryView view) {
        // Under the lock switch-offs take: none is taken between the set computed here and the refusal
        // of further ones towards its ranks (recordRollback), which would drop what they will ask for.
        synchronized (lock) {
            Chain chain = RollbackChains.rollbackSet(failed, off);
            Set<Integer> set = chain.ranks();
            long line = view.newestCompleteLine(set, view.newestLineOutside(set));
            List<String> notes = new ArrayList<>();
            if (line < 0) {
                notes.add(io.rewind.ft.sender.LocalRollback.noCompleteLine(set));
                RecoveryPlan global = RecoveryPlan.everyRank(view.ranks(), view.newestLineAllHold(), notes);
                recordRollback(failed, chain, global);
                return global;
            }
            if (set.size() > failed.size()) {
                notes.add("ranks " + new TreeSet<>(Collections.unmodifiableSet(set))
                        + " roll back together: the channels to the crashed rank" + (failed.size() > 1 ? "s" : "")
                        + " are not logged from " + chain.dragged() + " (rollback chain of " + chain.depth() + ")");
            }
            for (int r : set) {
                long oldestKept = lines.oldestLine(r);
                if (oldestKept > 0 && line < oldestKept) {
                    notes.add("rank " + r + " keeps no recovery line common to the ranks rolling back with it; the "
                            + "peers' logs no longer reach back far enough, so every rank rolls back");
                    RecoveryPlan global = RecoveryPlan.everyRank(view.ranks(), view.newestLineAllHold(), notes);
                    recordRollback(failed, chain, global);
                    return global;
                }
            }
            RecoveryPlan plan = new RecoveryPlan(set, line, false, notes);
            recordRollback(failed, chain, plan);
            return plan;
        }
    }

    /**
     * Keeps the plan for the run record, and from now on refuses switch-offs towards its ranks: the plan
     * counts on the logs of the channels to them as they are now (a switch-off taken in between the plan
     * and the restart would drop what the restarted ranks are about to ask for).
     */
    private void recordRollback(Set<Integer> failed, Chain chain, RecoveryPlan plan) {
        synchronized (lock) {
            rollbacks.add(new Rollback(new TreeSet<>(failed), chain, plan.rollback()));
            for (int r : plan.rollback()) {
                restarting[r] = true;
            }
        }
    }

    @Override
    public void onRollback(RecoveryPlan plan) {
        synchronized (lock) {
            for (int r : plan.rollback()) {
                restarting[r] = true;
            }
        }
    }

    /** The quota, the channels switched off (source, destination, in order) and every rollback set. */
    @Override
    public java.util.Map<String, Object> runRecord() {
        synchronized (lock) {
            java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("logQuotaBytes", quotaBytes);
            m.put("switchOffOrder", order.toString());
            m.put("channelsSwitchedOff", switchOffs.stream().map(int[]::clone).toList());
            m.put("quotaOverruns", overruns);
            m.put("largestQuotaExcessBytes", largestExcess);
            m.put(
                    "rollbackSets",
                    rollbacks.stream()
                            .map(c -> java.util.Map.of(
                                    "failed", List.copyOf(c.failed()),
                                    "ranks", List.copyOf(c.rolledBack()),
                                    "chain", c.chain().depth()))
                            .toList());
            return m;
        }
    }

    @Override
    public List<String> summary() {
        synchronized (lock) {
            StringBuilder b = new StringBuilder();
            b.append(String.format(
                    java.util.Locale.ROOT,
                    "mcml: quota %.1f KiB per rank, %d channel(s) switched off (%s first)",
                    quotaBytes / 1024.0,
                    switchOffs.size(),
                    order));
            for (int[] c : switchOffs.subList(0, Math.min(8, switchOffs.size()))) {
                b.append(' ').append(c[0]).append("->").append(c[1]);
            }
            if (switchOffs.size() > 8) {
                b.append(" ...");
            }
            if (overruns > 0) {
                b.append(String.format(
                        java.util.Locale.ROOT,
                        "; %d frame(s) logged over the quota during recoveries (at most %d bytes over)",
                        overruns,
                        largestExcess));
            }
            for (Rollback r : rollbacks) {
                b.append("\n  mcml: crash of ")
                        .append(r.failed())
                        .append(" rolled back ")
                        .append(r.rolledBack())
                        .append(" (chain of ")
                        .append(r.chain().depth())
                        .append(')');
            }
            return List.of(b.toString());
        }
    }

    /** A plan, for the run record: the crashed ranks, their chain, what rolled back (all: a global rollback). */
    private record Rollback(Set<Integer> failed, Chain chain, Set<Integer> rolledBack) {}

    private final List<Rollback> rollbacks = new ArrayList<>();

    /** Every channel switched off so far, in order: {source, destination}. */
    public List<int[]> switchOffs() {
        synchronized (lock) {
            return List.copyOf(switchOffs);
        }
    }
}
