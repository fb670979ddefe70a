package io.rewind.bench.log;

import io.rewind.ft.log.CopyMethod;
import io.rewind.ft.log.LogEntry;
import io.rewind.ft.log.MessageKey;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One append (a pack copy into the off-heap log, waited for) into memory the log has used before
 * against one into memory it has not: the cost a log pays while it grows between two checkpoints.
 *
 * <p>The log is truncated whenever it holds 64 MiB, standing in for checkpoints. With {@code
 * recycled}, the truncated blocks are kept as spares (the default configuration), so every append
 * writes into memory already faulted in. With {@code fresh-*} no spare is kept: each truncated
 * block gives its memory back to the system, so every block is new memory again, as in a log that
 * only grows, but within a bounded footprint. {@code fresh-prepared} lets the log's preparer thread
 * fault the blocks in ahead (the default), {@code fresh-writer} leaves that to the first writes
 * (the log before blocks were prepared ahead). Needs two free cores for the preparer to run beside
 * the writer.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class LogBlockMemoryBenchmark {

    private static final long TRUNCATE_ABOVE_BYTES = 64L << 20;

    @Param({"recycled", "fresh-prepared", "fresh-writer"})
    public String memory;

    @Param({"4096", "65536", "1048576"})
    public int sizeBytes;

    private PayloadLog log;
    private MemorySegment source;
    private long sequence;
    private long loggedBytes;

    @Setup(Level.Trial)
    public void setUp() {
        PayloadLogConfig.Builder config = PayloadLogConfig.builder(StorageBackend.OFF_HEAP);
        switch (memory) {
            case "recycled" -> {}
            case "fresh-prepared" -> config.spareBlocks(0).spareLimitBytes(0);
            case "fresh-writer" -> config.spareBlocks(0).spareLimitBytes(0).prepareAhead(false);
            default -> throw new IllegalArgumentException("memory is recycled, fresh-prepared or fresh-writer");
        }
        log = PayloadLog.open(0, config.build());
        byte[] payload = new byte[sizeBytes];
        ThreadLocalRandom.current().nextBytes(payload);
        source = MemorySegment.ofArray(payload);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        log.close();
    }

    @Benchmark
    public LogEntry append() {
        LogEntry entry = log.append(new MessageKey(0, 0, 1, 0, ++sequence, 0), source, 0, sizeBytes, CopyMethod.PACK);
        entry.awaitCopy();
        loggedBytes += sizeBytes;
        if (loggedBytes >= TRUNCATE_ABOVE_BYTES) {
            log.truncateAll();
            loggedBytes = 0;
        }
        return entry;
    }
}
