package io.rewind.tools.report;

import io.rewind.tools.analysis.GiniIndex;
import io.rewind.tools.analysis.LoadDistribution;
import io.rewind.tools.analysis.LoadKind;
import io.rewind.tools.cluster.Clustering;
import io.rewind.tools.cluster.ClusteringMetrics;
import io.rewind.tools.mcml.Dendrogram;
import io.rewind.tools.mcml.McmlAnalysis;
import io.rewind.tools.mcml.SwitchOffStrategy;
import io.rewind.tools.model.ExecutionModel;
import io.rewind.tools.model.ModelProjection;
import io.rewind.tools.profile.CommMatrix;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Renders a {@link ReportInput} as one self-contained HTML page. Plots are inline SVG built
 * here, so the page needs no network and no script to show them; a short inline script only
 * checks that every plot has been laid out and records any script error into the page
 * ({@code data-render} and {@code data-js-errors} on {@code <body>}), which the browser test reads.
 */
public final class HtmlReport {

    private static final int HEATMAP_BINS = 128;
    private static final int CURVE_POINTS = 800;
    private static final int LOG_LINES = 8;

    private HtmlReport() {}

    public static String render(ReportInput in) {
        StringBuilder body = new StringBuilder();
        Map<String, String> summary = new LinkedHashMap<>();
        CommMatrix m = in.profile() == null ? null : in.profile().traffic(in.traffic());
        int ranks = m != null ? m.ranks() : in.run().ranks();
        summary.put("ranks", Integer.toString(ranks));
        if (m != null) {
            summary.put("traffic analysed", in.traffic().name().toLowerCase(java.util.Locale.ROOT));
            summary.put("bytes / messages", Units.bytes(m.totalBytes()) + " / " + m.totalMessages());
            summary.put("channels", Integer.toString(m.channelCount()));
            double duration = in.profile().durationSeconds();
            summary.put("profiled run", Double.isNaN(duration) ? "no timing" : Units.fixed(duration, 2) + " s");
        }
        if (in.run() != null) {
            summary.put(
                    "run record", in.run().application() + " under " + in.run().protocol());
            if (in.run().sentBytes() != null
                    && in.run().sentBytes() > 0
                    && in.run().loggedBytes() != null) {
                summary.put(
                        "logged in the run",
                        Units.fixed(100.0 * in.run().loggedBytes() / in.run().sentBytes(), 1) + " % of "
                                + Units.bytes(in.run().sentBytes()) + " sent");
            }
            if (in.run().clusterOf() != null) {
                summary.put(
                        "clusters of the run",
                        Integer.toString(
                                Arrays.stream(in.run().clusterOf()).max().orElse(-1) + 1));
            }
        }
        if (m != null) {
            communication(body, m, summary);
            if (in.clustering() != null) {
                clusters(body, m, in.clustering(), in.profile().durationSeconds(), summary);
            }
        }
        logGrowth(body, in, m);
        recovery(body, in.run());
        comparison(body, in, m);
        if (in.model() != null) {
            model(body, in);
        }
        return page(in.title(), summary, body.toString());
    }

