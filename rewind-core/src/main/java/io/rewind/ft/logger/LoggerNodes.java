package io.rewind.ft.logger;

import io.rewind.ft.RollbackChains;
import java.util.ArrayList;
import java.util.Collections;
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
        this(config, ranks, null);
    }

    /**
     * Logger nodes made by {@code remote} (index, this) when they live elsewhere (logger processes), or
     * in this JVM when it is null.
     */
    public LoggerNodes(
            LoggerConfig config, int ranks, java.util.function.BiFunction<Integer, LoggerNodes, LoggerNode> remote) {
        if (!config.enabled()) {
            throw new IllegalArgumentException("no logger nodes configured");
        }
        this.config = config;
        this.nodes = new LoggerNode[config.loggers()];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = remote != null
                    ? remote.apply(i, this)
                    : new LocalLoggerNode(i, config.capacityBytes(), config.folderOf(i), config.dieAtDump(i), this);
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

    /** The lock every logger's bookkeeping is guarded by (for logger nodes that live elsewhere). */
    public Object lock() {
        return lock;
    }

    /** The client of a new incarnation of {@code rank} (the latest one's log is the rank's now). */
    public LoggerClient clientFor(int rank) {
        LoggerClient c = new LoggerClient(this, rank, config);
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
                if (!node.alive()) {
                    continue; // a dead logger is not asked
                }
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

    /**
     * Lock held: {@code dump}'s part at {@code node} was stored as block {@code id}: each entry that made it
     * into the block gets its placement there. Returns those payloads (what the block holds).
     */
    List<DumpedPayload> placed(LoggerNode node, Dump dump, DumpBlock block, long id) {
        List<DumpedPayload> held = new ArrayList<>();
        for (int i = 0; i < block.offsets().length; i++) {
            if (block.offsets()[i] >= 0) {
                DumpedPayload p = dump.payloads[i];
                p.placements.add(new DumpedPayload.Placement(node, id, block.offsets()[i]));
                held.add(p);
            }
        }
        return held;
    }

    /** Records a dump's part stored at a logger elsewhere as block {@code id} (see {@link #placed}). */
    public List<DumpedPayload> stored(LoggerNode node, Dump dump, DumpBlock block, long id) {
        synchronized (lock) {
            return node.alive() ? placed(node, dump, block, id) : List.of();
        }
    }

    /** A logger elsewhere is gone (its process exited, its link closed). */
    public void died(LoggerNode node, String reason) {
        synchronized (lock) {
            if (node.alive()) {
                die(node, reason);
            }
        }
    }

    /** Lock held: {@code node} dies; the payloads only it held are lost. */
    void die(LoggerNode node, String reason) {
        int lostNow = 0;
        Set<Integer> owners = new TreeSet<>();
        for (DumpedPayload p : node.die()) {
            if (p.attached
                    && !p.released
                    && p.placements.stream().noneMatch(at -> at.node().alive())
                    && lost.add(p)) {
                lostNow++;
                owners.add(p.owner.rank());
            }
        }
        owners.forEach(this::lostChanged);
        // Said in the summary and the run record: this may run on a rank's thread, whose output is the
        // program's.
        deaths.add("logger " + node.index() + " " + reason + ": " + lostNow + " logged message(s) it alone held"
                + " lost (their senders regenerate them if a rank needs them)");
    }

    /** Lock held: a payload is no longer needed. */
    void released(DumpedPayload p) {
        if (lost.remove(p)) {
            lostChanged(p.owner.rank());
        }
    }

    /**
     * Told, with a rank and the destinations of its lost messages, whenever that set changes (a rank
     * process tells its launcher, which plans recoveries). Lock held when called.
     */
    public void onLostChange(java.util.function.BiConsumer<Integer, int[]> listener) {
        synchronized (lock) {
            this.lostListener = listener;
        }
    }

    private java.util.function.BiConsumer<Integer, int[]> lostListener;

    private void lostChanged(int rank) {
        if (lostListener != null) {
            lostListener.accept(rank, lostTo().getOrDefault(rank, new int[0]));
        }
    }

    /** Lock held: per sender rank, the destinations of its lost messages. */
    private Map<Integer, int[]> lostTo() {
        Map<Integer, Set<Integer>> to = new java.util.TreeMap<>();
        for (DumpedPayload p : lost) {
            Set<Integer> d = to.computeIfAbsent(p.owner.rank(), r -> new TreeSet<>());
            for (int x : p.destinations) {
                d.add(x);
            }
        }
        Map<Integer, int[]> out = new java.util.TreeMap<>();
        to.forEach((r, d) -> out.put(r, d.stream().mapToInt(Integer::intValue).toArray()));
        return out;
    }

    /**
     * The ranks that must roll back with {@code failed} because a logger died holding messages they
     * sent to a rolling-back rank (only a re-execution regenerates those), transitively; with a note
     * for the job's output. Empty when nothing needed is lost.
     */
    public Rollback sendersToRollBack(Set<Integer> failed) {
        synchronized (lock) {
            Rollback r = chain(failed, lostTo());
            if (!r.senders().isEmpty()) {
                rollbacks.add(r.record(failed));
            }
            return r;
        }
    }

    /**
     * The senders that roll back with {@code failed}, given per sender the destinations of its messages
     * that only dead loggers held ({@code lostTo}): every sender of lost messages to a rolling-back rank,
     * transitively.
     */
    public static Rollback chain(Set<Integer> failed, Map<Integer, int[]> lostTo) {
        // The shared rollback chain with "channel lost at a logger" as the unlogged channel: a sender
        // rolls back with any rolling-back rank it lost messages to.
        int n = 0;
        for (int r : failed) {
            n = Math.max(n, r + 1);
        }
        for (Map.Entry<Integer, int[]> e : lostTo.entrySet()) {
            n = Math.max(n, e.getKey() + 1);
            for (int d : e.getValue()) {
                n = Math.max(n, d + 1);
            }
        }
        boolean[][] lostOn = new boolean[n][n];
        lostTo.forEach((sender, destinations) -> {
            for (int d : destinations) {
                lostOn[sender][d] = true;
            }
        });
        Set<Integer> dragged = RollbackChains.rollbackSet(failed, lostOn).dragged();
        if (dragged.isEmpty()) {
            return Rollback.NONE;
        }
        return new Rollback(
                dragged,
                List.of("ranks " + dragged + " roll back with " + new TreeSet<>(failed) + ": a logger that died held"
                        + " messages they sent that the rolled-back ranks need, and only a re-execution sends them"
                        + " again"));
    }

    /** Senders to roll back with a failure, and why. */
    public record Rollback(Set<Integer> senders, List<String> notes) {
        /** No sender to roll back. */
        public static final Rollback NONE = new Rollback(Set.of(), List.of());

        /** The run record's entry for this rollback. */
        public Map<String, Object> record(Set<Integer> failed) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("failed", List.copyOf(new TreeSet<>(failed)));
            r.put("senders", List.copyOf(senders));
            return r;
        }
    }

    /** Rank {@code rank}'s dump figures as words (a rank process sends them to its launcher). */
    public long[] figureWords(int rank) {
        peakLogBytes(rank);
        return figures[rank].words();
    }

    /**
     * The run record's {@code loggerNodes} object of a job whose ranks and loggers are processes: the
     * ranks' figures as their processes sent them (per rank, every incarnation's words, added up), the
     * loggers' entries, deaths and sender rollbacks as the launcher saw them.
     */
    public static Map<String, Object> record(
            LoggerConfig config,
            List<List<long[]>> rankWords,
            List<Map<String, Object>> loggers,
            List<String> deaths,
            List<Map<String, Object>> rollbacks,
            int lostMessages) {
        Map<String, Object> m = header(config);
        List<Map<String, Object>> ranks = new ArrayList<>();
        for (int r = 0; r < rankWords.size(); r++) {
            RankDumpFigures f = new RankDumpFigures();
            rankWords.get(r).forEach(f::add);
            ranks.add(f.record(r));
        }
        m.put("dumpsPerRank", ranks);
        m.put("loggerNodes", List.copyOf(loggers));
        m.put("loggerDeaths", List.copyOf(deaths));
        m.put("senderRollbacks", List.copyOf(rollbacks));
        m.put("lostMessages", lostMessages);
        return m;
    }

    private static Map<String, Object> header(LoggerConfig config) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("loggers", config.loggers());
        m.put("logQuotaBytes", config.quotaBytes());
        m.put("dumpThresholdBytes", config.thresholdBytes());
        m.put("loggerReplicas", config.replicas());
        m.put("loggerCapacityBytes", config.capacityBytes() == Long.MAX_VALUE ? -1 : config.capacityBytes());
        m.put("dumpAlphaSeconds", config.alphaSeconds());
        return m;
    }

    /** Summary lines from a run record's {@code loggerNodes} object. */
    @SuppressWarnings("unchecked")
    public static List<String> summary(Map<String, Object> record) {
        long dumps = 0;
        long bytes = 0;
        long declines = 0;
        long waits = 0;
        long over = 0;
        long peak = 0;
        int peakRank = 0;
        for (Map<String, Object> r : (List<Map<String, Object>>) record.get("dumpsPerRank")) {
            dumps += ((Number) r.get("dumps")).longValue() + ((Number) r.get("directStores")).longValue();
            bytes += ((Number) r.get("dumpedBytes")).longValue();
            declines += ((Number) r.get("loggerDeclines")).longValue();
            waits += ((Number) r.get("blockingWaits")).longValue();
            over += ((Number) r.get("overQuotaFrames")).longValue();
            long p = ((Number) r.get("peakLogBytes")).longValue();
            if (p > peak) {
                peak = p;
                peakRank = ((Number) r.get("rank")).intValue();
            }
        }
        List<String> out = new ArrayList<>();
        out.add(String.format(
                Locale.ROOT,
                "loggers: %d logger(s), quota %s per rank: %d dump(s), %s dumped, %d decline(s), %d blocking wait(s);"
                        + " peak log %s (rank %d)%s",
                ((Number) record.get("loggers")).intValue(),
                bytes(((Number) record.get("logQuotaBytes")).longValue()),
                dumps,
                bytes(bytes),
                declines,
                waits,
                bytes(peak),
                peakRank,
                over > 0 ? "; " + over + " frame(s) logged over the quota (no logger had room)" : ""));
        for (Object d : (List<Object>) record.get("loggerDeaths")) {
            out.add("  loggers: " + d);
        }
        for (Map<String, Object> r : (List<Map<String, Object>>) record.get("senderRollbacks")) {
            out.add("  loggers: crash of " + r.get("failed") + " rolled back senders " + r.get("senders"));
        }
        return out;
    }

    /** Dumps, bytes dumped, declines, blocking waits and peak log per rank; every logger; deaths. */
    public Map<String, Object> runRecord() {
        List<List<long[]>> words = new ArrayList<>();
        for (int r = 0; r < figures.length; r++) {
            words.add(List.of(figureWords(r)));
        }
        synchronized (lock) {
            List<Map<String, Object>> loggers = new ArrayList<>();
            for (LoggerNode n : nodes) {
                loggers.add(n.record());
            }
            return record(config, words, loggers, deaths, rollbacks, lost.size());
        }
    }

    /** The summary's lines. */
    public List<String> summary() {
        return summary(runRecord());
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
