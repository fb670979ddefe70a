package io.rewind.engine;

import java.util.Objects;

/**
 * A request for work that runs on a thread of its own, such as a non-blocking collective: the
 * {@code mpi} facade reserves the collective's tag in program order, then runs the blocking
 * algorithm on a virtual thread; the request completes when the task returns, failed if it threw.
 */
public final class TaskRequest extends Request {
    private TaskRequest(RankEngine engine) {
        super(engine);
    }

    /** Starts {@code task} on a new virtual thread named {@code name} and returns its request. */
    public static TaskRequest start(RankEngine engine, String name, Runnable task) {
        Objects.requireNonNull(task, "task");
        TaskRequest request = new TaskRequest(engine);
        Thread.ofVirtual().name(name).start(() -> request.run(task));
        return request;
    }

    /** A request that is already complete (for operations that finished at call time). */
    public static TaskRequest completed(RankEngine engine) {
        TaskRequest request = new TaskRequest(engine);
        request.complete(Constants.ANY_SOURCE, Constants.ANY_TAG, 0, null);
        return request;
    }

    private void run(Runnable task) {
        RewindException error = null;
        try {
            task.run();
        } catch (RewindException e) {
            error = e;
        } catch (RuntimeException | Error e) {
            error = new RewindException(ErrorClass.INTERN, "non-blocking operation failed: " + e, e);
        }
        complete(Constants.ANY_SOURCE, Constants.ANY_TAG, 0, error);
    }
}
