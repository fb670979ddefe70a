package io.rewind.ft.log;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Measures, on this machine, what a logged send costs with each copy method across message sizes,
 * and derives the {@link HybridCopyPolicy} thresholds from the measurements ({@code rewind
 * calibrate} runs {@link #main}). A "send" here is the in-JVM transfer (one copy from the send
 * buffer to the receive buffer) plus logging into an off-heap log, which is what the in-JVM
 * transport does on every send.
 *
 * <p>This is a measurement tool, not a benchmark: it takes a few seconds and reports medians, good
 * enough to place a threshold between sizes a factor of four apart. The JMH benchmarks in
 * rewind-bench are the figures of record.
 */
public final class CopyMethodCalibration {

    /** A method must beat the alternative by this fraction to be chosen, so noise does not flip it. */
    private static final double MARGIN = 0.03;

    private CopyMethodCalibration() {}

    /**
     * What to measure.
     *
     * @param sizesBytes message sizes, ascending
     * @param nanosPerPoint time spent measuring one (size, method) point
     * @param rounds rounds per point; the median is reported
     * @param pipelineChunkBytes chunk size of the pipelined copy
     */
    public record Options(List<Long> sizesBytes, long nanosPerPoint, int rounds, long pipelineChunkBytes) {

        public Options {
            sizesBytes = List.copyOf(sizesBytes);
            if (sizesBytes.isEmpty()) {
                throw new IllegalArgumentException("no sizes to measure");
            }
            for (int i = 0; i < sizesBytes.size(); i++) {
                if (sizesBytes.get(i) <= 0 || (i > 0 && sizesBytes.get(i) <= sizesBytes.get(i - 1))) {
                    throw new IllegalArgumentException("sizes must be positive and ascending: " + sizesBytes);
                }
            }
            if (nanosPerPoint <= 0 || rounds < 1 || pipelineChunkBytes < 64) {
                throw new IllegalArgumentException("nanosPerPoint > 0, rounds >= 1, pipelineChunkBytes >= 64");
            }
        }

        /** 1 KiB to 4 MiB by factors of four, about 8 seconds in all. */
        public static Options defaults() {
            List<Long> sizes = new ArrayList<>();
            for (long s = 1024; s <= 4L << 20; s *= 4) {
                sizes.add(s);
            }
            return new Options(sizes, 200_000_000L, 5, 64L << 10);
        }
    }

    /**
     * Median time of one send of {@code sizeBytes}, in nanoseconds, for each way of logging it.
     *
     * @param sizeBytes message size
     * @param transferOnlyNanos the transfer without logging: the baseline
     * @param packNanos transfer plus a pack copy
     * @param pipelinedNanos pipelined transfer and copy
     * @param helperThreadNanos transfer while the helper thread copies, then wait for it
     */
    public record Measurement(
            long sizeBytes,
            double transferOnlyNanos,
            double packNanos,
            double pipelinedNanos,
            double helperThreadNanos) {

        double nanos(CopyMethod method) {
            return switch (method) {
                case PACK -> packNanos;
                case PIPELINED -> pipelinedNanos;
                case HELPER_THREAD -> helperThreadNanos;
            };
        }

        /** Extra time of logging with {@code method}, relative to the transfer alone (0.5 = 50 %). */
        public double overhead(CopyMethod method) {
            return nanos(method) / transferOnlyNanos - 1.0;
        }
    }

    /**
     * Measurements and the thresholds they suggest.
     *
     * @param pipelineThresholdBytes suggested {@code pipelineThresholdBytes}
     * @param helperThreadThresholdBytes suggested {@code helperThreadThresholdBytes}
     */
    public record Result(List<Measurement> measurements, long pipelineThresholdBytes, long helperThreadThresholdBytes) {

        public Result {
            measurements = List.copyOf(measurements);
        }

        /** {@code base} with the suggested thresholds. */
        public PayloadLogConfig applyTo(PayloadLogConfig base) {
            return base.toBuilder()
                    .pipelineThresholdBytes(pipelineThresholdBytes)
                    .helperThreadThresholdBytes(helperThreadThresholdBytes)
                    .build();
        }

        /** A human-readable table and the suggested settings. */
        public String report() {
            StringBuilder out = new StringBuilder();
            out.append(String.format(
                    Locale.ROOT,
                    "%10s %14s %16s %16s %16s%n",
                    "size",
                    "transfer ns",
                    "pack",
                    "pipelined",
                    "helper-thread"));
            for (Measurement m : measurements) {
                out.append(String.format(
                        Locale.ROOT,
                        "%10s %14.0f %16s %16s %16s%n",
                        bytes(m.sizeBytes()),
                        m.transferOnlyNanos(),
                        cell(m, CopyMethod.PACK),
                        cell(m, CopyMethod.PIPELINED),
                        cell(m, CopyMethod.HELPER_THREAD)));
            }
            out.append("suggested: pipelineThresholdBytes=")
                    .append(threshold(pipelineThresholdBytes))
                    .append(" helperThreadThresholdBytes=")
                    .append(threshold(helperThreadThresholdBytes))
                    .append(System.lineSeparator());
            return out.toString();
        }

        private static String cell(Measurement m, CopyMethod method) {
            return String.format(Locale.ROOT, "%.0f (%+.0f%%)", m.nanos(method), 100 * m.overhead(method));
        }

        private static String threshold(long bytes) {
            return bytes == PayloadLogConfig.UNLIMITED ? "never (" + bytes + ")" : Long.toString(bytes);
        }

        private static String bytes(long n) {
            if (n >= 1L << 20 && n % (1L << 20) == 0) {
                return (n >> 20) + " MiB";
            }
            if (n >= 1024 && n % 1024 == 0) {
                return (n >> 10) + " KiB";
            }
            return n + " B";
        }
    }

    /** Measures with {@code options} and suggests thresholds. */
    public static Result calibrate(Options options) {
        long largest = options.sizesBytes().getLast();
        List<Measurement> measurements = new ArrayList<>();
        PayloadLogConfig config = PayloadLogConfig.builder(StorageBackend.OFF_HEAP)
                .blockBytes(Math.max(4L << 20, ceilPage(largest + LogBlockFormat.HEADER_BYTES)))
                .spareBlocks(64)
                .build();
        try (Arena arena = Arena.ofShared();
                PayloadLog log = PayloadLog.open(0, config)) {
            MemorySegment source = arena.allocate(largest, 64);
            MemorySegment target = arena.allocate(largest, 64);
            for (long i = 0; i < largest; i++) {
                source.set(ValueLayout.JAVA_BYTE, i, (byte) i);
            }
            Sender sender = new Sender(log, source, target, options.pipelineChunkBytes());
            // Warm every path up before measuring anything, or the first size pays for the JIT.
            long warmUpNanos = options.nanosPerPoint() / 2;
            for (CopyMethod method : CopyMethod.values()) {
                sender.runFor(method, options.sizesBytes().getFirst(), warmUpNanos);
                sender.runFor(method, largest, warmUpNanos);
            }
            for (long size : options.sizesBytes()) {
                measurements.add(new Measurement(
                        size,
                        sender.measure(null, size, options),
                        sender.measure(CopyMethod.PACK, size, options),
                        sender.measure(CopyMethod.PIPELINED, size, options),
                        sender.measure(CopyMethod.HELPER_THREAD, size, options)));
            }
        }
        return suggest(measurements);
    }

    /** Thresholds from measurements: the size from which a method wins at every larger size. */
    static Result suggest(List<Measurement> measurements) {
        long helper = firstSizeFromWhichWins(measurements, CopyMethod.HELPER_THREAD);
        long pipeline = firstSizeFromWhichWins(measurements, CopyMethod.PIPELINED);
        if (pipeline > helper) {
            pipeline = helper;
        }
        return new Result(measurements, pipeline, helper);
    }

    private static long firstSizeFromWhichWins(List<Measurement> measurements, CopyMethod method) {
        long from = PayloadLogConfig.UNLIMITED;
        for (int i = measurements.size() - 1; i >= 0; i--) {
            Measurement m = measurements.get(i);
            double best = Double.MAX_VALUE;
            for (CopyMethod other : CopyMethod.values()) {
                if (other.ordinal() < method.ordinal()) {
                    best = Math.min(best, m.nanos(other));
                }
            }
            if (m.nanos(method) < best * (1 - MARGIN)) {
                from = m.sizeBytes();
            } else {
                break;
            }
        }
        return from;
    }

    private static long ceilPage(long bytes) {
        return (bytes + PayloadLogConfig.PAGE_BYTES - 1) / PayloadLogConfig.PAGE_BYTES * PayloadLogConfig.PAGE_BYTES;
    }

    /** Drives sends of one size with one method against the calibration log. */
    private static final class Sender {
        private static final long TRUNCATE_ABOVE_BYTES = 64L << 20;
        private final PayloadLog log;
        private final MemorySegment source;
        private final MemorySegment target;
        private final long chunkBytes;
        private long sequence;
        private long loggedBytes;

        Sender(PayloadLog log, MemorySegment source, MemorySegment target, long chunkBytes) {
            this.log = log;
            this.source = source;
            this.target = target;
            this.chunkBytes = chunkBytes;
        }

        double measure(CopyMethod method, long size, Options options) {
            long perRound = options.nanosPerPoint() / (options.rounds() + 1);
            runFor(method, size, perRound); // warm-up: JIT, page faults, helper thread start
            double[] nanosPerSend = new double[options.rounds()];
            for (int r = 0; r < options.rounds(); r++) {
                long start = System.nanoTime();
                long sends = runFor(method, size, perRound);
                nanosPerSend[r] = (double) (System.nanoTime() - start) / sends;
            }
            Arrays.sort(nanosPerSend);
            return nanosPerSend[nanosPerSend.length / 2];
        }

        long runFor(CopyMethod method, long size, long nanos) {
            long deadline = System.nanoTime() + nanos;
            long sends = 0;
            do {
                for (int i = 0; i < 16; i++) {
                    send(method, size);
                }
                sends += 16;
            } while (System.nanoTime() < deadline);
            return sends;
        }

        private void send(CopyMethod method, long size) {
            if (method == null) {
                MemorySegment.copy(source, 0, target, 0, size);
                return;
            }
            MessageKey key = new MessageKey(0, 0, 1, 0, ++sequence, 0);
            LogEntry entry = log.append(key, source, 0, size, method);
            PipelinedCopier.transferAndLog(source, 0, target, 0, size, entry, chunkBytes);
            entry.awaitCopy();
            loggedBytes += size;
            if (loggedBytes > TRUNCATE_ABOVE_BYTES) {
                // A checkpoint now and then, as in a real run: the log recycles blocks instead of growing.
                log.truncateAll();
                loggedBytes = 0;
            }
        }
    }

    /** Prints the measurements and the suggested thresholds. {@code --quick} measures briefly. */
    public static void main(String[] args) {
        Options options = Options.defaults();
        if (Arrays.asList(args).contains("--quick")) {
            options = new Options(options.sizesBytes(), 40_000_000L, 3, options.pipelineChunkBytes());
        }
        System.out.print(calibrate(options).report());
    }
}
