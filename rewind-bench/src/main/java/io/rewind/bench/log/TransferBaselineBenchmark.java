package io.rewind.bench.log;

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
import org.openjdk.jmh.annotations.Warmup;

/** The in-JVM transfer alone (one copy into the receiver's buffer): the baseline of a send. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class TransferBaselineBenchmark {

    @Param({"64", "4096", "65536", "1048576", "4194304"})
    public int sizeBytes;

    private MemorySegment source;
    private MemorySegment receiveBuffer;

    @Setup(Level.Trial)
    public void setUp() {
        byte[] payload = new byte[sizeBytes];
        ThreadLocalRandom.current().nextBytes(payload);
        source = MemorySegment.ofArray(payload);
        receiveBuffer = MemorySegment.ofArray(new byte[sizeBytes]);
    }

    @Benchmark
    public MemorySegment transferOnly() {
        MemorySegment.copy(source, 0, receiveBuffer, 0, sizeBytes);
        return receiveBuffer;
    }
}