    private static void communication(StringBuilder body, CommMatrix m, Map<String, String> summary) {
        int n = m.ranks();
        int bin = (n + HEATMAP_BINS - 1) / HEATMAP_BINS;
        int cells = (n + bin - 1) / bin;
        double[][] grid = new double[cells][cells];
        for (int s = 0; s < n; s++) {
            for (int c = m.firstChannel(s); c < m.endChannel(s); c++) {
                grid[s / bin][m.destinationOf(c) / bin] += m.bytesOf(c);
            }
        }
        section(
                body,
                "Communication",
                bin == 1
                        ? "Bytes sent between every pair of ranks."
                        : "Bytes sent between blocks of " + bin + " ranks (the matrix is summed into " + cells + " x "
                                + cells + " cells).");
        figure(
                body,
                "heatmap",
                Charts.heatmap("Communication matrix (bytes)", grid, n, bin, "bytes"),
                "Rows are senders, columns receivers; colour is bytes on a log scale, grey cells carry nothing.");
        LoadDistribution load = LoadDistribution.of(m, LoadKind.SENT);
        summary.put("Gini index (bytes sent)", Units.fixed(load.gini(), 3));
        summary.put("heaviest rank / mean", Units.fixed(load.peakToMean(), 2));
        long[] sorted = load.sortedLoads();
        Units.ByteUnit unit = Units.byteUnit(load.max());
        int[] picks = samplePoints(n, CURVE_POINTS);
        double[] x = new double[picks.length];
        double[] y = new double[picks.length];
        for (int i = 0; i < picks.length; i++) {
            x[i] = picks[i];
            y[i] = sorted[picks[i]] / unit.divisor();
        }
        double mean = load.mean() / unit.divisor();
        List<Charts.Series> loadSeries = List.of(
                new Charts.Series("bytes sent per rank", x, y, Charts.PALETTE[0], null),
                new Charts.Series(
                        "mean " + Units.bytes(load.mean()),
                        new double[] {0, n - 1},
                        new double[] {mean, mean},
                        Charts.PALETTE[2],
                        "6 4"));
        StringBuilder pair = new StringBuilder("<div class=\"pair\">");
        pair.append(figureHtml(
                "load",
                Charts.line(
                        "Per-rank load, lightest to heaviest",
                        "ranks sorted by bytes sent",
                        "bytes sent (" + unit.name() + ")",
                        loadSeries,
                        List.of(),
                        false,
                        0.0,
                        null),
                "Each point is one rank; the dashed line is the mean."));
        double[] loads = Arrays.stream(load.perRank()).asDoubleStream().toArray();
        double[] lorenz = GiniIndex.lorenzCurve(loads);
        int[] lp = samplePoints(n + 1, CURVE_POINTS);
        double[] lx = new double[lp.length];
        double[] ly = new double[lp.length];
        for (int i = 0; i < lp.length; i++) {
            lx[i] = 100.0 * lp[i] / n;
            ly[i] = 100.0 * lorenz[lp[i]];
        }
        double[] bandX = new double[lx.length + 2];
        double[] bandY = new double[lx.length + 2];
        for (int i = 0; i < lx.length; i++) {
            bandX[i] = lx[lx.length - 1 - i];
            bandY[i] = ly[ly.length - 1 - i];
        }
        bandX[lx.length] = 0;
        bandY[lx.length] = 0;
        bandX[lx.length + 1] = 100;
        bandY[lx.length + 1] = 100;
        pair.append(figureHtml(
                "lorenz",
                Charts.line(
                        "Lorenz curve, Gini index " + Units.fixed(load.gini(), 3),
                        "ranks, lightest first (% of ranks)",
                        "cumulative share of bytes sent (%)",
                        List.of(
                                new Charts.Series(
                                        "perfect balance", new double[] {0, 100}, new double[] {0, 100}, "#555", "5 3"),
                                new Charts.Series("actual load (Lorenz curve)", lx, ly, Charts.PALETTE[0], null)),
                        List.of(new Charts.Band("Gini gap (area A; G = A / (A + B))", bandX, bandY, Charts.PALETTE[1])),
                        false,
                        0.0,
                        100.0),
                "The shaded gap between even load and the actual curve is what the Gini index measures."));
        pair.append("</div>");
        body.append(pair);
    }

    private static void clusters(
            StringBuilder body, CommMatrix m, Clustering c, double duration, Map<String, String> summary) {
        ClusteringMetrics metrics = ClusteringMetrics.of(m, c, duration);
        summary.put("clusters", c.count() + " (largest " + c.maxSize() + " ranks)");
        summary.put(
                "coverage / logged",
                Units.fixed(100 * metrics.coverage(), 1) + " % / " + Units.fixed(100 * metrics.loggedFraction(), 1)
                        + " %");
        section(
                body,
                "Clusters",
                "Ranks of one cluster checkpoint together and do not log to each other; "
                        + "messages between clusters are logged.");
        figure(
                body,
                "clusters",
                Charts.clusterGrid(
                        "Cluster map (" + c.count() + " clusters)",
                        c.clusterOf(),
                        c.count(),
                        "coverage " + Units.fixed(100 * metrics.coverage(), 1) + " %, a failure restarts "
                                + Units.fixed(100 * metrics.restartFraction(), 1) + " % of ranks on average"),
                "Each square is a rank, coloured by its cluster.");
    }

