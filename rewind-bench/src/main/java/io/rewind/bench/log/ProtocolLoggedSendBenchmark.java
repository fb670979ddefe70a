package io.rewind.bench.log;

import io.rewind.engine.Frame;
import io.rewind.engine.Transport;
import io.rewind.ft.EventLogger;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.ft.sender.SenderLoggingRank;
import io.rewind.transport.local.RecordingTransport;
import java.lang.foreign.MemorySegment;
import java.util.Map;
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
 * The pessimistic protocol's part of one logged send, alone on one thread: {@code send} (hand-off to a
 * transport that drops it, then the log copy) and {@code afterSend} on a frame as the engine builds
 * it, with no transfer. Short messages are copied aside and entered into the log in batches (as a
 * rank that never waits would), so the score is the whole cost per message, amortized. The receiver
 * "checkpoints" every 65,536 sends (a recovery line naming the last sequence, then {@code
 * truncate()}), so truncation and block recycling are included as in a long run. The {@code DUMMY}
 * backend keeps nothing: it measures the bookkeeping plus a copy to one hot area, not a usable log.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ProtocolLoggedSendBenchmark {
    /** Takes frames and drops them: only the protocol's own work is exercised. */
    private static final Transport NOWHERE = new RecordingTransport(false);

    private static final int CONTEXT = 2;
    private static final long CHECKPOINT_EVERY = 65_536;

    @Param({"OFF_HEAP", "DUMMY"})
    public StorageBackend backend;

    @Param({"1", "64", "1024"})
    public int sizeBytes;

    private SenderLoggingRank protocol;
    private RecoveryLines lines;
    private MemorySegment source;
    private long sequence;
    private long line;

    @Setup(Level.Trial)
    public void setUp() {
        PayloadLogConfig config = PayloadLogConfig.builder(backend).build();
        lines = new RecoveryLines(2, 1);
        protocol = new SenderLoggingRank(0, 0, PayloadLog.open(0, config), new EventLogger(2).clientFor(0), lines);
        source = MemorySegment.ofArray(new byte[sizeBytes]);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        protocol.close();
    }

    @Benchmark
    public Object loggedSend() {
        long s = ++sequence;
        Frame frame = new Frame(CONTEXT, 0, 0, 1, 5, s, 0, source, 0, sizeBytes, null);
        protocol.send(frame, 1, null, NOWHERE);
        protocol.afterSend(frame);
        if (s % CHECKPOINT_EVERY == 0) {
            lines.published(1, ++line, Map.of(((long) CONTEXT << 32), s));
            protocol.truncate();
        }
        return frame;
    }
}
