package io.rewind.cli.bench;

import io.rewind.ft.ClusterLayout;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.PointListener;
import io.rewind.runtime.RunReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLongArray;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rewind bench overhead}: failure-free cost of each protocol on each workload and rank
 * count, as a ratio of run time against protocol {@code none}, with what the protocol logged and
 * checkpointed. Runs are interleaved (every repetition runs every variant once, in turn) so that
 * drift of the machine touches all variants alike.
 *
 * <p>On a shared machine whose speed drifts by tens of percent between runs, whole runs one after
 * another cannot show a 1 % cost. {@code --paired} runs the variants' jobs of a workload at once and
 * lets them take turns one iteration at a time ({@link Turnstile}), so iteration k of every protocol
 * runs within milliseconds of iteration k of {@code none}; the paired ratios' median and quartiles
 * are reported, as {@link LoggingBench} does for ping-pong batches.
 */
@Command(
        name = "overhead",
        mixinStandardHelpOptions = true,
        header = "Failure-free overhead of each protocol: workloads x protocols x rank counts.",
        description = {
            "Runs workloads x protocols x rank counts without failures, interleaved and repeated. "
                    + "Reports the median run time and its spread, the ratio to protocol none, the per-rank log"
                    + " growth (average and maximum MB/s), logged bytes and entries, determinants (event logger"
                    + " or piggybacked, with piggybacked bytes per message sent), and checkpoint size and time."
                    + " Writes overhead.json, overhead.csv and overhead.md into --out."
        })
public final class OverheadBench implements Callable<Integer> {
    @Option(
            names = "--workloads",
            defaultValue = "all",
            description =
                    "Comma-separated workloads, or all "
                            + "(stencil3d, cg, heat, amr, bfs, discovery, montecarlo, masterworker). Default: ${DEFAULT-VALUE}.")
    String workloads;

    @Option(
            names = "--protocols",
            defaultValue = "none,global,pessimistic,spbc",
            description = "Protocols to compare; none is always added as the reference. Default: ${DEFAULT-VALUE}.")
    String protocols;

    @Option(
            names = {"-n", "--ranks"},
            defaultValue = "4",
            description = "Comma-separated rank counts. " + "Default: ${DEFAULT-VALUE}.")
    String ranks;

    @Option(names = "--repeat", defaultValue = "3", description = "Runs of every variant. Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Option(
            names = "--size",
            defaultValue = "small",
            description = "Problem size: " + BenchWorkload.SIZES + ". " + "Default: ${DEFAULT-VALUE}.")
    String size;