    private static void logGrowth(StringBuilder body, ReportInput in, CommMatrix m) {
        RunRecord run = in.run();
        List<Charts.Series> series = new ArrayList<>();
        String caption;
        String title;
        if (run != null && run.logSamples().size() >= 2) {
            int n = run.ranks();
            List<RunRecord.LogSample> samples = run.logSamples();
            long[] last = samples.get(samples.size() - 1).logBytes();
            Long quota = run.quotaBytes();
            Units.ByteUnit unit = Units.byteUnit(
                    Math.max(largest(samples, RunRecord.LogSample::logBytes), quota == null ? 1 : quota));
            int[] top = IntStream.range(0, n)
                    .boxed()
                    .sorted(Comparator.<Integer>comparingLong(r -> last[r]).reversed())
                    .limit(LOG_LINES)
                    .mapToInt(Integer::intValue)
                    .toArray();
            double[] t = samples.stream().mapToDouble(s -> s.timeMs() / 1000.0).toArray();
            series.addAll(perRankSeries(samples, RunRecord.LogSample::logBytes, top, t, unit, false));
            title = "Payload log per rank over time (" + run.protocol() + ")";
            caption = "Measured: the " + top.length + " ranks with the largest final log, and the mean.";
            if (quota != null) {
                // The quota as a flat line: with logger nodes a rank's log should rise to it and stay there,
                // whatever the run's length, and this is where one sees it does.
                series.add(quotaLine(quota, t, unit));
                caption += " The dashed line is the log quota (" + Units.bytes(quota) + ") each rank dumps to"
                        + " stay under.";
            }
            section(
                    body,
                    "Log growth",
                    "Measured while the job ran: each rank's payload log, sampled every 200 ms"
                            + (run.hasLogMemory() ? ", and the memory the log takes." : "."));
            figure(
                    body,
                    "log-growth",
                    Charts.line(
                            title, "time (s)", "log size (" + unit.name() + ")", series, List.of(), false, 0.0, null),
                    caption);
            logMemory(body, run, top, t);
            return;
        }
        if (m == null || in.clustering() == null) {
            placeholder(body, "log-growth", "Log growth over time needs a run record with logSamples.");
            return;
        }
        double duration = in.profile().durationSeconds();
        boolean timed = !Double.isNaN(duration) && duration > 0;
        double span = timed ? duration : 1;
        long[] perRank = ClusteringMetrics.perRankLog(m, in.clustering());
        int[] top = IntStream.range(0, perRank.length)
                .boxed()
                .sorted(Comparator.<Integer>comparingLong(r -> perRank[r]).reversed())
                .limit(LOG_LINES)
                .mapToInt(Integer::intValue)
                .toArray();
        Units.ByteUnit unit = Units.byteUnit(Math.max(1, perRank[top[0]]));
        for (int i = 0; i < top.length; i++) {
            series.add(new Charts.Series(
                    "rank " + top[i],
                    new double[] {0, span},
                    new double[] {0, perRank[top[i]] / unit.divisor()},
                    Charts.PALETTE[i % Charts.PALETTE.length],
                    null));
        }
        double avg = Arrays.stream(perRank).average().orElse(0) / unit.divisor();
        series.add(
                new Charts.Series("mean of all ranks", new double[] {0, span}, new double[] {0, avg}, "#333", "6 4"));
        section(
                body,
                "Log growth",
                "Projected from the profile: each rank logs what it sends to other clusters, "
                        + "at a steady rate (no run record given).");
        figure(
                body,
                "log-growth",
                Charts.line(
                        "Projected log per rank (hierarchical logging)",
                        timed ? "time (s)" : "fraction of the profiled run",
                        "log size (" + unit.name() + ")",
                        series,
                        List.of(),
                        false,
                        0.0,
                        null),
                "The " + top.length + " ranks with the largest logs under the cluster map above, and the mean.");
    }

