package io.rewind.ft.logger;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The logger nodes of one job (section 3 of "Addressing the last roadblock for message logging in
 * HPC"): K service ranks, not application ranks, that take the oldest parts of the ranks' payload
 * logs so that no rank's log holds more than its quota in memory, and give them back for replay.
 *
 * <p>It also keeps what the job must know when a logger dies: the payloads only that logger held.
 * They are lost; nothing happens until a rank that needs them fails, and then their senders roll
 * back with it to regenerate them ({@link #sendersToRollBack}). With two replicas one death loses
 * nothing.
 *
 * <p>Thread-safe; one lock ({@link #lock}) guards every logger's bookkeeping. Payload copies into and
 * out of the loggers run outside it, on the loggers' threads and the replaying ranks'.
 */
public final class LoggerNodes implements AutoCloseable {
    final Object lock = new Object();
    private final LoggerConfig config;
    private final LoggerNode[] nodes;
    private final RankDumpFigures[] figures;
    /** Payloads attached to a sender's index whose every logger died, until released. Lock held. */
    private final Set<DumpedPayload> lost = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Deaths, in order. Lock held. */
    private final List<String> deaths = new ArrayList<>();
    /** Every rollback of senders a death caused. Lock held. */
    private final List<Map<String, Object>> rollbacks = new ArrayList<>();

    public LoggerNodes(LoggerConfig config, int ranks) {
        if (!config.enabled()) {
            throw new IllegalArgumentException("no logger nodes configured");
        }
        this.config = config;
        this.nodes = new LoggerNode[config.loggers()];
        for (int i = 0; i < nodes.length; i++) {
            long dieAt = 0;
            for (LoggerConfig.Kill k : config.kills()) {
                if (k.logger() == i) {
                    dieAt = dieAt == 0 ? k.atDump() : Math.min(dieAt, k.atDump());
                }
            }
            nodes[i] = new LoggerNode(i, config.capacityBytes(), dieAt, this);
        }
        this.clients = new LoggerClient[ranks];
        this.figures = new RankDumpFigures[ranks];
        for (int r = 0; r < ranks; r++) {
            figures[r] = new RankDumpFigures();
        }
    }

    public LoggerConfig config() {
        return config;
    }

    /** The client of one rank incarnation. */
    public LoggerClient clientFor(int rank, int incarnation) {
        LoggerClient c = new LoggerClient(this, rank, incarnation, config);
        clients[rank] = c;
        return c;
    }

    /** The latest client of each rank, for its log's high-water mark while it runs. */
    private final LoggerClient[] clients;

    /** The largest payload rank {@code rank}'s log held in memory, over all its incarnations so far. */
    public long peakLogBytes(int rank) {
        LoggerClient c = clients[rank];
        if (c != null) {
            figures[rank].peakLog(c.currentPeak());
        }
        return figures[rank].peakLogBytes();
    }

    RankDumpFigures figures(int rank) {
        return figures[rank];
    }

    /**
     * Asks loggers for {@code bytes} of room, round-robin from {@code rank mod K}, until {@code
     * replicas} accepted or every one was asked. The loggers that accepted, in order.
     */
    List<LoggerNode> reserve(int rank, long bytes, int replicas) {
        List<LoggerNode> out = new ArrayList<>(replicas);
        long declines = 0;
        synchronized (lock) {
            for (int attempt = 0; attempt < nodes.length && out.size() < replicas; attempt++) {
                LoggerNode node = nodes[(rank + attempt) % nodes.length];
                if (node.reserve(bytes)) {
                    out.add(node);
                } else {
                    declines++;
                }
            }
        }
        figures[rank].loggerDeclined(declines);
        return out;
    }

    /** Kills logger {@code index} now (a test's or an operator's doing). */
    public void kill(int index) {
        synchronized (lock) {
            if (nodes[index].alive()) {
                die(nodes[index], "killed");
            }
        }
    }

    /** Whether logger {@code index} is alive. */
    public boolean alive(int index) {
        synchronized (lock) {
            return nodes[index].alive();
        }
    }

    /** Lock held: {@code node} dies; the payloads only it held are lost. */
    void die(LoggerNode node, String reason) {
        int lostNow = 0;
        for (DumpedPayload p : node.die()) {
            if (p.attached
                    && !p.released
                    && p.placements.stream().noneMatch(at -> at.node().alive())) {
                if (lost.add(p)) {
                    lostNow++;
                }
            }
        }
        // Said in the summary and the run record: this may run on a rank's thread, whose output is the
        // program's.
        deaths.add("logger " + node.index() + " " + reason + ": " + lostNow + " logged message(s) it alone held"
                + " lost (their senders regenerate them if a rank needs them)");
    }

    /** Lock held: a payload is no longer needed. */
    void released(DumpedPayload p) {
        lost.remove(p);
    }

    /**
     * The ranks that must roll back with {@code failed} because a logger died holding messages they
     * sent to a rolling-back rank (only a re-execution regenerates those), transitively; with a note
     * for the job's output. Empty when nothing needed is lost.
     */
    public Rollback sendersToRollBack(Set<Integer> failed) {
        synchronized (lock) {
            Set<Integer> set = new TreeSet<>(failed);
            Set<Integer> dragged = new TreeSet<>();
            Deque<Integer> queue = new ArrayDeque<>(failed);
            while (!queue.isEmpty()) {
                int receiver = queue.poll();
                for (DumpedPayload p : lost) {
                    int sender = p.owner.rank();
                    if (set.contains(sender)) {
                        continue;
                    }
                    for (int d : p.destinations) {
                        if (d == receiver) {
                            set.add(sender);
                            dragged.add(sender);
                            queue.add(sender);
                            break;
                        }
                    }
                }
            }
            if (dragged.isEmpty()) {
                return new Rollback(Set.of(), List.of());
            }
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("failed", List.copyOf(new TreeSet<>(failed)));
            r.put("senders", List.copyOf(dragged));
            rollbacks.add(r);
            return new Rollback(
                    dragged,
                    List.of("ranks " + dragged + " roll back with " + new TreeSet<>(failed)
                            + ": a logger that died held"
                            + " messages they sent that the rolled-back ranks need, and only a re-execution sends them"
                            + " again"));
        }
    }

    /** Senders to roll back with a failure, and why. */
    public record Rollback(Set<Integer> senders, List<String> notes) {}

    /** Dumps, bytes dumped, declines, blocking waits and peak log per rank; every logger; deaths. */
    public Map<String, Object> runRecord() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("loggers", config.loggers());
        m.put("logQuotaBytes", config.quotaBytes());
        m.put("dumpThresholdBytes", config.thresholdBytes());
        m.put("loggerReplicas", config.replicas());
        m.put("loggerCapacityBytes", config.capacityBytes() == Long.MAX_VALUE ? -1 : config.capacityBytes());
        m.put("dumpAlphaSeconds", config.alphaSeconds());
        List<Map<String, Object>> ranks = new ArrayList<>();
        for (int r = 0; r < figures.length; r++) {
            peakLogBytes(r);
            ranks.add(figures[r].record(r));
        }
        m.put("dumpsPerRank", ranks);
        synchronized (lock) {
            List<Map<String, Object>> loggers = new ArrayList<>();
            for (LoggerNode n : nodes) {
                loggers.add(n.record());
            }
            m.put("loggerNodes", loggers);
            m.put("loggerDeaths", List.copyOf(deaths));
            m.put("senderRollbacks", List.copyOf(rollbacks));
            m.put("lostMessages", lost.size());
        }
        return m;
    }

    /** The summary's lines. */
    public List<String> summary() {
        long dumps = 0;
        long bytes = 0;
        long declines = 0;
        long waits = 0;
        long over = 0;
        long peak = 0;
        int peakRank = 0;
        for (int r = 0; r < figures.length; r++) {
            peakLogBytes(r);
            RankDumpFigures f = figures[r];
            dumps += f.dumps();
            bytes += f.dumpedBytes();
            declines += f.declines();
            waits += f.blockingWaits();
            over += f.overQuotaFrames();
            if (f.peakLogBytes() > peak) {
                peak = f.peakLogBytes();
                peakRank = r;
            }
        }
        List<String> out = new ArrayList<>();
        out.add(String.format(
                Locale.ROOT,
                "loggers: %d logger(s), quota %s per rank: %d dump(s), %s dumped, %d decline(s), %d blocking wait(s);"
                        + " peak log %s (rank %d)%s",
                config.loggers(),
                bytes(config.quotaBytes()),
                dumps,
                bytes(bytes),
                declines,
                waits,
                bytes(peak),
                peakRank,
                over > 0 ? "; " + over + " frame(s) logged over the quota (no logger had room)" : ""));
        synchronized (lock) {
            for (String d : deaths) {
                out.add("  loggers: " + d);
            }
            for (Map<String, Object> r : rollbacks) {
                out.add("  loggers: crash of " + r.get("failed") + " rolled back senders " + r.get("senders"));
            }
        }
        return out;
    }

    private static String bytes(long b) {
        if (b >= 1L << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", b / 1048576.0);
        }
        return String.format(Locale.ROOT, "%.1f KiB", b / 1024.0);
    }

    /** The job ended: the loggers' threads stop. */
    @Override
    public void close() {
        for (LoggerNode n : nodes) {
            n.stop();
        }
    }
}
