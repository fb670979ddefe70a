package io.rewind.cli.bench;

import io.rewind.cli.LogChoices;
import io.rewind.cli.RewindCommand;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import io.rewind.runtime.PointListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rewind bench logging}: the ping-pong bandwidth with sender-based payload logging divided by
 * the bandwidth without logging, from 1 byte to 4 MiB, for every storage backend and copy method,
 * as in the figures of "Dodging the cost of unavoidable memory copies in message logging protocols".
 *
 * <p>Every variant is a job of its own (the protocol is chosen per job). By default all variants'
 * jobs of a repetition run in this JVM at once and take turns, one timed batch each ({@link
 * Turnstile}), so batch k of every variant runs within a few milliseconds of batch k of the
 * baseline: each variant's batch is divided by the baseline's batch of the same round, and the
 * median of all those paired ratios is reported, with the quartiles beside it. On a machine whose
 * speed drifts (a shared virtual machine) this pairing is what makes a 5 % difference visible.
 * Jobs run one after another ({@code --mode jobs|fork}) pair their per-job medians instead.
 */
@Command(
        name = "logging",
        mixinStandardHelpOptions = true,
        header = "Bandwidth with payload logging against the bandwidth without, per backend and copy.",
        description = {
            "Ping-pong bandwidth with payload logging (pessimistic protocol) divided by the bandwidth"
                    + " without logging, per storage backend x copy method, from 1 byte to --max-bytes. "
                    + "Variants are interleaved, repetitions paired, and medians reported. Writes logging.csv, "
                    + "logging.md and SVG charts to --out.",
            "The dummy backend keeps nothing (one reused area): it measures the copy alone, not a " + "usable log."
        })
public final class LoggingBench implements Callable<Integer> {
    @Option(names = "--min-bytes", defaultValue = "1", description = "Smallest message (default ${DEFAULT-VALUE}).")
    int minBytes;

    @Option(names = "--max-bytes", defaultValue = "4194304", description = "Largest message (default 4 MiB).")
    int maxBytes;

    @Option(
            names = "--size-factor",
            defaultValue = "4",
            description = "Each size is this many times the previous (default ${DEFAULT-VALUE}).")
    int sizeFactor;

    @Option(
            names = "--repeat",
            defaultValue = "5",
            description = "Repetitions: every variant's job runs once in each (default ${DEFAULT-VALUE}).")
    int reps;

    /** The name {@code --repeat} had before it matched the other benchmarks' (kept for one release). */
    @Option(names = "--reps", hidden = true)
    void oldRepeat(int value) {
        reps = value;
    }

    @Option(
            names = "--warm-up",
            defaultValue = "1",
            description = "Repetitions run first and not counted, so the compiled code has settled (default "
                    + "${DEFAULT-VALUE}).")
    int warmUpReps;

    /** The name {@code --warm-up} had before it matched the other benchmarks' (kept for one release). */
    @Option(names = "--warm-up-reps", hidden = true)
    void oldWarmUp(int value) {
        warmUpReps = value;
    }

    @Option(
            names = "--batches",
            defaultValue = "5",
            description = "Timed batches per size inside one job. In turns mode each batch is paired with the "
                    + "baseline's batch of the same round and the median of all pairs is kept; otherwise each job "
                    + "reports the median of its batches (default ${DEFAULT-VALUE}).")
    int batches;

    @Option(
            names = "--work-scale",
            defaultValue = "0.25",
            description = "Scales the round trips per batch (1: about 20,000 short or 40 MB of long messages; "
                    + "default ${DEFAULT-VALUE}).")
    double workScale;

    @Option(
            names = "--backends",
            split = ",",
            defaultValue = "off-heap,mapped-file,hybrid,dummy",
            description = "Storage backends (off-heap, mapped-file, hybrid, dummy). Default: ${DEFAULT-VALUE}.")
    List<String> backends;

    @Option(
            names = "--copies",
            split = ",",
            defaultValue = "hybrid,pack,pipelined,helper",
            description = "Copy methods (hybrid: chosen by size; pack, pipelined, helper). Default: ${DEFAULT-VALUE}.")
    List<String> copies;

