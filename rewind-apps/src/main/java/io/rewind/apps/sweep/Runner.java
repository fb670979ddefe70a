package io.rewind.apps.sweep;

import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import io.rewind.transport.local.DeliveryJitter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Runs one {@link RunSpec} and judges it against its program's failure-free run: it must end well,
 * print on every rank exactly what that run printed, and report every kill that struck as one
 * recovered failure. A run that has not returned a little after its own time limit has hung inside
 * the runtime (the limit should have ended it): that is a failure too, and the run's thread is left
 * behind, a daemon, so that the campaign goes on.
 */
final class Runner {
    /** Beyond a run's own limit, before the run is taken for hung: a job ends its ranks and reports. */
    static final Duration GRACE = Duration.ofSeconds(60);

    /** What one run gave. */
    record Outcome(RunSpec spec, boolean ok, String failure, long millis, int struck) {}

    private final References references;

    Runner(References references) {
        this.references = references;
    }

    References references() {
        return references;
    }

    Outcome run(RunSpec spec) {
        long start = System.nanoTime();
        References.Reference ref = references.of(spec.program());
        if (!ref.ok()) {
            return new Outcome(spec, false, ref.failure(), 0, 0);
        }
        AtomicReference<Outcome> result = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        // One thread per run, named after it, so that a run that never returns is left behind alone
        // (and shows up by name in a thread dump) while the worker goes on.
        Thread t = Thread.ofPlatform()
                .name("sweep-run-" + spec.index())
                .daemon(true)
                .start(() -> {
                    try {
                        result.set(judge(spec, ref.check()));
                    } catch (Throwable e) {
                        thrown.set(e);
                    }
                });
        Duration bound = spec.limit().plus(GRACE);
        try {
            t.join(bound);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(spec, false, "interrupted", millisSince(start), 0);
        }
        if (t.isAlive()) {
            return new Outcome(
                    spec,
                    false,
                    "the run did not return within " + bound.toSeconds() + " s (its limit is "
                            + spec.limit().toSeconds() + " s): it hangs",
                    millisSince(start),
                    0);
        }
        if (thrown.get() != null) {
            return new Outcome(spec, false, "the run threw " + thrown.get(), millisSince(start), 0);
        }
        Outcome o = result.get();
        return new Outcome(spec, o.ok(), o.failure(), millisSince(start), o.struck());
    }

    private static Outcome judge(RunSpec spec, RecoveryCheck check) {
        Function<JobConfig, JobResult> launcher =
                switch (spec.launcher()) {
                    case THREADS -> c -> DeliveryJitter.around(spec.jitterMicros(), () -> Job.run(c));
                    case PROCESSES -> c -> ProcessJob.run(
                            c.toBuilder()
                                    .timeout(spec.limit())
                                    .stallTimeout(spec.stall())
                                    .build(),
                            Launch.local(RunSpec.NODES));
                };
        RecoveryCheck.Verdict v = check.run(
                ProtocolRegistry.get(spec.protocol()), spec.program().checkpointEvery(), spec.kills(), launcher);
        if (!v.ok()) {
            return new Outcome(spec, false, v.describe(), 0, v.struck());
        }
        int recovered = v.result().report().failures().size();
        if (recovered != v.struck()) {
            return new Outcome(
                    spec,
                    false,
                    v.struck() + " kills struck but " + recovered + " failures were recovered: " + v.describe(),
                    0,
                    v.struck());
        }
        return new Outcome(spec, true, null, 0, v.struck());
    }

    private static long millisSince(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }
}
