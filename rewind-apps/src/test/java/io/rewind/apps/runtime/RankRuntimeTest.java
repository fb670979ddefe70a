package io.rewind.apps.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.api.Checkpointer;
import io.rewind.checkpoint.CheckpointStore;
import io.rewind.ft.EventLogger;
import io.rewind.ft.Protocol;
import io.rewind.ft.ProtocolServices;
import io.rewind.ft.RecoveryLines;
import io.rewind.runtime.CommunicatorRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.InputRouter;
import io.rewind.runtime.JobAbortedException;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.OutputRouter;
import io.rewind.runtime.RankOutcome;
import io.rewind.runtime.rank.Incarnation;
import io.rewind.runtime.rank.RankEvent;
import io.rewind.runtime.rank.RankHost;
import io.rewind.runtime.rank.RankRuntime;
import io.rewind.runtime.rank.RankSlot;
import io.rewind.transport.local.InJvmTransport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.PrintStream;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One rank on the rank runtime alone, with no job around it: a host written here and a sink that
 * records. The events of a checkpoint, a strike, a restart that restores and catches up, and the ends
 * {@code System.exit} makes after and before {@code MPI.Finalize}, in their order; each one read back
 * unchanged from its serialised form, as a rank process sends it over its link.
 */
class RankRuntimeTest {
    private static final int STEPS = 10;

