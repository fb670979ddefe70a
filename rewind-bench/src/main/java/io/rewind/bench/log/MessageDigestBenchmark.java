package io.rewind.bench.log;

import io.rewind.engine.MessageDigests;
import java.lang.foreign.Arena;
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
 * What replay verification adds to a logged send, against what the send does anyway: the digest of
 * a message ({@link MessageDigests}, identity and payload) beside the log copy of its payload (a copy
 * into off-heap memory, as the off-heap log makes). Payloads in a byte array and in a double array
 * (the latter read through the digest's scratch buffer).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class MessageDigestBenchmark {

    @Param({"1", "1024", "65536", "1048576"})
    public int sizeBytes;

    private MemorySegment bytes;
    private MemorySegment doubles;
    private Arena arena;
    private MemorySegment log;

    @Setup(Level.Trial)
    public void setUp() {
        byte[] payload = new byte[sizeBytes];
        ThreadLocalRandom.current().nextBytes(payload);
        bytes = MemorySegment.ofArray(payload);
        double[] values = new double[Math.max(1, sizeBytes / Double.BYTES)];
        for (int i = 0; i < values.length; i++) {
            values[i] = ThreadLocalRandom.current().nextDouble();
        }
        doubles = MemorySegment.ofArray(values).asSlice(0, Math.min(sizeBytes, values.length * Double.BYTES));
        arena = Arena.ofConfined();
        log = arena.allocate(sizeBytes, 64);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public int digestOfBytes() {
        return MessageDigests.of(0, 1, 1, 2, 7, 42, bytes, 0, sizeBytes);
    }

    @Benchmark
    public int digestOfDoubles() {
        return MessageDigests.of(0, 1, 1, 2, 7, 42, doubles, 0, doubles.byteSize());
    }

    @Benchmark
    public MemorySegment logCopyOfBytes() {
        MemorySegment.copy(bytes, 0, log, 0, sizeBytes);
        return log;
    }
}