    /**
     * The memory each rank's log takes over time (blocks in use, spare and prepared ahead), for the same
     * ranks as the payload chart, in the same colours, with the largest and the mean of all ranks.
     */
    private static void logMemory(StringBuilder body, RunRecord run, int[] top, double[] t) {
        if (!run.hasLogMemory()) {
            placeholder(
                    body,
                    "log-memory",
                    "Log memory over time needs a run record whose samples have logMemoryBytes"
                            + " (this one was written before they were sampled).");
            return;
        }
        List<RunRecord.LogSample> samples = run.logSamples();
        Long reserve = run.logReserveBytes();
        Units.ByteUnit unit = Units.byteUnit(
                Math.max(largest(samples, RunRecord.LogSample::logMemoryBytes), reserve == null ? 1 : reserve));
        List<Charts.Series> series =
                new ArrayList<>(perRankSeries(samples, RunRecord.LogSample::logMemoryBytes, top, t, unit, true));
        String reserveNote = "";
        if (reserve != null) {
            // Each log holds its reserve from the start: memory at or above the line is expected, and a
            // rank that rises above it faulted new memory in while it sent.
            series.add(level("log reserve", reserve, t, unit));
            reserveNote = " The dashed line is the reserve (" + Units.bytes(reserve) + ") each log faulted in when"
                    + " it opened; above it a log took new memory while it sent.";
        }
        figure(
                body,
                "log-memory",
                Charts.line(
                        "Log memory per rank over time (" + run.protocol() + ")",
                        "time (s)",
                        "log memory (" + unit.name() + ")",
                        series,
                        List.of(),
                        false,
                        0.0,
                        null),
                "Measured: memory the log takes (blocks in use, spare and prepared ahead, headers and unused"
                        + " tails included) for the ranks of the chart above, the largest of all ranks and the"
                        + " mean. Its gap to the payload is the log's overhead."
                        + reserveNote);
    }

    /** A horizontal line at the log quota across the sampled span. */
    static Charts.Series quotaLine(long quotaBytes, double[] t, Units.ByteUnit unit) {
        return level("log quota", quotaBytes, t, unit);
    }

    /** A dashed horizontal line at {@code bytes} across the sampled span. */
    private static Charts.Series level(String name, long bytes, double[] t, Units.ByteUnit unit) {
        double y = bytes / unit.divisor();
        return new Charts.Series(name, new double[] {t[0], t[t.length - 1]}, new double[] {y, y}, "#c00", "8 4");
    }

    /** The largest figure of any rank in any sample (at least 1, for a unit). */
    private static long largest(List<RunRecord.LogSample> samples, Function<RunRecord.LogSample, long[]> figure) {
        long max = 1;
        for (RunRecord.LogSample s : samples) {
            for (long v : figure.apply(s)) {
                max = Math.max(max, v);
            }
        }
        return max;
    }

    /** One line per rank of {@code top} (coloured by its place there), the mean, and if asked the largest. */
    private static List<Charts.Series> perRankSeries(
            List<RunRecord.LogSample> samples,
            Function<RunRecord.LogSample, long[]> figure,
            int[] top,
            double[] t,
            Units.ByteUnit unit,
            boolean withMax) {
        List<Charts.Series> series = new ArrayList<>();
        for (int i = 0; i < top.length; i++) {
            int r = top[i];
            double[] y = samples.stream()
                    .mapToDouble(s -> figure.apply(s)[r] / unit.divisor())
                    .toArray();
            series.add(new Charts.Series("rank " + r, t, y, Charts.PALETTE[i % Charts.PALETTE.length], null));
        }
        if (withMax) {
            double[] max = samples.stream()
                    .mapToDouble(s -> Arrays.stream(figure.apply(s)).max().orElse(0) / unit.divisor())
                    .toArray();
            series.add(new Charts.Series("largest of all ranks", t, max, "#999", "2 3"));
        }
        double[] mean = samples.stream()
                .mapToDouble(s -> Arrays.stream(figure.apply(s)).average().orElse(0) / unit.divisor())
                .toArray();
        series.add(new Charts.Series("mean of all ranks", t, mean, "#333", "6 4"));
        return series;
    }

    private static void recovery(StringBuilder body, RunRecord run) {
        section(body, "Recovery", "Phases of each recovering rank after a failure.");
        if (run == null || run.recovery().isEmpty()) {
            placeholder(body, "recovery", "The recovery timeline needs a run record with recovery phases.");
            return;
        }
        List<String> phases = new ArrayList<>(List.of("detect", "respawn", "restore", "replay", "catch-up"));
        List<Charts.Span> spans = new ArrayList<>();
        for (RunRecord.RecoveryPhase p : run.recovery()) {
            if (!phases.contains(p.phase())) {
                phases.add(p.phase());
            }
            spans.add(new Charts.Span("rank " + p.rank(), p.phase(), p.startMs(), p.endMs()));
        }
        spans.addAll(rolledBackSpans(run));
        if (spans.size() > run.recovery().size()) {
            phases.add(ROLLED_BACK);
        }
        figure(
                body,
                "recovery",
                Charts.timeline("Recovery timeline (" + run.protocol() + ")", spans, phases),
                "Each row is a rank that restarted or rolled back; bars are its recovery phases. A rank "
                        + "that rolled back with a failed one, without failing itself, has one bar: from "
                        + "the failure's detection to the failed rank's catch-up.");
    }

