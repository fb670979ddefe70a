package io.rewind.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.engine.ChannelKey;
import io.rewind.engine.TrafficCounters;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.RankOutcome;
import io.rewind.runtime.rank.LogFigures;
import io.rewind.runtime.rank.RankEvent;
import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every rank event crosses a control link as it is: sent by a rank process, read by its launcher
 * through the link's filter, with every component unchanged.
 */
class RankEventsOnTheLinkTest {
    private static final long AT = 123_456_789L;

    /** One event of every kind, with every component set. */
    private static List<RankEvent> oneOfEach() {
        long channel = ChannelKey.of(0, 2);
        TrafficCounters.Sent sent = new TrafficCounters.Sent(
                new int[] {0, 1}, new long[] {0, 64}, new long[] {0, 1}, new long[] {8, 0}, new long[] {1, 0});
        return List.of(
                new RankEvent.Restored(1, 2, AT, 3, 4_000),
                new RankEvent.Checkpointed(
                        1,
                        2,
                        AT,
                        3,
                        Map.of(channel, 4L),
                        Map.of(channel, 5L),
                        new long[] {6, 7},
                        8_192,
                        9_000,
                        List.of("node-0", "node-1"),
                        new long[] {10, 11}),
                new RankEvent.KeptInTransit(1, 2, AT, 3, Map.of(channel, 12L)),
                new RankEvent.Unrestorable(1, 2, AT, 3, "the file is cut short"),
                new RankEvent.CaughtUp(1, 2, AT, 13, 14, 15),
                new RankEvent.Released(1, 2, AT, 16, 17, 18),
                new RankEvent.KillFired(1, 2, AT, new FailureSchedule.Kill(1, FailureSchedule.Trigger.OPERATION, 120)),
                new RankEvent.Struck(1, 2, AT, "killed at operation 120 (1@o120)", 19, 120),
                new RankEvent.Ended(
                        1,
                        2,
                        AT,
                        RankOutcome.Status.FAILED,
                        "threw java.lang.IllegalStateException",
                        21,
                        new LogFigures(22, 23, 24, 25, 26, new long[] {27, 28, 29}),
                        sent),
                new RankEvent.Progress(1, 2, AT, 30, 31, true, sent),
                new RankEvent.LogHeld(1, 2, AT, 32, 33),
                new RankEvent.Revoked(1, 2, AT, 4, new int[] {0, 1, 2}),
                new RankEvent.FailureCall(
                        1,
                        2,
                        AT,
                        io.rewind.engine.FailureDecision.Kind.AGREE,
                        4,
                        3,
                        new int[] {0, 1, 2},
                        new int[] {0, 2, 0},
                        3,
                        0x7f),
                new RankEvent.AbortRequested(1, 2, AT, 34, "rank 1 called MPI.Abort"));
    }

    @Test
    void theSamplesHoldOneEventOfEveryKind() {
        Set<Class<?>> kinds =
                Arrays.stream(RankEvent.class.getPermittedSubclasses()).collect(Collectors.toSet());
        Set<Class<?>> sampled = oneOfEach().stream().map(Object::getClass).collect(Collectors.toSet());
        assertEquals(kinds, sampled);
    }

    @Test
    void everyRankEventCrossesALinkUnchanged() throws Exception {
        JobSecret secret = JobSecret.generate();
        LinkedBlockingQueue<Object> received = new LinkedBlockingQueue<>();
        CompletableFuture<String> closed = new CompletableFuture<>();
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Link> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    Socket s = server.accept();
                    return Link.accept(s, secret, "launcher");
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            try (Link rank = Link.connect(
                            new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()),
                            secret,
                            "rank-1.2");
                    Link launcher = accepted.get(10, TimeUnit.SECONDS)) {
                launcher.startReader(received::add, closed::complete);
                for (RankEvent e : oneOfEach()) {
                    rank.send(e);
                }
                for (RankEvent sent : oneOfEach()) {
                    Object got = received.poll(10, TimeUnit.SECONDS);
                    assertNotNull(got, "nothing read for " + sent + (closed.isDone() ? ": " + closed.get() : ""));
                    assertEquals(sent.getClass(), got.getClass());
                    assertTrue(sameComponents(sent, got), sent + " came as " + got);
                }
            }
        }
    }

    /** Whether two records hold equal components, arrays and nested records compared by content. */
    private static boolean sameComponents(Object a, Object b) throws ReflectiveOperationException {
        if (a == null || b == null || !a.getClass().isRecord()) {
            return Objects.deepEquals(a, b);
        }
        if (a.getClass() != b.getClass()) {
            return false;
        }
        for (RecordComponent c : a.getClass().getRecordComponents()) {
            if (!sameComponents(c.getAccessor().invoke(a), c.getAccessor().invoke(b))) {
                return false;
            }
        }
        return true;
    }
}