    @Option(
            names = "--checkpoint-every",
            defaultValue = "1",
            description = "Checkpoint every N batches, outside the timed part, so that the log is truncated and its "
                    + "memory recycled as in a long run (0: never; the log then grows for the whole run). "
                    + "Default: ${DEFAULT-VALUE}.")
    int checkpointEvery;

    @Option(
            names = "--tracking-only",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Also run the global-rollback protocol (arrival tracking and eager sends, no payload log) to "
                    + "separate the protocol's other costs from the copy. Default: on.")
    boolean trackingOnly;

    @Option(names = "--buffer", defaultValue = "array", description = "array or direct (default ${DEFAULT-VALUE}).")
    String buffer;

    @Option(
            names = "--mode",
            defaultValue = "turns",
            description = {
                "How the variants run side by side (default: ${DEFAULT-VALUE}):",
                "turns: every variant's job of a repetition starts in this JVM and they take turns, one batch each;",
                "jobs: one job after another in this JVM;",
                "fork: one job after another, each in a JVM of its own (as JMH forks)."
            })
    String mode;

    @Option(
            names = "--checkpoint-dir",
            paramLabel = "DIR",
            description = "Where the jobs' checkpoints go, a folder per job (default: /dev/shm when it exists, "
                    + "else the system's temporary folder). On a disk, the writes of one checkpoint (and the "
                    + "file system's work after them) spill into the next timed batch.")
    Path checkpointDir;

    @Option(
            names = "--pages",
            split = ",",
            defaultValue = "huge",
            description = "Page sizes of off-heap log blocks, each a variant: huge (a log's blocks beyond its "
                    + "first two advised for transparent huge pages, the default), small (--no-log-huge-pages). "
                    + "Default: ${DEFAULT-VALUE}.")
    List<String> pages;

    @Option(
            names = "--regimes",
            split = ",",
            defaultValue = "steady,growing",
            description = {
                "Log regimes, each a variant of every logging configuration (default: ${DEFAULT-VALUE}):",
                "steady: a checkpoint every --checkpoint-every batches truncates the log and its memory is recycled;",
                "growing: no checkpoint for the whole run, so every logged byte goes to memory the log never used "
                        + "(the time between two checkpoints of a real run)."
            })
    List<String> regimes;

    @Option(
            names = "--prepare",
            split = ",",
            defaultValue = "ahead",
            description = "How log blocks are faulted in, each a variant: ahead (by a background thread before the "
                    + "writer needs them, the default), writer (--no-log-prepare-ahead: by the writer's first "
                    + "writes), reserved (ahead, plus --log-reserve: each rank's log faults in, when it opens, the "
                    + "memory its variant's job logged in the warm-up repetition). Default: ${DEFAULT-VALUE}.")
    List<String> prepare;

    @Option(
            names = "--program",
            defaultValue = "rewind",
            description = {
                "The ping-pong that runs (default: ${DEFAULT-VALUE}):",
                "rewind: io.rewind.apps.bench.PingPong, which passes a checkpoint point between batches;",
                "plain: io.rewind.apps.bench.PlainPingPong, package mpi alone (no Rewind API, so no checkpoint: "
                        + "the growing regime only, with --mode jobs or fork)."
            })
    String program;

    @Option(names = "--out", defaultValue = "runs/logging", description = "Output folder (default: ${DEFAULT-VALUE}).")
    Path out;

    /** The most payload the log held in any job of a variant (jobs run in this JVM only). */
    private final Map<Variant, Long> peakLogBytes = new java.util.concurrent.ConcurrentHashMap<>();

    /** The log memory one rank of a variant's job needed (measured in the warm-up): its reserve. */
    private final Map<Variant, Long> measuredReserveBytes = new java.util.concurrent.ConcurrentHashMap<>();

    /** One job configuration measured in every repetition. */
    record Variant(
            String name,
            String backend,
            String copy,
            boolean hugePages,
            boolean prepareAhead,
            boolean reserve,
            int checkpointEvery,
            ProtocolDescriptor protocol) {
        boolean isBaseline() {
            return protocol == ProtocolRegistry.NONE;
        }
    }

    /** Rank 0's figures for one size in one job, and the half round trip of each batch in the order run. */
    record Sample(long bytes, double halfRttNs, double mbps, double[] batchHalfRttNs) {}

