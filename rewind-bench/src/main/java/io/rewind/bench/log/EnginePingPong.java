package io.rewind.bench.log;

import io.rewind.engine.Communicator;
import io.rewind.engine.EngineConfig;
import io.rewind.engine.FaultTolerance;
import io.rewind.engine.RankEngine;
import io.rewind.engine.SendMode;
import io.rewind.ft.EventLogger;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.global.GlobalRollbackRank;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.log.PayloadLogConfig;
import io.rewind.ft.log.StorageBackend;
import io.rewind.ft.sender.SenderLoggingRank;
import io.rewind.transport.local.InJvmTransport;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;

/**
 * A ping-pong on the engine itself, without the {@code mpi} facade, for one message size: a pair of
 * ranks without a protocol, one under global rollback (arrival tracking, no log) and one under the
 * pessimistic protocol with the dummy log backend (the send path without storage effects), all in
 * one JVM, taking turns batch by batch. Each protocol's batch is divided by the unprotected pair's
 * batch of the same round; the median and quartiles of those ratios are printed.
 *
 * <p>Usage: {@code EnginePingPong [bytes] [batches] [roundTripsPerBatch]}. Without the facade's
 * work between messages, a rank's turnaround is shorter, so less of the log's bookkeeping hides in
 * it than in {@code rewind bench logging}: this is the harder case. Two free cores wanted.
 */
public final class EnginePingPong {
    private static final String[] VARIANTS = {"none", "global", "pessimistic"};

    private EnginePingPong() {}

    public static void main(String[] args) throws Exception {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        int batches = args.length > 1 ? Integer.parseInt(args[1]) : 41;
        int roundTrips = args.length > 2
                ? Integer.parseInt(args[2])
                : (int) Math.max(50, Math.min(2000, 40_000_000L / Math.max(size, 1) / 20));
        int warmUp = 5;
        double[][] halfRtt = new double[VARIANTS.length][batches];
        List<CyclicBarrier[]> turns = new ArrayList<>();
        for (int v = 0; v < VARIANTS.length; v++) {
            RankEngine[] pair = pair(VARIANTS[v]);
            CyclicBarrier start = new CyclicBarrier(3);
            CyclicBarrier end = new CyclicBarrier(3);
            turns.add(new CyclicBarrier[] {start, end});
            for (int r = 0; r < 2; r++) {
                int me = r;
                int variant = v;
                Thread t = new Thread(
                        () -> run(
                                pair[me].world(), me, size, roundTrips, warmUp, batches, start, end, halfRtt[variant]),
                        VARIANTS[v] + "-rank-" + r);
                t.setDaemon(true);
                t.start();
            }
        }
        for (int b = -warmUp; b < batches; b++) {
            for (int k = 0; k < VARIANTS.length; k++) {
                CyclicBarrier[] turn = turns.get(Math.floorMod(k + b, VARIANTS.length));
                turn[0].await();
                turn[1].await();
            }
        }
        StringBuilder out = new StringBuilder(
                String.format(Locale.ROOT, "%d bytes, no protocol %.3f us", size, median(halfRtt[0]) / 1000));
        for (int v = 1; v < VARIANTS.length; v++) {
            double[] ratios = new double[batches];
            for (int b = 0; b < batches; b++) {
                ratios[b] = halfRtt[0][b] / halfRtt[v][b];
            }
            Arrays.sort(ratios);
            out.append(String.format(
                    Locale.ROOT,
                    " | %s: ratio %.2f (quartiles %.2f-%.2f)",
                    VARIANTS[v],
                    ratios[batches / 2],
                    ratios[batches / 4],
                    ratios[3 * batches / 4]));
        }
        System.out.println(out);
        System.exit(0);
    }

    private static RankEngine[] pair(String variant) {
        InJvmTransport transport = new InJvmTransport(2);
        EventLogger events = new EventLogger(2);
        RecoveryLines lines = new RecoveryLines(2, 2);
        RankEngine[] engines = new RankEngine[2];
        for (int r = 0; r < 2; r++) {
            FaultTolerance ft =
                    switch (variant) {
                        case "none" -> FaultTolerance.NONE;
                        case "global" -> new GlobalRollbackRank();
                        default -> new SenderLoggingRank(
                                r,
                                0,
                                PayloadLog.open(
                                        r,
                                        PayloadLogConfig.builder(StorageBackend.DUMMY)
                                                .build()),
                                events.clientFor(r),
                                lines);
                    };
            engines[r] = new RankEngine(
                    r, 2, transport, new EngineConfig(EngineConfig.DEFAULT_EAGER_LIMIT_BYTES, 10_000), () -> {}, ft);
            engines[r].attach();
        }
        return engines;
    }

    private static void run(
            Communicator world,
            int me,
            int size,
            int roundTrips,
            int warmUp,
            int batches,
            CyclicBarrier start,
            CyclicBarrier end,
            double[] halfRtt) {
        MemorySegment buf = MemorySegment.ofArray(new byte[size]);
        try {
            for (int b = -warmUp; b < batches; b++) {
                start.await();
                long t0 = System.nanoTime();
                for (int i = 0; i < roundTrips; i++) {
                    if (me == 0) {
                        world.isend(buf, 0, size, 1, 1, SendMode.STANDARD).await();
                        world.irecv(buf, 0, size, 1, 1).await();
                    } else {
                        world.irecv(buf, 0, size, 0, 1).await();
                        world.isend(buf, 0, size, 0, 1, SendMode.STANDARD).await();
                    }
                }
                if (me == 0 && b >= 0) {
                    halfRtt[b] = (System.nanoTime() - t0) / (2.0 * roundTrips);
                }
                end.await();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
