package io.rewind.runtime.rank;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The thread that writes the channel-state parts of every rank's recovery lines in this JVM, so that
 * no rank's own thread waits for a file (or, in a rank process, for its node's checkpoint service)
 * when a message crosses one of its lines. One thread for the JVM, not one per rank: thousands of rank
 * threads share it, and a part is a small file. It ends after a few idle seconds and starts again with
 * the next part, so a JVM that runs job after job keeps no thread between them.
 */
final class ChannelStateWriter {
    private static final long IDLE_SECONDS = 5;

    private static final ThreadPoolExecutor THREAD = newThread();

    private ChannelStateWriter() {}

    private static ThreadPoolExecutor newThread() {
        ThreadPoolExecutor t = new ThreadPoolExecutor(
                1,
                1,
                IDLE_SECONDS,
                TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(),
                Thread.ofPlatform().name("rewind-channel-state").daemon(true).factory());
        t.allowCoreThreadTimeOut(true);
        return t;
    }

    /** Where keepers hand their writes: never blocks, runs them one at a time in hand-over order. */
    static Executor executor() {
        return THREAD;
    }
}