    @Override
    public Integer call() throws IOException {
        if (minBytes < 1
                || maxBytes < minBytes
                || sizeFactor < 2
                || reps < 1
                || batches < 1
                || workScale <= 0
                || checkpointEvery < 0
                || warmUpReps < 0) {
            System.err.println("rewind bench logging: need 1 <= --min-bytes <= --max-bytes, --size-factor >= 2, "
                    + "positive --repeat, --batches, --work-scale, and --checkpoint-every, --warm-up >= 0");
            return 2;
        }
        if (!buffer.equals("array") && !buffer.equals("direct")) {
            System.err.println("rewind bench logging: --buffer must be array or direct");
            return 2;
        }
        boolean plain = program.equals("plain");
        if (!plain && !program.equals("rewind")) {
            System.err.println("rewind bench logging: --program must be rewind or plain");
            return 2;
        }
        if (plain
                && (mode.equals("turns")
                        || !regimes.stream().allMatch(r -> r.trim().equals("growing")))) {
            System.err.println("rewind bench logging: --program plain has no checkpoint point, so its log only grows "
                    + "and its jobs cannot take turns: use it with --regimes growing and --mode jobs or fork");
            return 2;
        }
        List<Variant> variants = new ArrayList<>();
        variants.add(new Variant("no logging", "-", "-", false, true, false, 0, ProtocolRegistry.NONE));
        if (trackingOnly) {
            variants.add(new Variant(
                    "tracking only (no log)", "-", "-", false, true, false, 0, ProtocolRegistry.get("global")));
        }
        try {
            for (String r : regimes) {
                int every = checkpointsEvery(r);
                for (String b : backends) {
                    for (String c : copies) {
                        for (String p : pages) {
                            for (String f : prepare) {
                                String backend = LogChoices.backendName(b);
                                String copy = LogChoices.copyName(c);
                                boolean huge = hugePages(p);
                                boolean ahead = prepareAhead(f);
                                boolean reserve = f.trim().equalsIgnoreCase("reserved");
                                String name = backend + " / " + copy
                                        + (pages.size() > 1 ? " / " + p.trim() + " pages" : "")
                                        + (prepare.size() > 1 ? " / " + prepareLabel(f) : "")
                                        + (regimes.size() > 1 ? " / " + r.trim() + " log" : "");
                                if (reserve && !List.of("off-heap", "hybrid").contains(backend)) {
                                    continue; // a reserve is memory for off-heap blocks
                                }
                                variants.add(new Variant(
                                        name,
                                        backend,
                                        copy,
                                        huge,
                                        ahead,
                                        reserve,
                                        every,
                                        ProtocolRegistry.get("pessimistic")));
                            }
                        }
                    }
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("rewind bench logging: " + e.getMessage());
            return 2;
        }
        if (!List.of("turns", "jobs", "fork").contains(mode)) {
            System.err.println("rewind bench logging: --mode must be turns, jobs or fork");
            return 2;
        }
        if (variants.stream().anyMatch(Variant::reserve) && warmUpReps < 1) {
            System.err.println("rewind bench logging: --prepare reserved sizes each reserve from the warm-up "
                    + "repetition: it needs --warm-up 1 or more");
            return 2;
        }
        Files.createDirectories(out);
        if (checkpointDir == null) {
            Path shm = Path.of("/dev/shm");
            checkpointDir = Files.isDirectory(shm) && Files.isWritable(shm)
                    ? shm
                    : Path.of(System.getProperty("java.io.tmpdir"));
        }
        Path logDir = Files.createTempDirectory("rewind-bench-logs");
        // samples[variant][rep] = one sample per size
        Map<Variant, List<List<Sample>>> samples = new LinkedHashMap<>();
        for (Variant v : variants) {
            samples.put(v, new ArrayList<>());
        }
        try {
            for (int rep = -warmUpReps; rep < reps; rep++) {
                List<Variant> order = new ArrayList<>();
                for (int k = 0; k < variants.size(); k++) {
                    order.add(variants.get(Math.floorMod(k + rep, variants.size())));
                }
                Map<Variant, List<Sample>> got =
                        mode.equals("turns") ? runTakingTurns(order, logDir) : runOneAfterAnother(order, logDir);
                if (got == null) {
                    return 1;
                }
                if (rep >= 0) {
                    got.forEach((v, s) -> samples.get(v).add(s));
                }
                System.err.printf(
                        Locale.ROOT,
                        rep < 0
                                ? "rewind bench logging: warm-up repetition done%n"
                                : "rewind bench logging: repetition %d of %d done%n",
                        rep + 1,
                        reps);
            }
        } finally {
            deleteTree(logDir);
        }
        write(variants, samples);
        return 0;
    }

    private Map<Variant, List<Sample>> runOneAfterAnother(List<Variant> order, Path logDir) throws IOException {
        Map<Variant, List<Sample>> got = new LinkedHashMap<>();
        for (Variant v : order) {
            List<Sample> s = mode.equals("fork") ? runForked(v, logDir) : runInProcess(v, logDir, PointListener.NONE);
            if (s == null) {
                return null;
            }
            got.put(v, s);
        }
        return got;
    }

    /**
     * Starts every variant's job at once in this JVM; a {@link Turnstile} lets one run at a time, from
     * one checkpoint point of the ping-pong (between its batches) to the next.
     */
    private Map<Variant, List<Sample>> runTakingTurns(List<Variant> order, Path logDir) {
        Turnstile turns = new Turnstile(order.size(), 2, Duration.ofMinutes(10).toNanos());
        List<List<Sample>> results = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int k = 0; k < order.size(); k++) {
            results.add(null);
            int job = k;
            Thread t = new Thread(
                    () -> {
                        try {
                            results.set(job, runInProcess(order.get(job), logDir, turns.listenerFor(job)));
                        } finally {
                            turns.finished(job);
                        }
                    },
                    "bench-job-" + k);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        Map<Variant, List<Sample>> got = new LinkedHashMap<>();
        for (int k = 0; k < order.size(); k++) {
            if (results.get(k) == null) {
                return null;
            }
            got.put(order.get(k), results.get(k));
        }
        return got;
    }

    private String[] pingPongArgs() {
        return new String[] {
            buffer,
            Integer.toString(maxBytes),
            Integer.toString(batches),
            Integer.toString(minBytes),
            Integer.toString(sizeFactor),
            Double.toString(workScale)
        };
    }

    /** The job as {@code rewind run} in a new JVM (same Java, same class path); rank 0's lines are parsed. */
    private List<Sample> runForked(Variant v, Path logDir) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                RewindCommand.class.getName(),
                "run",
                "-n",
                "2",
                "--timeout",
                "PT10M",
                "--protocol",
                v.protocol().name().toLowerCase(Locale.ROOT)));
        Path jobCheckpoints = Files.createTempDirectory(checkpointDir, "rewind-bench-checkpoints-");
        if (v.protocol() != ProtocolRegistry.NONE) {
            cmd.addAll(List.of(
                    "--checkpoint-every",
                    Integer.toString(v.checkpointEvery()),
                    "--checkpoint-dir",
                    jobCheckpoints.toString()));
        }
        if (v.protocol() == ProtocolRegistry.get("pessimistic")) {
            cmd.addAll(List.of(
                    "--log-backend",
                    v.backend(),
                    "--log-copy",
                    v.copy(),
                    "--log-dir",
                    logDir.toString(),
                    v.hugePages() ? "--log-huge-pages" : "--no-log-huge-pages",
                    v.prepareAhead() ? "--log-prepare-ahead" : "--no-log-prepare-ahead"));
            if (reserveBytes(v) > 0) {
                cmd.addAll(List.of("--log-reserve", Long.toString(reserveBytes(v))));
            }
        }
        cmd.add(mainClass());
        cmd.addAll(List.of(pingPongArgs()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> lines;
        try (var in = p.getInputStream()) {
            lines = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .lines()
                    .toList();
        }
        int status;
        try {
            status = p.waitFor();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while job " + v.name() + " ran", e);
        } finally {
            deleteTree(jobCheckpoints);
        }
        if (status != 0) {
            System.err.println("rewind bench logging: job " + v.name() + " failed (exit " + status + ")");
            lines.forEach(System.err::println);
            return null;
        }
        return samples(lines.stream()
                .filter(l -> l.startsWith("[0] "))
                .map(l -> l.substring(4))
                .toList());
    }

    private List<Sample> runInProcess(Variant v, Path logDir, PointListener listener) {
        Path jobCheckpoints;
        try {
            jobCheckpoints = Files.createTempDirectory(checkpointDir, "rewind-bench-checkpoints-");
        } catch (IOException e) {
            System.err.println(
                    "rewind bench logging: cannot create a checkpoint folder in " + checkpointDir + ": " + e);
            return null;
        }
        try {
            return runInProcess(v, logDir, listener, jobCheckpoints);
        } finally {
            try {
                deleteTree(jobCheckpoints);
            } catch (IOException e) {
                System.err.println("rewind bench logging: could not remove " + jobCheckpoints + ": " + e);
            }
        }
    }

    private List<Sample> runInProcess(Variant v, Path logDir, PointListener listener, Path jobCheckpoints) {
        JobConfig.Builder b = JobConfig.builder(mainClass())
                .ranks(2)
                .args(pingPongArgs())
                .timeout(Duration.ofMinutes(10))
                .quiet()
                .protocol(v.protocol())
                .pointListener(listener);
        if (v.protocol() != ProtocolRegistry.NONE) {
            b.checkpointEvery(v.checkpointEvery()).checkpointDir(jobCheckpoints);
        }
        if (v.protocol() == ProtocolRegistry.get("pessimistic")) {
            b.payloadLog(logConfig(v.backend(), v.copy(), v.hugePages(), v.prepareAhead(), logDir).toBuilder()
                    .reserveBytes(reserveBytes(v))
                    .build());
        }
        JobResult r = Job.run(b.build());
        if (!r.ok()) {
            System.err.print("rewind bench logging: job " + v.name() + " failed\n" + r.describeFailures());
            return null;
        }
        peakLogBytes.merge(v, r.report().logHighWaterBytes(), Math::max);
        measureReserve(v, r.report());
        return samples(r.output(0));
    }

    private String mainClass() {
        return program.equals("plain") ? "io.rewind.apps.bench.PlainPingPong" : "io.rewind.apps.bench.PingPong";
    }

    private static List<Sample> samples(List<String> rank0Output) {
        List<Sample> out = new ArrayList<>();
        for (String line : rank0Output) {
            if (line.startsWith("pingpong,")) {
                String[] f = line.split(",");
                double[] batchTimes = f.length > 6
                        ? Arrays.stream(f[6].split(";"))
                                .mapToDouble(Double::parseDouble)
                                .toArray()
                        : new double[] {Double.parseDouble(f[3])};
                out.add(new Sample(
                        Long.parseLong(f[2]), Double.parseDouble(f[3]), Double.parseDouble(f[4]), batchTimes));
            }
        }
        return out;
    }

    /** Checkpoints every this many batches in a regime: the option's value when steady, never when growing. */
    private int checkpointsEvery(String regime) {
        return switch (regime.trim().toLowerCase(Locale.ROOT)) {
            case "steady" -> checkpointEvery;
            case "growing" -> 0;
            default -> throw new IllegalArgumentException("unknown regime '" + regime + "' (use steady or growing)");
        };
    }

    private static boolean prepareAhead(String how) {
        return switch (how.trim().toLowerCase(Locale.ROOT)) {
            case "ahead", "reserved" -> true;
            case "writer" -> false;
            default -> throw new IllegalArgumentException(
                    "unknown --prepare '" + how + "' (use ahead, writer or reserved)");
        };
    }

    private static String prepareLabel(String how) {
        return switch (how.trim().toLowerCase(Locale.ROOT)) {
            case "ahead" -> "prepared ahead";
            case "writer" -> "faulted by writer";
            default -> "reserved";
        };
    }

    /**
     * The reserve of a variant's rank logs: 0 until its warm-up job has run, then the memory one rank
     * of that job needed (the payload peak scaled by the job's storage per payload byte: record
     * headers and alignment, which dominate for short messages) and two blocks of slack.
     */
    private long reserveBytes(Variant v) {
        return v.reserve() ? measuredReserveBytes.getOrDefault(v, 0L) : 0;
    }

    private void measureReserve(Variant v, io.rewind.runtime.RunReport report) {
        if (v.reserve() && report.loggedBytes() > 0) {
            measuredReserveBytes.merge(v, Harness.reserveFor(report), Math::max);
        }
    }

    private static boolean hugePages(String pages) {
        return switch (pages.trim().toLowerCase(Locale.ROOT)) {
            case "huge" -> true;
            case "small" -> false;
            default -> throw new IllegalArgumentException("unknown page size '" + pages + "' (use huge or small)");
        };
    }

    /** The log settings of a variant: the defaults, with the copy method forced unless it is hybrid. */
    static PayloadLogConfig logConfig(
            String backend, String copy, boolean hugePages, boolean prepareAhead, Path logDir) {
        return LogChoices.config(backend, copy)
                .mappedDirectory(logDir)
                .hugePages(hugePages)
                .prepareAhead(prepareAhead)
                .build();
    }

    private void write(List<Variant> variants, Map<Variant, List<List<Sample>>> samples) throws IOException {
        Variant base = variants.get(0);
        List<List<Sample>> baseReps = samples.get(base);
        int sizes = baseReps.get(0).size();
        long[] bytes = new long[sizes];
        for (int i = 0; i < sizes; i++) {
            bytes[i] = baseReps.get(0).get(i).bytes();
        }
        Map<Variant, double[][]> ratios = new LinkedHashMap<>(); // [size] -> {median, p25, p75}
        StringBuilder csv = new StringBuilder(
                "variant,protocol,backend,copy,bytes,median_half_rtt_ns,median_bandwidth_MBps,ratio_median,ratio_p25,ratio_p75,reps\n");
        for (Variant v : variants) {
            double[][] rs = new double[sizes][];
            for (int i = 0; i < sizes; i++) {
                List<Double> paired = new ArrayList<>();
                double[] rtt = new double[reps];
                double[] bw = new double[reps];
                for (int r = 0; r < reps; r++) {
                    Sample s = samples.get(v).get(r).get(i);
                    Sample b = baseReps.get(r).get(i);
                    // Batch k of every variant ran in the same round of turns: pair them. Jobs run one
                    // after another pair their medians instead.
                    if (mode.equals("turns") && s.batchHalfRttNs().length == b.batchHalfRttNs().length) {
                        for (int k = 0; k < s.batchHalfRttNs().length; k++) {
                            paired.add(b.batchHalfRttNs()[k] / s.batchHalfRttNs()[k]);
                        }
                    } else {
                        paired.add(s.mbps() / b.mbps());
                    }
                    rtt[r] = s.halfRttNs();
                    bw[r] = s.mbps();
                }
                double[] sorted = paired.stream()
                        .mapToDouble(Double::doubleValue)
                        .sorted()
                        .toArray();
                rs[i] = new double[] {median(sorted), quantile(sorted, 0.25), quantile(sorted, 0.75)};
                csv.append(String.format(
                        Locale.ROOT,
                        "%s,%s,%s,%s,%d,%.1f,%.1f,%.4f,%.4f,%.4f,%d%n",
                        v.name(),
                        v.protocol().name().toLowerCase(Locale.ROOT),
                        v.backend(),
                        v.copy(),
                        bytes[i],
                        median(rtt),
                        median(bw),
                        rs[i][0],
                        rs[i][1],
                        rs[i][2],
                        reps));
            }
            ratios.put(v, rs);
        }
        StringBuilder md = new StringBuilder();
        md.append("Bandwidth with logging / without logging (median of the paired ratios: ")
                .append(
                        mode.equals("turns")
                                ? "batch by batch, " + reps + " repetitions of " + batches + " batches"
                                : reps + " repetitions")
                .append("; ")
                .append(buffer)
                .append(" buffers; steady log: a checkpoint every ")
                .append(checkpointEvery + " batch(es); growing log: no checkpoint")
                .append(program.equals("plain") ? "; program: PlainPingPong, package mpi alone" : "")
                .append(").\n\n");
        md.append("| size | no logging MB/s | no logging half RTT (us)");
        for (Variant v : variants) {
            if (!v.isBaseline()) {
                md.append(" | ").append(v.name());
            }
        }
        md.append(" |\n|---:|---:|---:");
        md.append("|---:".repeat(variants.size() - 1)).append("|\n");
        for (int i = 0; i < sizes; i++) {
            double[] bw = new double[reps];
            double[] rtt = new double[reps];
            for (int r = 0; r < reps; r++) {
                bw[r] = baseReps.get(r).get(i).mbps();
                rtt[r] = baseReps.get(r).get(i).halfRttNs();
            }
            md.append(String.format(
                    Locale.ROOT, "| %s | %.0f | %.2f", RatioChart.bytes(bytes[i]), median(bw), median(rtt) / 1000));
            for (Variant v : variants) {
                if (!v.isBaseline()) {
                    md.append(String.format(Locale.ROOT, " | %.2f", ratios.get(v)[i][0]));
                }
            }
            md.append(" |\n");
        }
        Files.writeString(out.resolve("logging.csv"), csv);
        if (!peakLogBytes.isEmpty()) {
            md.append("\nLargest payload log held in a job (all ranks):");
            for (Variant v : variants) {
                Long peak = peakLogBytes.get(v);
                if (peak != null && !v.isBaseline() && peak > 0) {
                    md.append(String.format(Locale.ROOT, " %s %.0f MiB;", v.name(), peak / 1048576.0));
                }
            }
            md.setLength(md.length() - 1);
            md.append(".\n");
        }
        Files.writeString(out.resolve("logging.md"), md);
        List<RatioChart.Reference> targets =
                List.of(new RatioChart.Reference("0.95", 0.95), new RatioChart.Reference("0.85", 0.85));
        String xLabel = "message size (bytes, log scale)";
        String yLabel = "bandwidth with logging / without (ratio)";
        String note = buffer + " buffers, in-JVM transport";
        // All variants in one chart, then one per backend (copy methods compared, as in the paper's
        // figure 2) and one per copy method (backends compared, as in its figure 3).
        List<RatioChart.Line> all = new ArrayList<>();
        for (Variant v : variants) {
            if (!v.isBaseline()) {
                all.add(line(v, ratios.get(v)));
            }
        }
        // Ratios above 1.5 are noise of the shortest messages; they are drawn at the top edge.
        double yMax = Math.min(
                1.5,
                Math.max(
                        1.1,
                        Math.ceil(all.stream()
                                                .flatMapToDouble(l -> Arrays.stream(l.y()))
                                                .filter(d -> !Double.isNaN(d))
                                                .max()
                                                .orElse(1.0)
                                        * 10)
                                / 10));
        Files.writeString(
                out.resolve("logging-ratio-all.svg"),
                RatioChart.svg(
                        "Ping-pong bandwidth ratio, logging / no logging (" + note + ")",
                        xLabel,
                        yLabel,
                        bytes,
                        all,
                        targets,
                        0,
                        yMax));
        // Backends and copy methods are grouped apart: "hybrid" names one of each.
        for (boolean byBackend : new boolean[] {true, false}) {
            List<String> groups = variants.stream()
                    .map(v -> byBackend ? v.backend() : v.copy())
                    .distinct()
                    .filter(g -> !g.equals("-"))
                    .toList();
            for (String group : groups) {
                List<RatioChart.Line> lines = new ArrayList<>();
                for (Variant v : variants) {
                    if (v.protocol() == ProtocolRegistry.get("global")
                            || (byBackend ? v.backend() : v.copy()).equals(group)) {
                        lines.add(line(v, ratios.get(v)));
                    }
                }
                String title =
                        (byBackend ? "Storage " + group + ": copy methods" : "Copy " + group + ": storage backends")
                                + " (" + note + ")";
                Files.writeString(
                        out.resolve("logging-ratio-" + (byBackend ? "backend-" : "copy-") + group + ".svg"),
                        RatioChart.svg(title, xLabel, yLabel, bytes, lines, targets, 0, yMax));
            }
        }
        System.out.print(md);
        System.out.println("wrote " + out.resolve("logging.csv") + ", " + out.resolve("logging.md") + " and "
                + out.resolve("logging-ratio-*.svg"));
    }

    private static RatioChart.Line line(Variant v, double[][] rs) {
        double[] y = new double[rs.length];
        for (int i = 0; i < rs.length; i++) {
            y[i] = rs[i][0];
        }
        String name = v.backend().equals("dummy") ? v.name() + " (copy only)" : v.name();
        return new RatioChart.Line(
                name,
                y,
                v.protocol() == ProtocolRegistry.get("global") || v.backend().equals("dummy"));
    }

    /** The {@code q} quantile of sorted values (nearest rank). */
    static double quantile(double[] sorted, double q) {
        int at = (int) Math.round(q * (sorted.length - 1));
        return sorted[Math.max(0, Math.min(sorted.length - 1, at))];
    }

    static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