    private static final String ROLLED_BACK = "rolled back with it";

    /**
     * One bar for each rank a recovery rolled back besides the failed rank (a cluster's members, or
     * every rank under a global rollback): the record has phases for the failed rank only, and a chart
     * that drew that rank alone would hide the rest of the rollback.
     */
    private static List<Charts.Span> rolledBackSpans(RunRecord run) {
        List<Charts.Span> spans = new ArrayList<>();
        for (RunRecord.Failure f : run.failures()) {
            List<RunRecord.RecoveryPhase> own =
                    run.recovery().stream().filter(p -> p.rank() == f.rank()).toList();
            if (own.isEmpty()) {
                continue;
            }
            double start = own.stream()
                    .mapToDouble(RunRecord.RecoveryPhase::startMs)
                    .min()
                    .orElseThrow();
            double end = own.stream()
                    .mapToDouble(RunRecord.RecoveryPhase::endMs)
                    .max()
                    .orElseThrow();
            for (int r : f.rolledBack()) {
                boolean hasOwnPhases = run.recovery().stream()
                        .anyMatch(p -> p.rank() == r && p.endMs() >= start && p.startMs() <= end);
                if (!hasOwnPhases) {
                    spans.add(new Charts.Span("rank " + r, ROLLED_BACK, start, end));
                }
            }
        }
        return spans;
    }

    private static void comparison(StringBuilder body, ReportInput in, CommMatrix m) {
        section(body, "Protocol comparison", null);
        RunRecord run = in.run();
        StringBuilder pair = new StringBuilder("<div class=\"pair\">");
        if (run != null && !run.protocolComparison().isEmpty()) {
            List<RunRecord.ProtocolRow> rows = run.protocolComparison();
            String[] names = rows.stream().map(RunRecord.ProtocolRow::protocol).toArray(String[]::new);
            addBars(
                    pair,
                    "cmp-overhead",
                    "Failure-free overhead",
                    "overhead (%)",
                    names,
                    rows.stream()
                            .map(RunRecord.ProtocolRow::failureFreeOverheadPercent)
                            .toArray(Double[]::new),
                    1,
                    "%");
            Double[] logs = rows.stream()
                    .map(r -> r.maxLogBytes() == null ? null : r.maxLogBytes().doubleValue())
                    .toArray(Double[]::new);
            Units.ByteUnit unit = Units.byteUnit(Arrays.stream(logs)
                    .filter(v -> v != null)
                    .mapToDouble(v -> v)
                    .max()
                    .orElse(1));
            addBars(
                    pair,
                    "cmp-log",
                    "Largest per-rank log",
                    "log (" + unit.name() + ")",
                    names,
                    Arrays.stream(logs)
                            .map(v -> v == null ? null : v / unit.divisor())
                            .toArray(Double[]::new),
                    2,
                    "");
            addBars(
                    pair,
                    "cmp-recovery",
                    "Recovery time",
                    "time (ms)",
                    names,
                    rows.stream().map(RunRecord.ProtocolRow::recoveryMs).toArray(Double[]::new),
                    0,
                    "");
            addBars(
                    pair,
                    "cmp-rollback",
                    "Ranks rolled back",
                    "ranks",
                    names,
                    rows.stream().map(RunRecord.ProtocolRow::rolledBackRanks).toArray(Double[]::new),
                    0,
                    "");
            pair.append("</div>");
            body.append("<p>Measured in the run record.</p>").append(pair);
            return;
        }
        if (m == null) {
            placeholder(
                    body, "comparison", "Protocol comparison needs a profile or a run record with protocolComparison.");
            return;
        }
        // Analytical comparison from the profile alone.
        List<String> names = new ArrayList<>();
        List<Double> maxLog = new ArrayList<>();
        List<Double> restart = new ArrayList<>();
        ClusteringMetrics full = ClusteringMetrics.of(m, Clustering.singletons(m.ranks()), Double.NaN);
        names.add("message logging");
        maxLog.add((double) full.maxLogBytes());
        restart.add(100.0 / m.ranks());
        if (in.clustering() != null) {
            ClusteringMetrics h = ClusteringMetrics.of(m, in.clustering(), Double.NaN);
            names.add("hierarchical (" + in.clustering().count() + ")");
            maxLog.add((double) h.maxLogBytes());
            restart.add(100 * h.restartFraction());
        }
        McmlAnalysis mcml = McmlAnalysis.run(
                m,
                new double[] {50},
                List.of(
                        new SwitchOffStrategy.HeaviestLinkFirst(),
                        new SwitchOffStrategy.DendrogramNearestFirst(Dendrogram.fromCommunication(m, 1))));
        for (McmlAnalysis.Row row : mcml.rows()) {
            names.add("MCML 50% " + (row.strategy().startsWith("heaviest") ? "heaviest" : "dendrogram"));
            maxLog.add((double) row.maxLogBytes());
            restart.add(row.rollback().avgSetPercent());
        }
        names.add("coordinated");
        maxLog.add(0.0);
        restart.add(100.0);
        String[] labels = names.toArray(String[]::new);
        Units.ByteUnit unit =
                Units.byteUnit(maxLog.stream().mapToDouble(v -> v).max().orElse(1));
        addBars(
                pair,
                "cmp-log",
                "Largest per-rank log",
                "log over the profile (" + unit.name() + ")",
                labels,
                maxLog.stream().map(v -> v / unit.divisor()).toArray(Double[]::new),
                2,
                "");
        addBars(
                pair,
                "cmp-rollback",
                "Ranks rolling back per failure",
                "ranks (% of all)",
                labels,
                restart.toArray(Double[]::new),
                1,
                "%");
        pair.append("</div>");
        body.append("<p>Derived from the profile (no measured comparison in a run record): the memory each "
                        + "protocol needs for its log against how much of the machine one failure rolls back.</p>")
                .append(pair);
    }

