package io.rewind.bench.log;

import io.rewind.ft.log.CopyMethod;
import io.rewind.ft.log.LogEntry;
import io.rewind.ft.log.MessageKey;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.PipelinedCopier;
import io.rewind.ft.log.StorageBackend;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * One logged in-JVM send: append to the payload log, transfer the message into the receiver's
 * buffer (through the pipelined copier, which logs chunk by chunk for {@code PIPELINED} and only
 * transfers otherwise), then wait for the log copy, as the engine must before completing the send.
 * Compare with {@link TransferBaselineBenchmark} for the overhead of logging.
 *
 * <p>The log is truncated whenever it holds {@code byteLimit} (64 MiB) or {@code entryLimit}
 * entries, standing in for receivers' checkpoints, so the figures include block recycling, writes to
 * memory that is not in cache and, for the mapped backend, window moves, as a long run would. With
 * the default limit of 65,536 entries the index stays small; a limit of millions is the log of short
 * messages between two checkpoints seconds apart, where the garbage collector traces and copies
 * millions of live index entries (what each entry weighs on the heap then shows in the time per
 * append).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class PayloadLogAppendBenchmark {

    @Param({"OFF_HEAP", "MAPPED_FILE", "DUMMY"})
    public StorageBackend backend;

    @Param({"PACK", "PIPELINED", "HELPER_THREAD"})
    public CopyMethod method;

    @Param({"64", "4096", "65536", "1048576", "4194304"})
    public int sizeBytes;

    /** Payload bytes the log holds before it is truncated (a checkpoint). */
    @Param({"67108864"})
    public long byteLimit;

    /** Entries the log holds before it is truncated (a checkpoint). */
    @Param({"65536"})
    public long entryLimit;

    /** Chunk size of the pipelined copy (the default of the configuration). */
    @Param({"65536"})
    public long chunkBytes;

    private Path directory;
    private PayloadLog log;
    private MemorySegment source;
    private MemorySegment receiveBuffer;
    private long sequence;
    private long loggedBytes;
    private long loggedEntries;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        directory = Files.createTempDirectory("rewind-bench-log");
        PayloadLogConfig config = PayloadLogConfig.builder(backend)
                .mappedDirectory(directory)
                .pipelineChunkBytes(chunkBytes)
                .build();
        log = PayloadLog.open(0, config);
        byte[] payload = new byte[sizeBytes];
        ThreadLocalRandom.current().nextBytes(payload);
        source = MemorySegment.ofArray(payload);
        receiveBuffer = MemorySegment.ofArray(new byte[sizeBytes]);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        log.close();
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Benchmark
    public LogEntry loggedSend() {
        LogEntry entry = log.append(new MessageKey(0, 0, 1, 0, ++sequence, 0), source, 0, sizeBytes, method);
        PipelinedCopier.transferAndLog(source, 0, receiveBuffer, 0, sizeBytes, entry, chunkBytes);
        entry.awaitCopy();
        loggedBytes += sizeBytes;
        if (loggedBytes >= byteLimit || ++loggedEntries >= entryLimit) {
            log.truncateAll();
            loggedBytes = 0;
            loggedEntries = 0;
        }
        return entry;
    }
}