    @Option(
            names = "--checkpoints",
            defaultValue = "4",
            description = "Checkpoints per run (checkpoint every iterations/K points). Default: ${DEFAULT-VALUE}.")
    int checkpoints;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "300s",
            converter = io.rewind.cli.DurationConverter.class,
            description =
                    "How long a run may take, e.g. 90s or 10m (a bare number is seconds). Default: ${DEFAULT-VALUE}.")
    java.time.Duration timeout;

    @Option(
            names = "--clusters",
            defaultValue = "4",
            description = "Clusters of spbc: K blocks of contiguous ranks (at most one per rank). "
                    + "Default: ${DEFAULT-VALUE}.")
    int clusters;

    @Option(
            names = "--paired",
            description = "Run the protocols' jobs of a workload at once in this JVM, taking turns one iteration "
                    + "(Checkpointer.point() to the next) at a time, and divide each protocol's iteration k by "
                    + "none's iteration k: reports the median of those paired ratios with quartiles, and the "
                    + "ratio of the summed iterations of each repetition. Writes overhead-paired.*.")
    boolean paired;

    @Option(
            names = "--log-reserve",
            defaultValue = "none",
            description = "none, measured or both. measured: each logging protocol's ranks reserve (rewind run "
                    + "--log-reserve) what the largest rank log of that protocol's untimed warm-up run needed, "
                    + "so its log memory is faulted in when the log opens instead of while the timed iterations"
                    + " write it (on a machine where a fault into new memory is dear, that is most of what "
                    + "logging costs); reported as 'PROTOCOL (reserved)'. both: each logging protocol runs "
                    + "without and with its reserve, side by side. Default: ${DEFAULT-VALUE}.")
    String logReserve;

    @Option(
            names = "--warm-up",
            defaultValue = "0",
            description = "With --paired: paired runs of every workload made first and not counted, after the one "
                    + "untimed run of each variant. Ranks of one JVM each define the program and package mpi "
                    + "anew, so the compiler is busy with them for the first tens of seconds and the runtime's "
                    + "own code (the protocols' included) reaches its optimised form late on 2 cores. Default: "
                    + "${DEFAULT-VALUE}.")
    int warmUp;

    @Option(
            names = "--control",
            description = "With --paired: one more job of protocol none takes turns beside the others and is "
                    + "reported as 'none (control)'. Its ratios to the reference none show what the method "
                    + "resolves: a difference the control's confidence interval spans cannot be seen.")
    boolean control;

    @Option(
            names = "--dummy-log",
            description = "One more job of each protocol that logs payloads, whose log keeps nothing (the dummy "
                    + "backend: no copy, no storage), reported as 'PROTOCOL (dummy log)'. What it costs is what"
                    + " the protocol adds apart from the log's copies and memory.")
    boolean dummyLog;

    @Option(names = "--out", defaultValue = "runs/overhead", description = "Output folder. Default: ${DEFAULT-VALUE}.")
    Path out;

    /** How a variant's job differs from its protocol's plain job. */
    private enum Variant {
        PLAIN(""),
        /** Its ranks' logs reserve what its warm-up run needed ({@code --log-reserve}). */
        RESERVED(" (reserved)"),
        /** The second job of none, paired with the reference ({@code --control}). */
        CONTROL(" (control)"),
        /** Its ranks' logs keep nothing: the dummy backend ({@code --dummy-log}). */
        DUMMY_LOG(" (dummy log)");

        private final String suffix;

        Variant(String suffix) {
            this.suffix = suffix;
        }
    }

    /** A variant of a workload on a number of ranks. */
    private record Key(BenchWorkload workload, int ranks, ProtocolDescriptor protocol, Variant variant) {
        Key(BenchWorkload workload, int ranks, ProtocolDescriptor protocol) {
            this(workload, ranks, protocol, Variant.PLAIN);
        }

        String label() {
            return protocol.name() + variant.suffix;
        }
    }

    /** The reserve each logging protocol's ranks take, by workload and protocol (--log-reserve measured). */
    private final Map<Key, Long> reserves = new LinkedHashMap<>();

    /** --log-reserve both: a logging protocol's plain job runs beside its reserved one. */
    private boolean plainBesideReserved;

    @Override
    public Integer call() throws IOException {
        List<BenchWorkload> ws;
        List<ProtocolDescriptor> ps;
        List<Integer> ns;
        BenchWorkload.Size sz;
        try {
            ws = BenchWorkload.parseList(workloads);
            ps = new ArrayList<>(Harness.protocols(protocols));
            ps.remove(ProtocolRegistry.NONE);
            ps.add(0, ProtocolRegistry.NONE);
            ns = Harness.ints(ranks);
            sz = BenchWorkload.parseSize(size);
        } catch (IllegalArgumentException e) {
            System.err.println("rewind bench overhead: " + e.getMessage());
            return 2;
        }
        boolean measuredReserve;
        switch (logReserve.trim().toLowerCase(Locale.ROOT)) {
            case "none" -> measuredReserve = false;
            case "measured" -> measuredReserve = true;
            case "both" -> {
                measuredReserve = true;
                plainBesideReserved = true;
            }
            default -> {
                System.err.println("rewind bench overhead: unknown --log-reserve '" + logReserve
                        + "' (use none, measured or both)");
                return 2;
            }
        }
        if (control && !paired) {
            System.err.println("rewind bench overhead: --control needs --paired (it is a paired job of none)");
            return 2;
        }
        if (warmUp < 0 || (warmUp > 0 && !paired)) {
            System.err.println("rewind bench overhead: --warm-up takes a count of at least 0, and needs --paired");
            return 2;
        }
        if (repeat < 1 || checkpoints < 0 || clusters < 1) {
            System.err.println(
                    "rewind bench overhead: --repeat and --clusters must be positive, --checkpoints " + "at least 0");
            return 2;
        }
        List<Integer> counts = ns;
        if (ws.stream().noneMatch(w -> counts.stream().anyMatch(n -> n >= w.minRanks()))) {
            System.err.println("rewind bench overhead: none of the workloads runs on " + ranks + " ranks");
            return 2;
        }
        for (BenchWorkload w : ws) {
            // One untimed run per workload, so the first timed variant does not pay for class loading and JIT;
            // paired, one of every protocol, as their jobs' iterations are compared one by one; with a measured
            // log reserve, one of every protocol on every rank count, whose largest rank log sizes its reserve.
            for (int n : ns) {
                if (n >= w.minRanks()) {
                    for (ProtocolDescriptor p : paired || measuredReserve ? ps : List.of(ProtocolRegistry.NONE)) {
                        JobResult warm = run(w, sz, n, p).execute();
                        long reserve = measuredReserve && warm.ok() ? Harness.reserveFor(warm.report()) : 0;
                        if (reserve > 0) {
                            reserves.put(new Key(w, n, p), reserve);
                            System.err.printf(
                                    Locale.ROOT,
                                    "  %s n=%d %s: log reserve %.1f MiB per rank%n",
                                    w.cliName(),
                                    n,
                                    p.name(),
                                    reserve / 1048576.0);
                        }
                    }
                    if (!measuredReserve) {
                        break;
                    }
                }
            }
        }
        if (paired) {
            return callPaired(ws, ps, ns, sz);
        }
        Map<Key, List<Double>> seconds = new LinkedHashMap<>();
        Map<Key, RunReport> last = new LinkedHashMap<>();
        Map<Key, String> result = new LinkedHashMap<>();
        for (int rep = 0; rep < repeat; rep++) {
            for (BenchWorkload w : ws) {
                for (int n : ns) {
                    if (n < w.minRanks()) {
                        continue;
                    }
                    for (Key k : variants(w, n, ps)) {
                        ProtocolDescriptor p = k.protocol();
                        Harness.Run run = run(w, sz, n, p);
                        JobResult r = execute(k, run, PointListener.NONE);
                        String line = Harness.resultLine(r, w.prefix());
                        if (!r.ok() || line == null) {
                            System.err.print("rewind bench overhead: " + w.cliName() + " on " + n + " ranks under "
                                    + k.label() + " failed\n  " + run.commandLine() + "\n" + r.describeFailures());
                            return 1;
                        }
                        String before = result.putIfAbsent(new Key(w, n, ProtocolRegistry.NONE), line);
                        if (before != null && !before.equals(line)) {
                            System.err.println("rewind bench overhead: " + w.cliName() + " on " + n + " ranks under "
                                    + k.label() + " printed\n  " + line + "\nbut the reference printed\n  " + before);
                            return 1;
                        }
                        seconds.computeIfAbsent(k, x -> new ArrayList<>())
                                .add(r.wallTime().toNanos() / 1e9);
                        last.put(k, r.report());
                        System.err.printf(
                                "  %s n=%d %s run %d: %.3f s%n",
                                w.cliName(), n, k.label(), rep + 1, r.wallTime().toNanos() / 1e9);
                    }
                }
            }
        }
        Harness.Table t = new Harness.Table(
                "workload",
                "workload",
                0,
                "ranks",
                "ranks",
                0,
                "protocol",
                "protocol",
                0,
                "clusters",
                "clusters",
                0,
                "runs",
                "runs",
                0,
                "median_s",
                "median s",
                3,
                "min_s",
                "min s",
                3,
                "max_s",
                "max s",
                3,
                "ratio",
                "ratio to none",
                3,
                "log_avg_MBps",
                "log MB/s per rank (avg)",
                2,
                "log_max_MBps",
                "log MB/s (max rank)",
                2,
                "logged_bytes",
                "logged bytes",
                0,
                "logged_entries",
                "logged entries",
                0,
                "determinants",
                "determinants",
                0,
                "checkpoints",
                "checkpoints",
                0,
                "checkpoint_bytes",
                "bytes per checkpoint",
                0,
                "checkpoint_ms",
                "ms per checkpoint",
                2);
        for (Map.Entry<Key, List<Double>> e : seconds.entrySet()) {
            Key k = e.getKey();
            List<Double> s = e.getValue();
            double med = Harness.median(s);
            double ref = Harness.median(seconds.get(new Key(k.workload(), k.ranks(), ProtocolRegistry.NONE)));
            RunReport rep = last.get(k);
            double wall = rep.wall().toNanos() / 1e9;
            double avgRate = rep.loggedBytes() / (double) k.ranks() / wall / 1e6;
            double maxRate = rep.maxRankLoggedBytes() / wall / 1e6;
            t.add(
                    k.workload().cliName(),
                    k.ranks(),
                    k.label(),
                    clustersCell(k.protocol(), k.ranks()),
                    s.size(),
                    med,
                    Harness.min(s),
                    Harness.max(s),
                    med / ref,
                    avgRate,
                    maxRate,
                    rep.loggedBytes(),
                    rep.loggedEntries(),
                    rep.events(),
                    rep.checkpoints(),
                    rep.checkpoints() == 0 ? 0L : rep.checkpointBytes() / rep.checkpoints(),
                    rep.checkpoints() == 0 ? 0.0 : rep.checkpointNanos() / 1e6 / rep.checkpoints());
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("size", sz.name().toLowerCase());
        settings.put("repeat", repeat);
        settings.put("checkpoints_per_run", checkpoints);
        settings.put("log_reserve", logReserve);
        settings.put("cores", Runtime.getRuntime().availableProcessors());
        t.write(out, "overhead", command(), settings);
        System.out.print(t.markdown());
        System.out.println("wrote overhead.json, overhead.csv and overhead.md in " + out);
        return 0;
    }

    /** The job of one variant: checkpoints every iterations/--checkpoints points, spbc in --clusters blocks. */
    private Harness.Run run(BenchWorkload w, BenchWorkload.Size sz, int n, ProtocolDescriptor p) {
        int every = p == ProtocolRegistry.NONE || checkpoints == 0 ? 0 : Math.max(1, w.iterations(sz) / checkpoints);
        ClusterLayout layout = p.create().usesClusters() ? ClusterLayout.blocks(Math.min(clusters, n)) : null;
        return new Harness.Run(w, sz, n, p, every, 2, FailureSchedule.NONE, timeout, layout, null);
    }

    /**
     * The variants of a workload on n ranks, in the order their jobs run: each protocol's plain job,
     * or its reserved one when its warm-up logged (and both with --log-reserve both), then none's
     * control job with --control.
     */
    private List<Key> variants(BenchWorkload w, int n, List<ProtocolDescriptor> ps) {
        List<Key> out = new ArrayList<>();
        for (ProtocolDescriptor p : ps) {
            boolean reserved = reserves.containsKey(new Key(w, n, p));
            if (!reserved || plainBesideReserved) {
                out.add(new Key(w, n, p));
            }
            if (reserved) {
                out.add(new Key(w, n, p, Variant.RESERVED));
            }
            if (dummyLog && p.create().logsPayloads()) {
                out.add(new Key(w, n, p, Variant.DUMMY_LOG));
            }
        }
        if (control) {
            out.add(new Key(w, n, ProtocolRegistry.NONE, Variant.CONTROL));
        }
        return out;
    }

    /** The log reserve per rank of a variant's job: its protocol's measured one if it is the reserved variant, else 0. */
    private long reserveOf(Key k) {
        return k.variant() == Variant.RESERVED
                ? reserves.getOrDefault(new Key(k.workload(), k.ranks(), k.protocol()), 0L)
                : 0L;
    }

    /** Runs a variant's job, with the payload log its variant asks for (see {@link #logOf}). */
    private JobResult execute(Key k, Harness.Run run, PointListener listener) {
        PayloadLogConfig log = logOf(k);
        return log == null
                ? run.execute(listener)
                : Job.run(run.builder(listener).payloadLog(log).build());
    }

    /**
     * The payload log of a variant's job: the dummy backend for the dummy-log variant, the log reserve
     * its protocol measured for the reserved one, else null (the protocol's default log).
     */
    private PayloadLogConfig logOf(Key k) {
        if (k.variant() == Variant.DUMMY_LOG) {
            return PayloadLogConfig.builder(StorageBackend.DUMMY).build();
        }
        long reserve = reserveOf(k);
        return reserve == 0
                ? null
                : PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                        .reserveBytes(reserve)
                        .build();
    }

    /**
     * Determinant bytes piggybacked per message sent (0 under protocols that piggyback nothing): what
     * causal logging adds to every frame instead of a round trip to an event logger.
     */
    static double piggybackPerMessage(RunReport rep) {
        long sent = rep.sentMessages();
        return sent == 0 ? 0.0 : rep.determinants().piggybackBytes() / (double) sent;
    }

    private String clustersCell(ProtocolDescriptor p, int n) {
        return p.create().usesClusters() ? Integer.toString(Math.min(clusters, n)) : "-";
    }

    private String command() {
        return "rewind bench overhead --workloads " + workloads + " --protocols " + protocols + " -n " + ranks
                + " --repeat " + repeat + " --size " + size + " --checkpoints " + checkpoints + " --clusters "
                + clusters + (paired ? " --paired" : "") + (control ? " --control" : "")
                + (logReserve.equals("none") ? "" : " --log-reserve " + logReserve)
                + (dummyLog ? " --dummy-log" : "")
                + (warmUp == 0 ? "" : " --warm-up " + warmUp);
    }

    /**
     * When each point was passed by one job taking turns: the time its last rank reached the point
     * (its iteration ended) and the time its first rank went on from it (its next turn began). An
     * iteration's own time, point k-1 to point k, is then the span in which only this job ran.
     */
    private static final class TurnTimes {
        private final AtomicLongArray arrived;
        private final AtomicLongArray resumed;

        TurnTimes(int iterations) {
            arrived = new AtomicLongArray(iterations + 1);
            resumed = new AtomicLongArray(iterations + 1);
        }

        PointListener around(PointListener turn) {
            return (rank, point) -> {
                int p = (int) Math.min(point, arrived.length() - 1);
                arrived.accumulateAndGet(p, System.nanoTime(), Math::max);
                turn.atPoint(rank, point);
                resumed.accumulateAndGet(p, System.nanoTime(), (a, b) -> a == 0 ? b : Math.min(a, b));
            };
        }

        /** Seconds of iterations 2..N (the first runs before any turn is taken: all jobs at once). */
        double[] iterationSeconds() {
            double[] out = new double[arrived.length() - 2];
            for (int k = 2; k < arrived.length(); k++) {
                out[k - 2] = (arrived.get(k) - resumed.get(k - 1)) / 1e9;
            }
            return out;
        }
    }

    /** {@code --paired}: every repetition starts all protocols' jobs of a workload at once, taking turns. */
    private Integer callPaired(
            List<BenchWorkload> ws, List<ProtocolDescriptor> ps, List<Integer> ns, BenchWorkload.Size sz)
            throws IOException {
        Map<Key, List<Double>> iterationRatios = new LinkedHashMap<>();
        Map<Key, List<Double>> runRatios = new LinkedHashMap<>();
        Map<Key, List<Double>> busy = new LinkedHashMap<>();
        Map<Key, RunReport> last = new LinkedHashMap<>();
        Map<Key, Integer> pairedIterations = new LinkedHashMap<>();
        // Every timed iteration beside none's, so paired figures can be pooled or compared across runs
        // of the command (two builds measured one after the other, say) without running them again.
        StringBuilder iterationsCsv = new StringBuilder("workload,ranks,variant,run,iteration,seconds,none_seconds\n");
        for (int rep = -warmUp; rep < repeat; rep++) {
            for (BenchWorkload w : ws) {
                for (int n : ns) {
                    if (n < w.minRanks()) {
                        continue;
                    }
                    int iterations = w.iterations(sz);
                    List<Harness.Run> runs = new ArrayList<>();
                    List<Key> keys = variants(w, n, ps);
                    List<TurnTimes> times = new ArrayList<>();
                    for (Key k : keys) {
                        runs.add(run(w, sz, n, k.protocol()));
                        times.add(new TurnTimes(iterations));
                    }
                    // The first turn rotates from one run to the next, so every job runs in every place of
                    // the round (right after each other job) equally often.
                    Turnstile turns = new Turnstile(runs.size(), n, timeout.toNanos(), Math.floorMod(rep, runs.size()));
                    JobResult[] results = new JobResult[runs.size()];
                    List<Thread> threads = new ArrayList<>();
                    for (int j = 0; j < runs.size(); j++) {
                        int job = j;
                        threads.add(Thread.ofPlatform().name("bench-job-" + j).start(() -> {
                            try {
                                results[job] = execute(
                                        keys.get(job),
                                        runs.get(job),
                                        times.get(job).around(turns.listenerFor(job)));
                            } finally {
                                turns.finished(job);
                            }
                        }));
                    }
                    for (Thread t : threads) {
                        try {
                            t.join();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return 1;
                        }
                    }
                    String reference = Harness.resultLine(results[0], w.prefix());
                    for (int j = 0; j < runs.size(); j++) {
                        JobResult r = results[j];
                        String line = r == null ? null : Harness.resultLine(r, w.prefix());
                        if (r == null || !r.ok() || line == null || !line.equals(reference)) {
                            System.err.print("rewind bench overhead: " + w.cliName() + " on " + n + " ranks under "
                                    + keys.get(j).label() + " failed or printed another result (" + line + " against "
                                    + reference + ")\n  " + runs.get(j).commandLine() + "\n"
                                    + (r == null ? "" : r.describeFailures()));
                            return 1;
                        }
                    }
                    if (rep < 0) {
                        System.err.printf(Locale.ROOT, "  %s n=%d warm-up %d done%n", w.cliName(), n, rep + warmUp + 1);
                        continue;
                    }
                    double[] base = times.get(0).iterationSeconds();
                    double baseSum = Arrays.stream(base).sum();
                    for (int j = 0; j < runs.size(); j++) {
                        Key k = keys.get(j);
                        double[] mine = times.get(j).iterationSeconds();
                        List<Double> rs = iterationRatios.computeIfAbsent(k, x -> new ArrayList<>());
                        for (int i = 0; i < mine.length; i++) {
                            rs.add(mine[i] / base[i]);
                            iterationsCsv.append(String.format(
                                    Locale.ROOT,
                                    "%s,%d,%s,%d,%d,%.9f,%.9f%n",
                                    w.cliName(),
                                    n,
                                    k.label(),
                                    rep + 1,
                                    i,
                                    mine[i],
                                    base[i]));
                        }
                        double sum = Arrays.stream(mine).sum();
                        runRatios.computeIfAbsent(k, x -> new ArrayList<>()).add(sum / baseSum);
                        busy.computeIfAbsent(k, x -> new ArrayList<>()).add(sum);
                        last.put(k, results[j].report());
                        pairedIterations.put(k, mine.length);
                        System.err.printf(
                                Locale.ROOT,
                                "  %s n=%d %s run %d: %.3f s in its turns, %.4f of none%n",
                                w.cliName(),
                                n,
                                k.label(),
                                rep + 1,
                                sum,
                                sum / baseSum);
                    }
                }
            }
        }
        Harness.Table t = new Harness.Table(
                "workload",
                "workload",
                0,
                "ranks",
                "ranks",
                0,
                "protocol",
                "protocol",
                0,
                "clusters",
                "clusters",
                0,
                "runs",
                "runs",
                0,
                "paired_iterations",
                "paired iterations per run",
                0,
                "ratio_median",
                "iteration ratio median",
                4,
                "ratio_p25",
                "p25",
                4,
                "ratio_p75",
                "p75",
                4,
                "ratio_ci95_low",
                "median 95 % CI low",
                4,
                "ratio_ci95_high",
                "high",
                4,
                "run_ratio_median",
                "run ratio median",
                4,
                "run_ratio_min",
                "run ratio min",
                4,
                "run_ratio_max",
                "run ratio max",
                4,
                "turns_s",
                "s in its turns (median)",
                3,
                "logged_share",
                "logged share of bytes sent",
                3,
                "logged_bytes",
                "logged bytes",
                0,
                "log_reserve_bytes",
                "log reserve per rank",
                0,
                "determinants",
                "events (event logger)",
                0,
                "determinants_made",
                "determinants piggybacked",
                0,
                "sent_messages",
                "messages sent",
                0,
                "piggyback_bytes_per_msg",
                "piggybacked bytes per message",
                3,
                "checkpoints",
                "checkpoints",
                0);
        for (Map.Entry<Key, List<Double>> e : iterationRatios.entrySet()) {
            Key k = e.getKey();
            List<Double> rs = e.getValue();
            RunReport rep = last.get(k);
            long sent = rep.sentBytes();
            t.add(
                    k.workload().cliName(),
                    k.ranks(),
                    k.label(),
                    clustersCell(k.protocol(), k.ranks()),
                    runRatios.get(k).size(),
                    pairedIterations.get(k),
                    Harness.median(rs),
                    Harness.quantile(rs, 0.25),
                    Harness.quantile(rs, 0.75),
                    Harness.medianCi95(rs)[0],
                    Harness.medianCi95(rs)[1],
                    Harness.median(runRatios.get(k)),
                    Harness.min(runRatios.get(k)),
                    Harness.max(runRatios.get(k)),
                    Harness.median(busy.get(k)),
                    sent == 0 ? 0.0 : rep.loggedBytes() / (double) sent,
                    rep.loggedBytes(),
                    reserveOf(k),
                    rep.events(),
                    rep.determinants().made(),
                    rep.sentMessages(),
                    piggybackPerMessage(rep),
                    rep.checkpoints());
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("size", sz.name().toLowerCase(Locale.ROOT));
        settings.put("repeat", repeat);
        settings.put("checkpoints_per_run", checkpoints);
        settings.put("clusters", clusters);
        settings.put("log_reserve", logReserve);
        settings.put("warm_up_runs", warmUp);
        settings.put("cores", Runtime.getRuntime().availableProcessors());
        t.write(out, "overhead-paired", command(), settings);
        Files.writeString(out.resolve("overhead-paired-iterations.csv"), iterationsCsv);
        System.out.print(t.markdown());
        System.out.println("wrote overhead-paired.json, overhead-paired.csv, overhead-paired.md and"
                + " overhead-paired-iterations.csv in " + out);
        return 0;
    }
}