    private static void addBars(
            StringBuilder out,
            String id,
            String title,
            String yLabel,
            String[] names,
            Double[] values,
            int digits,
            String suffix) {
        List<String> cats = new ArrayList<>();
        List<Double> vals = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            if (values[i] != null) {
                cats.add(names[i]);
                vals.add(values[i]);
            }
        }
        if (cats.isEmpty()) {
            return;
        }
        double[] v = vals.stream().mapToDouble(d -> d).toArray();
        String[] labels =
                vals.stream().map(d -> Units.fixed(d, digits) + suffix).toArray(String[]::new);
        out.append(figureHtml(
                id, Charts.bars(title, yLabel, cats.toArray(String[]::new), v, Charts.PALETTE, labels), null));
    }

    private static void model(StringBuilder body, ReportInput in) {
        ModelProjection p =
                ModelProjection.sweep(in.model(), ModelProjection.PAPER_SOCKETS, ModelProjection.PAPER_OMEGAS);
        double[] x = Arrays.stream(p.socketCounts()).asDoubleStream().toArray();
        List<Charts.Series> time = new ArrayList<>();
        List<Charts.Series> energy = new ArrayList<>();
        for (int i = 0; i < p.omegas().length; i++) {
            List<ExecutionModel.Comparison> row = p.points().get(i);
            String name = "omega = " + Units.fixed(p.omegas()[i], 1);
            String color = Charts.PALETTE[i % Charts.PALETTE.length];
            time.add(new Charts.Series(
                    name,
                    x,
                    row.stream()
                            .mapToDouble(ExecutionModel.Comparison::relativeTime)
                            .toArray(),
                    color,
                    null));
            energy.add(new Charts.Series(
                    name,
                    x,
                    row.stream()
                            .mapToDouble(ExecutionModel.Comparison::relativeEnergy)
                            .toArray(),
                    color,
                    null));
        }
        ExecutionModel.Comparison top = ExecutionModel.compare(in.model());
        section(
                body,
                "Model projection",
                "MCML against simple causal message logging, model of the MCML paper's "
                        + "section VI (see docs/tools.md). At " + in.model().sockets() + " sockets and omega "
                        + Units.fixed(in.model().omega(), 2) + ": optimal period "
                        + Units.fixed(top.optimalPeriodMinutes(), 1)
                        + " min, time " + Units.fixed(-top.timeReductionPercent(), 1) + " %, energy "
                        + Units.fixed(-top.energyReductionPercent(), 1) + " %.");
        body.append("<div class=\"pair\">");
        body.append(figureHtml(
                "model-time",
                Charts.line(
                        "Relative execution time, MCML / SCML",
                        "sockets (log scale)",
                        "MCML time / SCML time",
                        time,
                        List.of(),
                        true,
                        null,
                        null,
                        true),
                null));
        body.append(figureHtml(
                "model-energy",
                Charts.line(
                        "Relative energy, MCML / SCML",
                        "sockets (log scale)",
                        "MCML energy / SCML energy",
                        energy,
                        List.of(),
                        true,
                        null,
                        null,
                        true),
                null));
        body.append("</div>");
    }

    private static int[] samplePoints(int count, int max) {
        if (count <= max) {
            return IntStream.range(0, count).toArray();
        }
        int[] picks = new int[max];
        for (int i = 0; i < max; i++) {
            picks[i] = (int) Math.round((double) i * (count - 1) / (max - 1));
        }
        return picks;
    }

    private static void section(StringBuilder body, String title, String intro) {
        body.append("<h2>").append(Svg.escape(title)).append("</h2>");
        if (intro != null) {
            body.append("<p>").append(Svg.escape(intro)).append("</p>");
        }
    }

    private static void figure(StringBuilder body, String id, String svg, String caption) {
        body.append(figureHtml(id, svg, caption));
    }

    private static String figureHtml(String id, String svg, String caption) {
        return "<figure class=\"plot\" id=\"" + id + "\">" + svg
                + (caption == null ? "" : "<figcaption>" + Svg.escape(caption) + "</figcaption>") + "</figure>";
    }

    private static void placeholder(StringBuilder body, String id, String text) {
        body.append("<figure class=\"missing\" id=\"")
                .append(id)
                .append("\"><p>")
                .append(Svg.escape(text))
                .append("</p></figure>");
    }

    private static String page(String title, Map<String, String> summary, String body) {
        StringBuilder table = new StringBuilder("<table class=\"summary\">");
        summary.forEach((k, v) -> table.append("<tr><th>")
                .append(Svg.escape(k))
                .append("</th><td>")
                .append(Svg.escape(v))
                .append("</td></tr>"));
        table.append("</table>");
        return """
                <!DOCTYPE html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <title>%s</title>
                <style>
                body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 20px; color: #222; max-width: 1400px; }
                h1 { font-size: 22px; margin-bottom: 6px; } h2 { font-size: 18px; margin: 26px 0 6px; border-bottom: 1px solid #ddd; }
                p { margin: 4px 0 10px; font-size: 14px; }
                table.summary { border-collapse: collapse; font-size: 13px; }
                table.summary th { text-align: left; padding: 2px 14px 2px 0; font-weight: 600; }
                figure { margin: 8px 10px 8px 0; display: inline-block; vertical-align: top; }
                figure svg { background: #fff; font-family: system-ui, sans-serif; }
                figcaption { font-size: 12px; color: #555; max-width: 640px; }
                figure.missing { padding: 16px; border: 1px dashed #bbb; color: #666; }
                .pair { display: flex; flex-wrap: wrap; }
                #js-errors { color: #b00; }
                </style>
                <script>
                window.rewindErrors = [];
                function rewindPublish() {
                  if (!document.body) { return; }
                  document.body.setAttribute('data-js-errors', String(window.rewindErrors.length));
                  var out = document.getElementById('js-errors');
                  if (out) { out.textContent = window.rewindErrors.join('\\n'); }
                }
                window.onerror = function (message, source, line) {
                  window.rewindErrors.push(String(message) + ' (line ' + line + ')');
                  rewindPublish();
                };
                document.addEventListener('DOMContentLoaded', function () {
                  var figures = document.querySelectorAll('figure.plot');
                  var drawn = 0;
                  figures.forEach(function (f) {
                    var svg = f.querySelector('svg');
                    var box = svg ? svg.getBoundingClientRect() : null;
                    if (svg && box.width > 0 && box.height > 0 && svg.childElementCount > 3) { drawn++; }
                    else { window.rewindErrors.push('plot not drawn: ' + f.id); }
                  });
                  document.body.setAttribute('data-plots-expected', String(figures.length));
                  document.body.setAttribute('data-plots-drawn', String(drawn));
                  rewindPublish();
                  var ok = window.rewindErrors.length === 0 && drawn === figures.length;
                  document.body.setAttribute('data-render', ok ? 'ok' : 'failed');
                  document.title = document.title + (ok ? ' (rendered)' : ' (render failed)');
                });
                </script>
                </head>
                <body>
                <h1>%s</h1>
                %s
                %s
                <pre id="js-errors"></pre>
                </body>
                </html>
                """
                .formatted(Svg.escape(title), Svg.escape(title), table, body);
    }
}
