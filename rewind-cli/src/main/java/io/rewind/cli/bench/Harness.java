package io.rewind.cli.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rewind.ft.ClusterLayout;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What the bench subcommands share: launching a workload, statistics, and writing results. */
final class Harness {
    private Harness() {}

    /**
     * One job of a workload.
     *
     * @param clusters the clusters of a hierarchical protocol, or null for the protocol's default
     * @param clusterFile where that layout is written as a cluster file, or null when {@code clusters}
     *     is a number of blocks; only for {@link #commandLine()}
     */
    record Run(
            BenchWorkload workload,
            BenchWorkload.Size size,
            int ranks,
            ProtocolDescriptor protocol,
            int checkpointEvery,
            int keepLines,
            FailureSchedule failures,
            Duration timeout,
            ClusterLayout clusters,
            Path clusterFile) {
        Run(
                BenchWorkload workload,
                BenchWorkload.Size size,
                int ranks,
                ProtocolDescriptor protocol,
                int checkpointEvery,
                int keepLines,
                FailureSchedule failures,
                Duration timeout) {
            this(workload, size, ranks, protocol, checkpointEvery, keepLines, failures, timeout, null, null);
        }

        JobResult execute() {
            return execute(PointListener.NONE);
        }

        JobResult execute(PointListener listener) {
            return Job.run(builder(listener).build());
        }

        /** The job's configuration so far, for a bench that sets more (a log quota, say). */
        JobConfig.Builder builder(PointListener listener) {
            JobConfig.Builder b = JobConfig.builder(workload.mainClass())
                    .ranks(ranks)
                    .args(workload.args(size))
                    .protocol(protocol)
                    .checkpointEvery(checkpointEvery)
                    .keepLines(keepLines)
                    .failures(failures)
                    .timeout(timeout)
                    .pointListener(listener)
                    .quiet();
            if (clusters != null) {
                b.option("--clusters", clusters.spec());
            }
            return b;
        }

        /** The {@code rewind run} command line that repeats this job. */
        String commandLine() {
            StringBuilder sb = new StringBuilder("rewind run -n ")
                    .append(ranks)
                    .append(" --timeout ")
                    .append(timeout.toSeconds())
                    .append("s --protocol ")
                    .append(protocol.name());
            if (protocol != ProtocolRegistry.NONE) {
                sb.append(" --checkpoint-every ")
                        .append(checkpointEvery)
                        .append(" --keep-lines ")
                        .append(keepLines);
            }
            if (clusters != null) {
                sb.append(" --clusters ").append(clusterFile != null ? clusterFile.toString() : clusters.spec());
            }
            if (!failures.isEmpty()) {
                sb.append(" --kill ").append(failures);
            }
            sb.append(' ').append(workload.mainClass());
            for (String a : workload.args(size)) {
                sb.append(' ').append(a);
            }
            return sb.toString();
        }
    }

    /**
     * The log reserve ({@code --log-reserve}) that would have held one rank's log of a finished job
     * in memory faulted in before it sent anything: its largest rank log (payload peak), scaled by the
     * job's storage per payload byte (record headers and alignment, which dominate for short
     * messages), plus two blocks of slack. 0 when the job logged nothing.
     */
    static long reserveFor(io.rewind.runtime.RunReport report) {
        if (report.loggedBytes() <= 0) {
            return 0;
        }
        // A header and at most 7 bytes of padding per record; the 8 spared for a fragment's header too.
        long perRecordOverhead = 2L * io.rewind.ft.log.LogBlockFormat.HEADER_BYTES + 8;
        double storagePerPayloadByte =
                (report.loggedBytes() + (double) report.loggedEntries() * perRecordOverhead) / report.loggedBytes();
        long blockBytes = io.rewind.ft.log.PayloadLogConfig.builder(io.rewind.ft.log.StorageBackend.OFF_HEAP)
                .build()
                .blockBytes();
        return (long) Math.ceil(report.logHighWaterBytes() * storagePerPayloadByte) + 2 * blockBytes;
    }

    /** Rank 0's result line, or null when the job printed none. */
    static String resultLine(JobResult r, String prefix) {
        if (r.output().isEmpty()) {
            return null;
        }
        for (String line : r.output(0)) {
            if (line.startsWith(prefix + " ")) {
                return line;
            }
        }
        return null;
    }

    static List<ProtocolDescriptor> protocols(String spec) {
        List<ProtocolDescriptor> out = new ArrayList<>();
        for (String s : spec.split(",")) {
            out.add(ProtocolRegistry.get(s));
        }
        return out;
    }

