package io.rewind.cli;

import io.rewind.ft.log.CopyMethodCalibration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rewind calibrate}: measures the payload log's copy methods on this machine and suggests thresholds. */
@Command(
        name = "calibrate",
        mixinStandardHelpOptions = true,
        header = "Measures each way of copying a logged send and suggests the copy thresholds.",
        description = {
            "Measures a logged send (the in-JVM transfer plus the copy into an off-heap payload log) "
                    + "with each copy method (pack, pipelined, helper thread) from 1 KiB to 4 MiB, and prints "
                    + "the hybrid policy's suggested pipelineThresholdBytes and helperThreadThresholdBytes for "
                    + "this machine. It takes about 8 s, or about 2 s with --quick."
        })
public final class CalibrateCommand implements Callable<Integer> {
    @Option(names = "--quick", description = "Measure briefly (fewer rounds, shorter points); noisier.")
    boolean quick;

    @Option(
            names = "--time-per-point",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description =
                    "Time spent on each (size, method) point, e.g. 200ms (default 200ms, or 40ms with " + "--quick).")
    java.time.Duration timePerPoint;

    /** The name {@code --time-per-point} had, in milliseconds, before every duration took units (one release). */
    @Option(names = "--millis-per-point", hidden = true)
    void oldTimePerPoint(long millis) {
        timePerPoint = java.time.Duration.ofMillis(millis);
    }

    @Option(
            names = "--rounds",
            paramLabel = "N",
            description = "Rounds per point; the median is kept (default 5, or 3 with --quick).")
    Integer rounds;

    @Override
    public Integer call() {
        CopyMethodCalibration.Options d = CopyMethodCalibration.Options.defaults();
        long nanos = timePerPoint != null ? timePerPoint.toNanos() : quick ? 40_000_000L : d.nanosPerPoint();
        int r = rounds != null ? rounds : quick ? 3 : d.rounds();
        CopyMethodCalibration.Options options;
        try {
            options = new CopyMethodCalibration.Options(d.sizesBytes(), nanos, r, d.pipelineChunkBytes());
        } catch (IllegalArgumentException e) {
            System.err.println("rewind calibrate: " + e.getMessage());
            return 2;
        }
        System.out.print(CopyMethodCalibration.calibrate(options).report());
        return 0;
    }
}
