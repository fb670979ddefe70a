package io.rewind.runtime;

import io.rewind.engine.RankEngine;
import io.rewind.engine.RewindException;
import io.rewind.transport.local.InJvmTransport;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one SPMD job in this JVM: every rank is a platform thread named {@code rank-N} running the
 * program's {@code main} in its own class loader. The job ends when every rank has returned, or
 * when it is aborted (a rank failed, called {@code abort}, or the time limit passed).
 */
public final class Job {
    /** How long ranks get to notice an abort before they are reported as hung. */
    private static final Duration ABORT_GRACE = Duration.ofSeconds(10);

    private final JobConfig config;
    private final InJvmTransport transport;
    private final RankSlot[] slots;
    private final AtomicReference<JobAbortedException> abort = new AtomicReference<>();

    private Job(JobConfig config) {
        this.config = config;
        this.transport = new InJvmTransport(config.ranks());
        this.slots = new RankSlot[config.ranks()];
    }

    /** Runs the job to its end and reports how every rank ended. */
    public static JobResult run(JobConfig config) {
        return new Job(config).execute();
    }

    private JobResult execute() {
        OutputRouter.install();
        long start = System.nanoTime();
        ClassLoader parent = Thread.currentThread().getContextClassLoader();
        if (parent == null) {
            parent = Job.class.getClassLoader();
        }
        int n = config.ranks();
        for (int r = 0; r < n; r++) {
            RankContext ctx = new RankContext(this, r, n);
            final int rank = r;
            RankEngine engine = new RankEngine(r, n, transport, config.engine(), () -> checkAlive(rank));
            engine.attach();
            ctx.bind(engine);
            RankClassLoader loader = new RankClassLoader(ctx, config.classPathUrls(), parent);
            OutputRouter.RankOutput output = new OutputRouter.RankOutput(r, config.tagOutput(), config.out(),
                    config.err());
            slots[r] = new RankSlot(ctx, loader, output);
        }
        for (RankSlot s : slots) {
            Thread t = Thread.ofPlatform().name("rank-" + s.context.rank()).daemon(true)
                    .unstarted(() -> runRank(s));
            t.setContextClassLoader(s.loader);
            s.thread = t;
        }
        for (RankSlot s : slots) {
            s.thread.start();
        }
        long deadline = start + config.timeout().toNanos();
        boolean timedOut = false;
        for (RankSlot s : slots) {
            if (!join(s.thread, deadline)) {
                timedOut = true;
                break;
            }
        }
        if (timedOut) {
            abort(-1, 1, "time limit of " + config.timeout() + " exceeded");
            long graceDeadline = System.nanoTime() + ABORT_GRACE.toNanos();
            for (RankSlot s : slots) {
                join(s.thread, graceDeadline);
            }
        }
        List<RankOutcome> outcomes = new ArrayList<>(n);
        List<List<String>> output = new ArrayList<>(n);
        for (RankSlot s : slots) {
            s.output.flush();
            RankOutcome o = s.outcome;
            if (o == null || s.thread.isAlive()) {
                o = new RankOutcome(s.context.rank(), RankOutcome.Status.TIMED_OUT,
                        "still running at the time limit" + (s.thread.isAlive() ? " (thread did not stop)" : ""), null);
            }
            outcomes.add(o);
            output.add(s.output.lines());
            s.loader.close();
            s.context.engine().mailbox().close();
        }
        transport.close();
        JobAbortedException a = abort.get();
        int exit = 0;
        for (RankOutcome o : outcomes) {
            if (!o.ok()) {
                exit = 1;
            }
        }
        if (a != null) {
            exit = a.errorCode() != 0 ? a.errorCode() : 1;
        }
        if (timedOut) {
            exit = 124;
        }
        return new JobResult(exit, List.copyOf(outcomes), List.copyOf(output),
                Duration.ofNanos(System.nanoTime() - start), a == null ? null : a.getMessage());
    }

    private static boolean join(Thread t, long deadlineNanos) {
        try {
            long left = deadlineNanos - System.nanoTime();
            if (left > 0) {
                t.join(Duration.ofNanos(left));
            }
            return !t.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void runRank(RankSlot s) {
        OutputRouter.bind(s.output);
        int rank = s.context.rank();
        try {
            Method main = findMain(s.loader);
            main.invoke(null, (Object) config.args().toArray(new String[0]));
            if (s.context.isInitialized() && !s.context.isFinalized()) {
                s.outcome = new RankOutcome(rank, RankOutcome.Status.FAILED,
                        "returned from main after MPI.Init without calling MPI.Finalize", null);
                abort(rank, 1, "rank " + rank + " returned from main without calling MPI.Finalize");
            } else {
                s.outcome = new RankOutcome(rank, RankOutcome.Status.COMPLETED, "", null);
            }
        } catch (InvocationTargetException e) {
            onRankThrew(s, e.getCause());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            s.outcome = new RankOutcome(rank, RankOutcome.Status.FAILED, "cannot start " + config.mainClass() + ": "
                    + e, e);
            abort(rank, 1, "rank " + rank + " could not start: " + e.getMessage());
        } finally {
            s.output.flush();
            OutputRouter.unbind();
        }
    }

    private void onRankThrew(RankSlot s, Throwable cause) {
        int rank = s.context.rank();
        JobAbortedException a = abort.get();
        if (cause instanceof JobAbortedException || (a != null && cause instanceof RewindException)) {
            s.outcome = new RankOutcome(rank, RankOutcome.Status.ABORTED, a != null ? a.getMessage()
                    : cause.getMessage(), cause);
            return;
        }
        s.outcome = new RankOutcome(rank, RankOutcome.Status.FAILED, cause.toString(), cause);
        System.err.println("rank " + rank + " failed: " + cause);
        for (StackTraceElement el : cause.getStackTrace()) {
            System.err.println("\tat " + el);
        }
        abort(rank, 1, "rank " + rank + " failed: " + cause);
    }

    private Method findMain(ClassLoader loader) throws ReflectiveOperationException {
        Class<?> c = Class.forName(config.mainClass(), true, loader);
        Method m = c.getMethod("main", String[].class);
        if (!Modifier.isStatic(m.getModifiers())) {
            throw new NoSuchMethodException(config.mainClass() + ".main is not static");
        }
        m.setAccessible(true);
        return m;
    }

    /** The first abort wins; every rank's waits notice it within one park slice, sooner if woken. */
    void abort(int rank, int errorCode, String reason) {
        if (abort.compareAndSet(null, new JobAbortedException(rank, errorCode, reason))) {
            for (RankSlot s : slots) {
                if (s != null && s.thread != null) {
                    LockSupport.unpark(s.thread);
                }
            }
        }
    }

    private void checkAlive(int rank) {
        JobAbortedException a = abort.get();
        if (a != null) {
            throw new JobAbortedException(a.abortingRank(), a.errorCode(), a.getMessage());
        }
    }

    /** Per-rank bookkeeping of the launcher. */
    private static final class RankSlot {
        final RankContext context;
        final RankClassLoader loader;
        final OutputRouter.RankOutput output;
        Thread thread;
        volatile RankOutcome outcome;

        RankSlot(RankContext context, RankClassLoader loader, OutputRouter.RankOutput output) {
            this.context = context;
            this.loader = loader;
            this.output = output;
        }
    }

}
