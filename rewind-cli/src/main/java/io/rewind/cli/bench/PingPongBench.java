package io.rewind.cli.bench;

import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rewind bench pingpong}: OSU-style latency and bandwidth between two ranks, for byte arrays
 * and direct buffers, beside the single-thread copy bandwidth of the same sizes.
 */
@Command(
        name = "pingpong",
        mixinStandardHelpOptions = true,
        header = "Ping-pong between two ranks, from 1 byte to --max-bytes.",
        description = {
            "Ping-pong between two ranks from 1 byte to --max-bytes, with byte arrays and direct "
                    + "buffers. Reports the median half round trip and the bandwidth, beside a single-thread "
                    + "memory copy of the same size (the limit of any in-memory transport). Writes pingpong.csv"
                    + " and pingpong.md."
        })
public final class PingPongBench implements Callable<Integer> {
    @Option(names = "--max-bytes", defaultValue = "4194304", description = "Largest message (default 4 MiB).")
    int maxBytes;

    @Option(names = "--batches", defaultValue = "7", description = "Timed batches per size; the median is kept.")
    int batches;

    @Option(names = "--out", defaultValue = "runs/pingpong", description = "Output folder (default: ${DEFAULT-VALUE}).")
    Path out;

    @Override
    public Integer call() throws IOException {
        if (maxBytes < 1 || batches < 1) {
            System.err.println("rewind bench pingpong: --max-bytes and --batches must be positive");
            return 2;
        }
        Map<String, List<String[]>> rows = new LinkedHashMap<>();
        for (String kind : List.of("array", "direct")) {
            JobResult r = Job.run(JobConfig.builder("io.rewind.apps.bench.PingPong")
                    .ranks(2)
                    .args(kind, Integer.toString(maxBytes), Integer.toString(batches))
                    .timeout(Duration.ofMinutes(30))
                    .quiet()
                    .build());
            if (!r.ok()) {
                System.err.print("rewind bench pingpong: job failed\n" + r.describeFailures());
                return 1;
            }
            List<String[]> lines = new ArrayList<>();
            for (String line : r.output(0)) {
                if (line.startsWith("pingpong,")) {
                    lines.add(line.split(","));
                }
            }
            rows.put(kind, lines);
        }
        Files.createDirectories(out);
        StringBuilder csv =
                new StringBuilder("buffer,bytes,median_half_rtt_ns,bandwidth_MBps,copy_MBps,ratio_to_copy\n");
        StringBuilder md = new StringBuilder();
        md.append(
                "| bytes | array half RTT (us) | array MB/s | direct half RTT (us) | direct MB/s | copy MB/s (array) | array / copy |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|\n");
        List<String[]> a = rows.get("array");
        List<String[]> d = rows.get("direct");
        for (int i = 0; i < a.size(); i++) {
            for (String[] row : List.of(a.get(i), d.get(i))) {
                double bw = Double.parseDouble(row[4]);
                double copy = Double.parseDouble(row[5]);
                csv.append(String.join(
                                ",",
                                row[1],
                                row[2],
                                row[3],
                                row[4],
                                row[5],
                                String.format(Locale.ROOT, "%.3f", bw / copy)))
                        .append('\n');
            }
            String[] ra = a.get(i);
            String[] rd = d.get(i);
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %.2f | %.0f | %.2f | %.0f | %.0f | %.2f |%n",
                    ra[2],
                    Double.parseDouble(ra[3]) / 1000,
                    Double.parseDouble(ra[4]),
                    Double.parseDouble(rd[3]) / 1000,
                    Double.parseDouble(rd[4]),
                    Double.parseDouble(ra[5]),
                    Double.parseDouble(ra[4]) / Double.parseDouble(ra[5])));
        }
        Files.writeString(out.resolve("pingpong.csv"), csv);
        Files.writeString(out.resolve("pingpong.md"), md);
        Files.writeString(out.resolve("pingpong.svg"), chart(a, d));
        System.out.print(md);
        System.out.println("wrote " + out.resolve("pingpong.csv") + ", " + out.resolve("pingpong.md") + " and "
                + out.resolve("pingpong.svg"));
        return 0;
    }

    /** Bandwidth in GB/s against message size, with the single-thread copy as the physical limit. */
    private static String chart(List<String[]> array, List<String[]> direct) {
        int n = array.size();
        long[] sizes = new long[n];
        double[] a = new double[n];
        double[] d = new double[n];
        double[] copy = new double[n];
        double max = 1;
        for (int i = 0; i < n; i++) {
            sizes[i] = Long.parseLong(array.get(i)[2]);
            a[i] = Double.parseDouble(array.get(i)[4]) / 1000;
            d[i] = Double.parseDouble(direct.get(i)[4]) / 1000;
            copy[i] = Double.parseDouble(array.get(i)[5]) / 1000;
            max = Math.max(max, Math.max(copy[i], Math.max(a[i], d[i])));
        }
        return RatioChart.svg(
                "Ping-pong bandwidth between two in-JVM ranks",
                "message size",
                "bandwidth (GB/s)",
                sizes,
                List.of(
                        new RatioChart.Line("byte[] messages", a, false),
                        new RatioChart.Line("direct ByteBuffer messages", d, false),
                        new RatioChart.Line("single-thread copy (limit)", copy, true)),
                List.of(),
                0,
                Math.ceil(max / 10) * 10);
    }
}
