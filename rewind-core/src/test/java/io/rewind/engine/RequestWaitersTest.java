package io.rewind.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.transport.local.InJvmTransport;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A request may have more than one waiter: a non-blocking collective's thread waits for the collective
 * started before it while the program waits for that one too. Completion must wake every waiter. The
 * waiters here park without a time limit, so a waiter left asleep shows as a test that does not end.
 */
class RequestWaitersTest {

    @Test
    void completionWakesEveryThreadParkedOnTheRequest() throws Exception {
        InJvmTransport transport = new InJvmTransport(2);
        RankEngine[] engines = new RankEngine[2];
        for (int r = 0; r < 2; r++) {
            engines[r] = new RankEngine(r, 2, transport, EngineConfig.forRanks(2), () -> {});
            engines[r].attach();
        }
        long[] into = new long[1];
        RecvRequest receive = engines[1].world().irecv(MemorySegment.ofArray(into), 0, 8, 0, 3);
        int waiterCount = 3;
        CountDownLatch registered = new CountDownLatch(waiterCount);
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < waiterCount; i++) {
            Thread t = Thread.ofPlatform().name("waiter-" + i).start(() -> {
                receive.addWaiter(Thread.currentThread());
                registered.countDown();
                while (!receive.isComplete()) {
                    LockSupport.park(receive); // no time limit: only the completion wakes this thread
                }
                receive.removeWaiter(Thread.currentThread());
            });
            waiters.add(t);
        }
        registered.await();
        engines[0].world().isend(MemorySegment.ofArray(new long[] {42}), 0, 8, 1, 3, SendMode.STANDARD);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (Thread t : waiters) {
                t.join();
            }
        });
        assertTrue(receive.isComplete());
        assertEquals(42, into[0]);
    }

    @Test
    void aWaiterThatLeavesIsNoLongerRegistered() {
        InJvmTransport transport = new InJvmTransport(1);
        RankEngine engine = new RankEngine(0, 1, transport, EngineConfig.forRanks(1), () -> {});
        engine.attach();
        RecvRequest receive = engine.world().irecv(MemorySegment.ofArray(new long[1]), 0, 8, 0, 1);
        Thread me = Thread.currentThread();
        Thread other = Thread.ofPlatform().unstarted(() -> {});
        receive.addWaiter(me);
        receive.addWaiter(other);
        receive.addWaiter(me); // the same request twice in one wait-any
        assertEquals(3, receive.waiterCount());
        receive.removeWaiter(me);
        assertEquals(2, receive.waiterCount(), "one registration goes per removal");
        receive.removeWaiter(me);
        receive.removeWaiter(me); // more removals than registrations change nothing
        assertEquals(1, receive.waiterCount(), "the other thread stays registered");
        receive.removeWaiter(other);
        assertEquals(0, receive.waiterCount());
    }
}
