package io.rewind.ft.log;

import java.util.concurrent.LinkedBlockingQueue;

/**
 * The one thread per log that performs {@link CopyMethod#HELPER_THREAD} copies, in submission
 * order. Owned by the log: started by the first helper-thread append, stopped by
 * {@link PayloadLog#close()} after the copies already queued have run. It blocks on its queue when
 * idle instead of spinning, because ranks share cores and a spinning copier would steal the very
 * cycles the transfer needs.
 */
final class HelperThreadCopier implements AutoCloseable {

    private static final Runnable STOP = () -> {};

    private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private final Thread thread;

    HelperThreadCopier(String threadName) {
        thread = Thread.ofPlatform().daemon().name(threadName).unstarted(this::run);
        thread.start();
    }

    Thread thread() {
        return thread;
    }

    void submit(Runnable copy) {
        queue.add(copy);
    }

    private void run() {
        while (true) {
            Runnable task;
            try {
                task = queue.take();
            } catch (InterruptedException e) {
                // Only close() stops the copier; an interrupt from elsewhere must not lose queued copies.
                continue;
            }
            if (task == STOP) {
                return;
            }
            task.run();
        }
    }

    /** Runs what is already queued, then stops the thread and waits for it. */
    @Override
    public void close() {
        queue.add(STOP);
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
