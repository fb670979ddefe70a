package io.rewind.runtime.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointStore;
import io.rewind.checkpoint.CheckpointWriter;
import io.rewind.engine.ChannelKey;
import io.rewind.engine.Frame;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChannelStateKeeperTest {
    @TempDir
    Path dir;

    private static Frame crossing(long sequence, int senderLine, byte value) {
        Frame f = new Frame(0, 1, 1, 0, 7, sequence, 0, MemorySegment.ofArray(new byte[] {value}), 0, 1, null);
        f.setLine(senderLine);
        return f;
    }

    private static CheckpointImage line(int rank, long number) {
        return new CheckpointImage(rank, number, Map.of("state", new byte[] {(byte) number}));
    }

    @Test
    void aCrossingIsWrittenOffTheCallersThreadWithEveryKeptLineItCrossedThenReported() throws Exception {
        CheckpointStore store = new CheckpointStore(dir, 3);
        store.write(line(0, 1));
        store.write(line(0, 2));
        Map<Long, Map<Long, Long>> reported = new ConcurrentHashMap<>();
        CountDownLatch twoLines = new CountDownLatch(2);
        AtomicReference<Thread> writerThread = new AtomicReference<>();
        ExecutorService writing = Executors.newSingleThreadExecutor();
        try {
            ChannelStateKeeper keeper = new ChannelStateKeeper(
                    0,
                    0,
                    3,
                    store,
                    (l, upTo) -> {
                        writerThread.set(Thread.currentThread());
                        reported.put(l, upTo);
                        twoLines.countDown();
                    },
                    writing);
            keeper.lineWritten(2);

            // Sent before the sender's line 1, arrived after this rank wrote line 2: it crossed both.
            keeper.crossed(crossing(5, 0, (byte) 42), 2);

            assertTrue(twoLines.await(10, TimeUnit.SECONDS));
            assertNotEquals(Thread.currentThread(), writerThread.get());
            assertEquals(Map.of(ChannelKey.of(0, 1), 5L), reported.get(1L));
            assertEquals(Map.of(ChannelKey.of(0, 1), 5L), reported.get(2L));
            assertEquals(List.of(1), store.parts(0, 1));
            assertEquals(List.of(1), store.parts(0, 2));
            CheckpointImage restart = store.loadWithChannelState(0, 2, skipped -> {});
            assertTrue(restart.sections().containsKey(CheckpointStore.CHANNEL_STATE_SECTION));
        } finally {
            writing.shutdownNow();
        }
    }

    /**
     * The mailbox hands a crossing over once the rank has taken its line's snapshot, before the line's
     * file is written, and writing that file deletes the parts kept with an earlier file of its number.
     * A part the writing thread wrote in between went with the file, while the report of a later part
     * of its channel told the coordinator the line held the message: a global rollback to the line then
     * waited for it for ever (RandomProgramsTest under load, ranks killed together at one operation).
     * Here the writing thread's turn comes in between: the part must wait for the line and survive its
     * write, and be reported after it.
     */
    @Test
    void aCrossingOfTheLineBeingWrittenIsKeptOnlyOnceItsFileIsWrittenAndSurvivesIt() {
        CheckpointStore store = new CheckpointStore(dir, 3);
        store.write(line(0, 1));
        List<Runnable> turns = new ArrayList<>(); // the writing thread's turns, taken by hand
        Map<Long, Map<Long, Long>> reported = new HashMap<>();
        ChannelStateKeeper keeper = new ChannelStateKeeper(0, 0, 3, store, reported::put, turns::add);
        keeper.lineWritten(1);

        // The rank has taken line 2's snapshot; a message its sender sent before its own line 2 arrives,
        // and the writing thread takes its turn before the rank writes the line's file.
        keeper.crossed(crossing(4, 1, (byte) 9), 2);
        runAll(turns);
        Map<Long, Map<Long, Long>> beforeTheLine = Map.copyOf(reported);
        store.write(line(0, 2));
        keeper.lineWritten(2);
        runAll(turns);

        assertEquals(List.of(1), store.parts(0, 2), "the message kept with line 2 went with its file");
        CheckpointImage restart = store.loadWithChannelState(0, 2, skipped -> {});
        assertTrue(restart.sections().containsKey(CheckpointStore.CHANNEL_STATE_SECTION));
        assertEquals(Map.of(), beforeTheLine, "reported kept before its line was written");
        assertEquals(Map.of(2L, Map.of(ChannelKey.of(0, 1), 4L)), reported);
    }

    private static void runAll(List<Runnable> turns) {
        while (!turns.isEmpty()) {
            turns.removeFirst().run();
        }
    }

    @Test
    void closeWaitsForTheWriteUnderWayAndDropsWhatWasNotWrittenYet() throws Exception {
        CountDownLatch writeBegan = new CountDownLatch(1);
        CountDownLatch releaseWrite = new CountDownLatch(1);
        List<Long> partsWritten = new java.util.concurrent.CopyOnWriteArrayList<>();
        CheckpointWriter slow = new CheckpointWriter() {
            @Override
            public long write(CheckpointImage image) {
                throw new AssertionError("the keeper writes parts only");
            }

            @Override
            public long writeInTransit(CheckpointImage image, int part) {
                writeBegan.countDown();
                try {
                    releaseWrite.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                partsWritten.add(image.line());
                return 1;
            }
        };
        ExecutorService writing = Executors.newSingleThreadExecutor();
        try {
            ChannelStateKeeper keeper = new ChannelStateKeeper(0, 0, 8, slow, (l, upTo) -> {}, writing);
            keeper.lineWritten(2);
            keeper.crossed(crossing(1, 0, (byte) 1), 1);
            assertTrue(writeBegan.await(10, TimeUnit.SECONDS));
            keeper.crossed(crossing(2, 1, (byte) 2), 2); // taken while line 1's part is being written

            Thread closing = Thread.ofPlatform().start(keeper::close);
            // close waits on the monitor the write under way holds
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (closing.getState() != Thread.State.BLOCKED && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(Thread.State.BLOCKED, closing.getState(), "close returned while a part was being written");
            releaseWrite.countDown();
            closing.join(10_000);
            assertFalse(closing.isAlive());

            keeper.crossed(crossing(3, 2, (byte) 3), 3); // after close: not taken
            writing.shutdown();
            assertTrue(writing.awaitTermination(10, TimeUnit.SECONDS));
            assertEquals(List.of(1L), partsWritten);
        } finally {
            writing.shutdownNow();
        }
    }
}
