package io.rewind.ft.spbc;

import io.rewind.ft.Capability;
import io.rewind.ft.ClusterLayout;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolOption;
import io.rewind.ft.ProtocolServices;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.RecoveryView;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.sender.SenderLoggingProtocol;
import io.rewind.ft.sender.SenderLoggingRank;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * SPBC, the hierarchical protocol for channel-deterministic programs: ranks are partitioned into
 * clusters; messages inside a cluster are not logged, messages that cross clusters are logged at the
 * sender; no determinant is recorded anywhere. A failure rolls back the whole cluster of the failed
 * rank (its checkpoints form a consistent line, like the global protocol's), and the other clusters
 * replay the logged messages it lacks and skip what it sends again that they already hold.
 *
 * <p>Without determinants, a re-executed cluster must send on every channel that leaves it what it
 * sent the first time: the program must be channel-deterministic. Anonymous receives and
 * non-deterministic completion functions are where a program may not be; inside a declared
 * communication pattern ({@code io.rewind.api.Patterns}) they are taken as the programmer's promise
 * that it is. Outside one, a rank reports its first such choice after each of its recovery lines
 * ({@link SpbcOutcomes}), and a failure whose cluster made one after the line it restarts from rolls
 * every rank back instead (the global protocol's answer, correct for any program), with a note
 * saying why. No program gets a silently wrong answer.
 */
public final class SpbcProtocol extends SenderLoggingProtocol {
    /** The option that partitions the ranks ({@link ClusterLayout}). */
    public static final ProtocolOption CLUSTERS_OPTION = ProtocolOption.of(
                    "--clusters",
                    "K|each|node|FILE",
                    "default",
                    "For --protocol spbc, the clusters: K blocks of contiguous ranks, one cluster per rank (each), "
                            + "one per node (node: with ranks as processes), or a cluster file written by 'rewind "
                            + "analyze cluster'. Default: two blocks.",
                    SpbcProtocol::clustersSpec)
            // A layout that does not fit the job is refused before it runs.
            .checkedWith((spec, ranks) -> ClusterLayout.parse(spec).assign(ranks, null))
            // One cluster per node is fixed from the first placement: a rank restarted on another node
            // stays in its cluster.
            .placedWith((spec, nodeOfRank) -> ClusterLayout.explicit(
                            ClusterLayout.parse(spec).assign(nodeOfRank.length, nodeOfRank))
                    .spec());

    /** The protocol as the registry lists it. */
    public static ProtocolDescriptor descriptor() {
        return ProtocolDescriptor.builder("spbc", SpbcProtocol::new)
                .title("hierarchical logging")
                .summary("hierarchical, for channel-deterministic programs: coordinated checkpoints inside clusters, "
                        + "messages between clusters logged at the sender, no determinants; the failed rank's "
                        + "cluster rolls back")
                .capabilities(
                        Capability.RECOVERS, Capability.CHECKPOINTS, Capability.LOGS_PAYLOADS, Capability.USES_CLUSTERS)
                .option(CLUSTERS_OPTION)
                .build();
    }

    /**
     * A number of blocks, {@code each}, {@code node}, an explicit layout, or a cluster file read into
     * an explicit layout (the value that travels to rank processes names no file).
     */
    static String clustersSpec(String spec) {
        String s = spec.strip();
        if (s.equalsIgnoreCase("node")
                || s.equalsIgnoreCase("each")
                || s.equalsIgnoreCase("default")
                || s.startsWith("ranks:")
                || s.chars().allMatch(Character::isDigit) && !s.isEmpty()) {
            return ClusterLayout.parse(s).spec();
        }
        java.nio.file.Path file = java.nio.file.Path.of(s);
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new IllegalArgumentException("--clusters " + spec
                    + ": neither a number of clusters, nor 'node', nor a cluster file that exists");
        }
        return ClusterLayout.readFile(file).spec();
    }

    /** Report: a non-deterministic choice outside a declared pattern (the only report this protocol makes). */
    static final long UNGUARDED_CHOICE = 1;

    private int[] clusterOf;
    /** The ranks of each cluster, in rank order. */
    private int[][] members;

    private final Object lock = new Object();
    /** Per rank: the newest line it wrote or restarted from, as far as this instance has heard. Guarded by lock. */
    private long[] newestLine;
    /**
     * Per rank: the newest line before its latest unguarded non-deterministic choice (-1: none). A
     * restart from a line at or before it re-executes that choice. Guarded by lock.
     */
    private long[] unguardedAfter;

    /** The clusters the run used, so that {@code rewind report} draws them rather than ones of its own. */
    @Override
    public java.util.Map<String, Object> runRecord() {
        return clusterOf == null ? java.util.Map.of() : java.util.Map.of("clusterOf", clusterOf.clone());
    }

    @Override
    public String name() {
        return "spbc";
    }

    @Override
    public boolean usesClusters() {
        return true;
    }

    @Override
    public void start(ProtocolServices s) {
        super.start(s);
        String spec = s.options().get(CLUSTERS_OPTION.name());
        this.clusterOf = ClusterLayout.parse(spec != null ? spec : CLUSTERS_OPTION.defaultValue())
                .assign(s.ranks(), null);
        int clusters = Arrays.stream(clusterOf).max().orElse(0) + 1;
        this.members = new int[clusters][];
        for (int c = 0; c < clusters; c++) {
            int cluster = c;
            members[c] = java.util.stream.IntStream.range(0, clusterOf.length)
                    .filter(r -> clusterOf[r] == cluster)
                    .toArray();
        }
        this.newestLine = new long[s.ranks()];
        this.unguardedAfter = new long[s.ranks()];
        Arrays.fill(unguardedAfter, -1);
    }

    /** The cluster of each rank. */
    public int[] clusterOf() {
        return clusterOf.clone();
    }

    /** Only channels that leave the rank's cluster logged; no outcomes kept (unguarded choices reported). */
    @Override
    protected SenderLoggingRank composeRank(int rank, int incarnation, PayloadLog log) {
        int cluster = clusterOf[rank];
        return new SenderLoggingRank(
                name(),
                destination -> clusterOf[destination] != cluster,
                rank,
                incarnation,
                log,
                new SpbcOutcomes(rank, incarnation, services.reports()),
                // A receiver rolls back with its whole cluster, to a line all members hold: its log of a
                // channel may only be trimmed up to what the cluster's oldest kept line holds.
                (receiver, channel) -> lines.safelyHeldUpTo(receiver, channel, members[clusterOf[receiver]]),
                services.applicationLevelCollectives());
    }

    @Override
    public void onCheckpoint(int rank, long line, Map<Long, Long> frontiers) {
        synchronized (lock) {
            newestLine[rank] = Math.max(newestLine[rank], line);
        }
    }

    @Override
    public long[] onReport(int rank, int incarnation, long[] words) {
        if (words.length >= 1 && words[0] == UNGUARDED_CHOICE) {
            synchronized (lock) {
                long after = Math.max(newestLine[rank], words.length > 1 ? words[1] : 0);
                unguardedAfter[rank] = Math.max(unguardedAfter[rank], after);
            }
        }
        return null;
    }

    @Override
    public void onRollback(RecoveryPlan plan) {
        synchronized (lock) {
            for (int r : plan.rollback()) {
                newestLine[r] = plan.line();
            }
        }
    }

    /**
     * The clusters of the failed ranks, from the newest line all their ranks hold, but no further
     * forward than the newest line of every other rank (as under {@code pessimistic}: the cluster's
     * logs are lost, and a peer restarting later from its own newest line may need what the cluster
     * sent after it, which only a re-execution from early enough sends again). Every rank, from the
     * newest line all hold, when a rolled-back rank lacks a usable line or made an unguarded
     * non-deterministic choice after the line.
     */
    @Override
    public RecoveryPlan plan(Set<Integer> failed, RecoveryView view) {
        Set<Integer> rollback = new TreeSet<>();
        for (int c : clusters(failed)) {
            for (int r : members[c]) {
                rollback.add(r);
            }
        }
        if (rollback.size() == view.ranks()) {
            return RecoveryPlan.everyRank(view.ranks(), view.newestLineAllHold(), List.of());
        }
        long line = view.newestCompleteLine(rollback, view.newestLineOutside(rollback));
        if (line < 0) {
            return everyRank(view, io.rewind.ft.sender.LocalRollback.noCompleteLine(rollback));
        }
        for (int c : clusters(failed)) {
            long oldestKept = lines.oldestLineOfGroup(members[c]);
            if (oldestKept > 0 && line < oldestKept) {
                return everyRank(
                        view,
                        "cluster " + c + " has no usable recovery line common to its ranks "
                                + Arrays.toString(members[c]) + " among the kept lines (the newest it could restart"
                                + " from is " + line + ", the others' logs reach back to line " + oldestKept
                                + "), so every rank rolls back");
            }
        }
        List<Integer> unguarded = new ArrayList<>();
        synchronized (lock) {
            for (int r : rollback) {
                if (unguardedAfter[r] >= line) {
                    unguarded.add(r);
                }
            }
        }
        if (!unguarded.isEmpty()) {
            return everyRank(
                    view,
                    "rank" + (unguarded.size() > 1 ? "s " : " ") + unguarded
                            + " made non-deterministic choices spbc cannot repeat (wildcard receives or probes"
                            + " outside a declared communication pattern, or completion functions) after recovery"
                            + " line " + line
                            + "; spbc keeps no determinants, so cluster" + (failed.size() > 1 ? "s " : " ")
                            + clusters(failed) + " might send other clusters something else when re-executed:"
                            + " every rank rolls back");
        }
        // Lines after it stay: the re-execution sends every other cluster what the first one did (the
        // program is channel-deterministic, or the choices it made were inside declared patterns), so a
        // later recovery may combine them with lines written before this one, as under pessimistic.
        return new RecoveryPlan(rollback, line, false, List.of());
    }

    private Set<Integer> clusters(Set<Integer> ranks) {
        Set<Integer> out = new TreeSet<>();
        for (int r : ranks) {
            out.add(clusterOf[r]);
        }
        return out;
    }

    private static RecoveryPlan everyRank(RecoveryView view, String note) {
        return RecoveryPlan.everyRank(view.ranks(), view.newestLineAllHold(), List.of(note));
    }
}
