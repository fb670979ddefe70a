package io.rewind.check;

import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The recovery oracle: a program's failure-free run is the reference, and a run under a protocol
 * that recovers, with crashes injected, must end the same way and print the same lines on every
 * rank, bit for bit. Crashes are placed at communication operation counts taken from the reference
 * run (so any program can be checked, no checkpoint API needed), drawn from a seed so that a failing
 * schedule is reproduced by its seed.
 */
public final class RecoveryCheck {
    private final JobConfig reference;
    private final JobResult baseline;

    private RecoveryCheck(JobConfig reference, JobResult baseline) {
        this.reference = reference;
        this.baseline = baseline;
    }

    /**
     * Runs {@code job} once without fault tolerance or failures to take the reference.
     *
     * @throws IllegalStateException if that run itself fails: there is nothing to compare against
     */
    public static RecoveryCheck of(JobConfig job) {
        JobConfig reference = job.toBuilder()
                .protocol(ProtocolRegistry.NONE)
                .checkpointEvery(0)
                .failures(FailureSchedule.NONE)
                .build();
        JobResult r = Job.run(reference);
        if (!r.ok()) {
            throw new IllegalStateException(job.program().mainClass() + " fails without failures (exit " + r.exitCode()
                    + "):\n" + r.describeFailures());
        }
        return new RecoveryCheck(reference, r);
    }

    /** The failure-free run everything is compared with. */
    public JobResult baseline() {
        return baseline;
    }

    /** Communication operations each rank made in the failure-free run. */
    public long[] operations() {
        return baseline.report().operations().clone();
    }

    /** What one run under crashes gave, against the reference. */
    public record Verdict(
            ProtocolDescriptor protocol,
            int checkpointEvery,
            FailureSchedule kills,
            JobResult result,
            String mismatch) {
        /** Whether the run ended well and every rank printed exactly what it printed without failures. */
        public boolean ok() {
            return mismatch == null;
        }

        /** How many of the scheduled kills struck (the others found their rank already finished). */
        public int struck() {
            return kills.kills().size() - result.report().killsNotStruck().size();
        }

        /** One paragraph that says what ran and, on a mismatch, where the outputs part. */
        public String describe() {
            return "protocol " + protocol.name() + ", checkpoint every " + checkpointEvery + ", kills " + kills + ": "
                    + (ok() ? "identical" : mismatch) + "\n" + result.report().summary();
        }
    }

    /** Runs the program under {@code protocol} with {@code kills} and compares it with the reference. */
    public Verdict run(ProtocolDescriptor protocol, int checkpointEvery, FailureSchedule kills) {
        return run(protocol, checkpointEvery, kills, Job::run);
    }

    /**
     * The same, with the ranks run by {@code launcher} (ranks as processes, say) instead of as threads
     * of this JVM: the reference is the same failure-free run.
     */
    public Verdict run(
            ProtocolDescriptor protocol,
            int checkpointEvery,
            FailureSchedule kills,
            java.util.function.Function<JobConfig, JobResult> launcher) {
        JobResult r = launcher.apply(reference.toBuilder()
                .protocol(protocol)
                .checkpointEvery(checkpointEvery)
                .failures(kills)
                .build());
        return new Verdict(protocol, checkpointEvery, kills, r, compare(r));
    }

    private String compare(JobResult r) {
        if (!r.ok()) {
            return "the job failed (exit " + r.exitCode() + "): " + r.describeFailures();
        }
        for (int rank = 0; rank < reference.ranks(); rank++) {
            List<String> want = baseline.output(rank);
            List<String> got = r.output(rank);
            int n = Math.min(want.size(), got.size());
            for (int i = 0; i < n; i++) {
                if (!want.get(i).equals(got.get(i))) {
                    return "rank " + rank + " line " + (i + 1) + " differs: expected '" + want.get(i) + "' but was '"
                            + got.get(i) + "'";
                }
            }
            if (want.size() != got.size()) {
                return "rank " + rank + " printed " + got.size() + " lines instead of " + want.size()
                        + (got.size() > n
                                ? "; first extra: '" + got.get(n) + "'"
                                : "; first missing: '" + want.get(n) + "'");
            }
        }
        return null;
    }

    /**
     * {@code count} crash schedules drawn from {@code seed}, at operation counts the reference run
     * reached, in turn of three kinds: one rank crashes; two ranks crash at the same point of their
     * runs (one recovery for both); one rank crashes twice, the second time in the incarnation that
     * replaced it.
     */
    public List<FailureSchedule> schedules(long seed, int count) {
        return schedules(seed, count, operations());
    }

    /**
     * The same, drawn from the operation counts {@code ops} of another failure-free run (ranks as
     * processes count fewer polls than threads, whose sends complete later).
     */
    public List<FailureSchedule> schedules(long seed, int count, long[] ops) {
        int n = ops.length;
        Random rnd = new Random(seed);
        List<FailureSchedule> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int rank = rnd.nextInt(n);
            long at = pick(rnd, ops[rank]);
            List<FailureSchedule.Kill> kills = new ArrayList<>();
            kills.add(new FailureSchedule.Kill(rank, FailureSchedule.Trigger.OPERATION, at));
            int kind = i % 3;
            if (kind == 1 && n > 1) {
                int other = (rank + 1 + rnd.nextInt(n - 1)) % n;
                double fraction = (double) at / Math.max(1, ops[rank]);
                kills.add(new FailureSchedule.Kill(
                        other, FailureSchedule.Trigger.OPERATION, Math.max(1, Math.round(fraction * ops[other]))));
            } else if (kind == 2) {
                kills.add(new FailureSchedule.Kill(rank, FailureSchedule.Trigger.OPERATION, pick(rnd, at)));
            }
            out.add(new FailureSchedule(kills));
        }
        return out;
    }

    /** An operation count in [1, max] (1 if the rank made none). */
    private static long pick(Random rnd, long max) {
        return max <= 1 ? 1 : 1 + (long) (rnd.nextDouble() * max);
    }
}