    /** Comma-separated rank counts, each between 1 and {@link JobConfig#MAX_RANKS}. */
    static List<Integer> ints(String spec) {
        List<Integer> out = new ArrayList<>();
        for (String s : spec.split(",")) {
            int n;
            try {
                n = Integer.parseInt(s.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + spec + "' is not a list of rank counts (e.g. 4,8)");
            }
            if (n < 1 || n > JobConfig.MAX_RANKS) {
                throw new IllegalArgumentException(
                        "a rank count is between 1 and " + JobConfig.MAX_RANKS + ", got " + n);
            }
            out.add(n);
        }
        return out;
    }

    static double median(List<Double> xs) {
        if (xs.isEmpty()) {
            return Double.NaN;
        }
        double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        int n = a.length;
        return n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
    }

    /** The q-quantile (0..1) of the values, nearest rank; NaN for none. */
    static double quantile(List<Double> xs, double q) {
        if (xs.isEmpty()) {
            return Double.NaN;
        }
        double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return LoggingBench.quantile(a, q);
    }

    /**
     * A distribution-free 95 % confidence interval of the median: the order statistics n/2 -+
     * 0.98 sqrt(n) (normal approximation to the binomial), {NaN, NaN} for fewer than 6 values.
     */
    static double[] medianCi95(List<Double> xs) {
        int n = xs.size();
        if (n < 6) {
            return new double[] {Double.NaN, Double.NaN};
        }
        double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int lo = (int) Math.floor(n / 2.0 - 0.98 * Math.sqrt(n));
        int hi = (int) Math.ceil(n / 2.0 + 0.98 * Math.sqrt(n));
        return new double[] {a[Math.max(0, lo)], a[Math.min(n - 1, hi)]};
    }

    static double min(List<Double> xs) {
        return xs.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    static double max(List<Double> xs) {
        return xs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    static String fmt(double v, int decimals) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /**
     * A result table: named columns, rows of values (numbers, strings), written as JSON (an object
     * with the command and the rows as objects), CSV (raw values) and Markdown (formatted).
     */
    static final class Table {
        private final List<String> columns;
        private final List<String> headers;
        private final List<Integer> decimals;
        private final List<Object[]> rows = new ArrayList<>();

        /** Each column: id (JSON key and CSV header), Markdown header, decimals for doubles. */
        Table(Object... spec) {
            columns = new ArrayList<>();
            headers = new ArrayList<>();
            decimals = new ArrayList<>();
            for (int i = 0; i < spec.length; i += 3) {
                columns.add((String) spec[i]);
                headers.add((String) spec[i + 1]);
                decimals.add((Integer) spec[i + 2]);
            }
        }

        void add(Object... values) {
            if (values.length != columns.size()) {
                throw new IllegalArgumentException(
                        "row of " + values.length + " values for " + columns.size() + " columns");
            }
            rows.add(values);
        }

        List<Object[]> rows() {
            return rows;
        }

        String markdown() {
            StringBuilder sb = new StringBuilder("|");
            for (String h : headers) {
                sb.append(' ').append(h).append(" |");
            }
            sb.append("\n|");
            for (int i = 0; i < headers.size(); i++) {
                sb.append(rows.isEmpty() || rows.get(0)[i] instanceof String ? "---|" : "---:|");
            }
            sb.append('\n');
            for (Object[] row : rows) {
                sb.append('|');
                for (int i = 0; i < row.length; i++) {
                    sb.append(' ').append(cell(row[i], decimals.get(i))).append(" |");
                }
                sb.append('\n');
            }
            return sb.toString();
        }

        private static String cell(Object v, int decimals) {
            if (v instanceof Double d) {
                return fmt(d, decimals);
            }
            return String.valueOf(v);
        }

        String csv() {
            StringBuilder sb = new StringBuilder(String.join(",", columns)).append('\n');
            for (Object[] row : rows) {
                for (int i = 0; i < row.length; i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    Object v = row[i];
                    String s = v instanceof Double d ? (Double.isNaN(d) ? "" : Double.toString(d)) : String.valueOf(v);
                    sb.append(s.contains(",") ? '"' + s + '"' : s);
                }
                sb.append('\n');
            }
            return sb.toString();
        }

        /** Writes {@code name.json}, {@code name.csv} and {@code name.md} into {@code dir}. */
        void write(Path dir, String name, String command, Map<String, Object> settings) throws IOException {
            Files.createDirectories(dir);
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("command", command);
            doc.put("settings", settings);
            List<Map<String, Object>> list = new ArrayList<>();
            for (Object[] row : rows) {
                Map<String, Object> m = new LinkedHashMap<>();
                for (int i = 0; i < row.length; i++) {
                    Object v = row[i];
                    m.put(columns.get(i), v instanceof Double d && (d.isNaN() || d.isInfinite()) ? null : v);
                }
                list.add(m);
            }
            doc.put("rows", list);
            new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(dir.resolve(name + ".json").toFile(), doc);
            Files.writeString(dir.resolve(name + ".csv"), csv());
            Files.writeString(dir.resolve(name + ".md"), "`" + command + "`\n\n" + markdown());
        }
    }
}
