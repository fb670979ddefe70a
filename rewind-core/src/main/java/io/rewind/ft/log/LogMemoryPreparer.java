package io.rewind.ft.log;

import java.util.concurrent.LinkedBlockingQueue;

/**
 * The one thread of this JVM that faults in log blocks ahead of their writers ({@link
 * OffHeapBlockSource} asks it for blocks it expects to need soon). One thread for every log of the
 * JVM, not one per log: a job of hundreds of in-JVM ranks must not start hundreds of threads, and
 * faulting in memory is bounded by the memory system, not by threads. A log whose preparation lags
 * behind its writer populates the block it needs on the writer's thread instead, so the thread is
 * never a point every log waits on.
 *
 * <p>Started by the first request and kept for the life of the JVM (a daemon that blocks on its
 * queue when idle); a failure to prepare one block is reported to that block's source, which keeps
 * the block unprepared (its first writer faults it in).
 */
final class LogMemoryPreparer {

    private static final LogMemoryPreparer INSTANCE = new LogMemoryPreparer();

    /** One block to prepare for one source. */
    private record Request(OffHeapBlockSource source, StorageBlock reuse, boolean adviseHugePages) {}

    private final LinkedBlockingQueue<Request> queue = new LinkedBlockingQueue<>();
    private Thread thread;

    private LogMemoryPreparer() {}

    /**
     * Queues a block to prepare for {@code source}: {@code reuse} (a cold block) or, if null, a new
     * mapping; {@link OffHeapBlockSource#prepare} runs on this thread.
     */
    static void submit(OffHeapBlockSource source, StorageBlock reuse, boolean adviseHugePages) {
        INSTANCE.start();
        INSTANCE.queue.add(new Request(source, reuse, adviseHugePages));
    }

    /**
     * Takes the requests of {@code source} that have not started off the queue: a closing log then
     * waits only for the one being prepared, not for the requests of other logs queued before its
     * own. Returns how many were taken.
     */
    static int withdraw(OffHeapBlockSource source) {
        int[] taken = {0};
        INSTANCE.queue.removeIf(request -> {
            if (request.source() == source) {
                taken[0]++;
                return true;
            }
            return false;
        });
        return taken[0];
    }

    private synchronized void start() {
        if (thread == null) {
            thread = Thread.ofPlatform().daemon().name("rewind-log-memory").unstarted(this::run);
            thread.start();
        }
    }

    private void run() {
        // Faulting memory in ahead only pays where a core would otherwise idle: at the lowest
        // priority the thread yields to every rank that wants a core (the writer then faults its
        // block in itself) instead of taking whole time slices from them.
        AnonymousMemory.lowerCallingThreadPriority();
        while (true) {
            Request request;
            try {
                request = queue.take();
            } catch (InterruptedException e) {
                continue; // nobody owns the right to stop this thread; queued requests must be answered
            }
            request.source().prepare(request.reuse(), request.adviseHugePages());
        }
    }
}