    /** Passes a checkpoint point every step; prints its sum, then ends as its argument says. */
    public static final class Steps {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Checkpointer cp = Checkpointer.get();
            int[] step = {0};
            long[] sum = {0};
            cp.register("step", step);
            cp.register("sum", sum);
            cp.restore();
            while (step[0] < STEPS) {
                cp.point();
                long[] v = {step[0]};
                MPI.COMM_WORLD.allReduce(v, 1, MPI.LONG, MPI.SUM);
                sum[0] = sum[0] * 31 + v[0];
                step[0]++;
            }
            System.out.println("sum " + sum[0]);
            switch (args.length == 0 ? "return" : args[0]) {
                case "exit-before" -> System.exit(3);
                case "exit-after" -> {
                    MPI.Finalize();
                    System.exit(0);
                }
                default -> MPI.Finalize();
            }
        }
    }

    /** What a host of one rank does, written down; the job finishes once the rank's program has ended. */
    private static final class OneRank implements RankHost {
        final List<RankEvent> events = Collections.synchronizedList(new ArrayList<>());
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());
        final RecoveryLines lines = new RecoveryLines(1, 2);
        /** Counted down at each {@link #down}: the runtime tells it just after the thread is gone. */
        final java.util.concurrent.Semaphore downs = new java.util.concurrent.Semaphore(0);

        volatile boolean finished;

        void emit(RankEvent e) {
            if (e instanceof RankEvent.Progress || e instanceof RankEvent.LogHeld) {
                return;
            }
            events.add(e);
            if (e instanceof RankEvent.Ended) {
                finished = true; // one rank: its end is the job's
            }
        }

        @Override
        public boolean jobFinished() {
            return finished;
        }

        @Override
        public JobAbortedException jobAbort() {
            return null;
        }

        @Override
        public void down(Incarnation inc) {
            calls.add("down " + inc.rank() + "." + inc.number());
            downs.release();
        }

        @Override
        public void crashed(Incarnation inc) {
            calls.add("crashed " + inc.rank() + "." + inc.number());
        }

        @Override
        public void exitBeforeFinalize(int status, boolean halt) {
            calls.add("exit before finalize " + status);
        }

        @Override
        public void lineWritten(RankEvent.Checkpointed c) {
            lines.published(c.rank(), c.line(), c.frontiers(), c.events(), c.sent());
        }

        @Override
        public void inTransitKept(RankEvent.KeptInTransit kept) {
            lines.keptInTransit(kept.rank(), kept.line(), kept.upTo());
        }
    }

    @TempDir
    Path folder;

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    private JobConfig config(String... args) {
        return JobConfig.builder(Steps.class.getName())
                .args(List.of(args))
                .ranks(1)
                .protocol("pessimistic")
                .checkpointEvery(3)
                .timeout(Duration.ofSeconds(60))
                .quiet()
                .build();
    }

    /** A runtime of one rank, writing its lines to {@code store}. */
    private RankRuntime runtime(JobConfig config, OneRank host, CheckpointStore store) {
        OutputRouter.install();
        InputRouter.install();
        Protocol protocol = config.faultTolerance().protocol().create();
        EventLogger events = new EventLogger(1);
        protocol.start(new ProtocolServices(
                1,
                2,
                config.logging().payloadLog(),
                config.logging().applicationLevelCollectives(),
                events::clientFor,
                host.lines,
                protocol::onReport,
                config.faultTolerance().protocolOptions()));
        RankRuntime ranks = new RankRuntime(
                config,
                new InJvmTransport(1),
                new CommunicatorRegistry(),
                protocol,
                store,
                store,
                getClass().getClassLoader(),
                host::emit,
                host);
        PrintStream out = new PrintStream(printed, true);
        ranks.open(
                0,
                new OutputRouter.RankOutput(0, false, out, out),
                new InputRouter.RankInput(0, (o, b, off, len) -> -1));
        return ranks;
    }

    private static Incarnation run(
            RankRuntime ranks,
            int number,
            long line,
            CheckpointStore store,
            List<FailureSchedule.Kill> kills,
            long catchUp) {
        RankSlot slot = ranks.slot(0);
        Incarnation inc = ranks.prepare(
                slot, number, line > 0 ? store.loadWithChannelState(0, line, why -> {}) : null, kills, catchUp, 0);
        ranks.start(inc);
        assertTrue(inc.awaitGone(System.nanoTime() + Duration.ofSeconds(60).toNanos()), "the rank did not end");
        return inc;
    }

    @Test
    void aStruckRanksLinesStrikeRestoreAndCatchUpComeInOrderAndEachCrossesALinkUnchanged() throws Exception {
        JobConfig config = config();
        OneRank host = new OneRank();
        CheckpointStore store = new CheckpointStore(Files.createDirectories(folder.resolve("lines")), 2);
        RankRuntime ranks = runtime(config, host, store);

        FailureSchedule.Kill kill = new FailureSchedule.Kill(0, FailureSchedule.Trigger.ITERATION, 8);
        Incarnation first = run(ranks, 0, 0, store, List.of(kill), 0);
        assertEquals(
                List.of("Checkpointed.0", "KillFired.0", "Struck.0"),
                RankEventSequenceTest.shape(host.events),
                host.events.toString());
        // Its program's thread at its end (a process would go no further), then gone and struck: the
        // host hears "down" right after the thread is gone, which awaitGone may return before.
        assertTrue(host.downs.tryAcquire(60, java.util.concurrent.TimeUnit.SECONDS), "never told down");
        assertEquals(List.of("crashed 0.0", "down 0.0"), host.calls);
        RankEvent.Struck struck = (RankEvent.Struck) host.events.getLast();
        assertEquals(8, struck.points());
        assertEquals(first.strike().reason(), struck.reason());
        long newest = host.events.stream()
                .filter(e -> e instanceof RankEvent.Checkpointed)
                .mapToLong(e -> ((RankEvent.Checkpointed) e).line())
                .max()
                .orElseThrow();
        assertEquals(2, newest, "lines at points 3 and 6");

        run(ranks, 1, newest, store, List.of(), struck.points());
        List<String> shape = RankEventSequenceTest.shape(host.events);
        assertEquals(
                List.of(
                        "Checkpointed.0",
                        "KillFired.0",
                        "Struck.0",
                        "Restored.1",
                        "CaughtUp.1",
                        "Checkpointed.1",
                        "Ended.1"),
                shape,
                host.events.toString());
        RankEvent.Restored restored = (RankEvent.Restored) host.events.stream()
                .filter(e -> e instanceof RankEvent.Restored)
                .findFirst()
                .orElseThrow();
        assertEquals(newest, restored.line());
        RankEvent.Ended ended = (RankEvent.Ended) host.events.getLast();
        assertEquals(RankOutcome.Status.COMPLETED, ended.status());
        List<String> lines = ranks.slot(0).output().lines();
        assertEquals(1, lines.stream().filter(l -> l.startsWith("sum ")).count(), lines.toString());

        for (RankEvent e : host.events) {
            Object back = roundTrip(e);
            assertEquals(e.getClass(), back.getClass());
            assertTrue(sameComponents(e, back), e + " came back as " + back);
        }
    }

    @Test
    void anExitAfterFinalizeIsANormalEndAndOneBeforeAsksTheHostThenAbortsTheJob() {
        OneRank after = new OneRank();
        RankRuntime ranks = runtime(config("exit-after"), after, new CheckpointStore(folder, 2));
        run(ranks, 0, 0, null, List.of(), 0);
        List<RankEvent> ends = after.events.stream()
                .filter(e -> !(e instanceof RankEvent.Checkpointed))
                .toList();
        assertEquals(List.of("Ended.0"), RankEventSequenceTest.shape(ends), after.events.toString());
        assertEquals(RankOutcome.Status.COMPLETED, ((RankEvent.Ended) ends.getFirst()).status());
        assertEquals(List.of(), after.calls);

        OneRank before = new OneRank();
        ranks = runtime(config("exit-before"), before, new CheckpointStore(folder.resolve("b"), 2));
        run(ranks, 0, 0, null, List.of(), 0);
        ends = before.events.stream()
                .filter(e -> !(e instanceof RankEvent.Checkpointed))
                .toList();
        assertEquals(
                List.of("AbortRequested.0", "Ended.0"), RankEventSequenceTest.shape(ends), before.events.toString());
        RankEvent.AbortRequested abort = (RankEvent.AbortRequested) ends.getFirst();
        assertEquals(3, abort.errorCode());
        assertTrue(abort.reason().contains("System.exit(3) before MPI.Finalize"), abort.reason());
        assertEquals(RankOutcome.Status.FAILED, ((RankEvent.Ended) ends.getLast()).status());
        // The host is asked first: a rank process would have ended with the status right there.
        assertEquals(List.of("exit before finalize 3"), before.calls);
        assertNotNull(ranks.aborted());
    }

    private static Object roundTrip(Object o) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }

    /** Whether two records hold equal components, arrays compared by their elements. */
    private static boolean sameComponents(Object a, Object b) throws ReflectiveOperationException {
        for (RecordComponent c : a.getClass().getRecordComponents()) {
            Object x = c.getAccessor().invoke(a);
            Object y = c.getAccessor().invoke(b);
            if (x != null && x.getClass().isRecord()) {
                if (!sameComponents(x, y)) {
                    return false;
                }
            } else if (!Arrays.deepEquals(new Object[] {x}, new Object[] {y})) {
                return false;
            }
        }
        return true;
    }
}
