package mpi.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.launch.Launch;
import io.rewind.launch.ProcessJob;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * Runs rank programs as in-JVM jobs for the conformance tests. A program that must succeed runs
 * under every protocol that recovers too, without failures and with crashes at operation counts, and
 * must end and print exactly as it does without fault tolerance: the conformance suite is the
 * recovery oracle's corpus.
 */
public final class Jobs {
    /**
     * Crash schedules per program and protocol: by default one of each kind {@link
     * RecoveryCheck#schedules} draws; the slow tier ({@code -Drewind.oracle.schedules=N}) runs more.
     */
    private static final int SCHEDULES = Integer.getInteger("rewind.oracle.schedules", 3);

    /**
     * How the runs under protocols launch their ranks: {@code threads} (default), {@code local}, one
     * process per rank over TCP, killed with SIGKILL (the slow tier: {@code
     * -Drewind.conformance.launch=local}), {@code shm}, the same with the processes talking through
     * shared memory, {@code ssh} (agents started over ssh on the hosts of a hostfile) or {@code slurm}
     * (inside a Slurm allocation: agents started with srun). The failure-free reference always runs as
     * threads.
     */
    private static final String LAUNCH = System.getProperty("rewind.conformance.launch", "threads");

    /** Runs a job as this tier launches the runs under protocols (see {@link #LAUNCH}). */
    public static JobResult launch(JobConfig c) {
        return switch (LAUNCH) {
            case "threads" -> Job.run(c);
            case "local" -> ProcessJob.run(c, Launch.local(1));
            case "shm" -> ProcessJob.run(c, Launch.local(1).withSharedMemory(true));
            case "ssh" -> ProcessJob.run(c, sshLaunch());
            case "slurm" -> ProcessJob.run(c, Launch.slurm());
            default -> throw new IllegalArgumentException(
                    "rewind.conformance.launch: threads, local, shm, ssh or slurm, not " + LAUNCH);
        };
    }

    /**
     * Over ssh: the hosts of {@code -Drewind.conformance.hostfile}, reached with {@code ssh -F
     * $REWIND_SSH_CONFIG} (what {@code scripts/cluster/sshd.sh env} sets up on this machine).
     */
    private static Launch sshLaunch() {
        String hostfile = System.getProperty("rewind.conformance.hostfile");
        String config = System.getenv("REWIND_SSH_CONFIG");
        if (hostfile == null || config == null) {
            throw new IllegalArgumentException("rewind.conformance.launch=ssh needs -Drewind.conformance.hostfile=FILE"
                    + " and REWIND_SSH_CONFIG in the environment (eval \"$(scripts/cluster/sshd.sh env)\")");
        }
        return Launch.ssh(java.nio.file.Path.of(hostfile), List.of("ssh", "-F", config));
    }

    private Jobs() {}

    public static JobConfig config(Class<?> program, int ranks, String... args) {
        return JobConfig.builder(program.getName())
                .ranks(ranks)
                .quiet()
                .timeout(Duration.ofSeconds(60))
                .args(args)
                .option("--clusters", io.rewind.ft.ClusterLayout.forTests().spec())
                .build();
    }

    public static JobResult run(Class<?> program, int ranks, String... args) {
        return Job.run(config(program, ranks, args));
    }

    /**
     * Runs the program and fails the test, with every rank's failure, unless all ranks completed;
     * then checks that every protocol that recovers gives the same outcome and output, without
     * failures and under crashes.
     */
    public static JobResult runOk(Class<?> program, int ranks, String... args) {
        String what = program.getSimpleName() + " on " + ranks + " ranks"
                + (args.length > 0 ? " " + Arrays.toString(args) : "");
        RecoveryCheck check;
        try {
            check = RecoveryCheck.of(config(program, ranks, args));
        } catch (IllegalStateException e) {
            return fail(what + " failed: " + e.getMessage());
        }
        long seed = (what.hashCode() & 0xffffffffL) * 31 + 7;
        List<FailureSchedule> schedules = check.schedules(seed, SCHEDULES);
        for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
            RecoveryCheck.Verdict clean = check.run(p, 0, FailureSchedule.NONE, Jobs::launch);
            assertTrue(clean.ok(), () -> what + ": " + clean.describe());
            for (FailureSchedule s : schedules) {
                RecoveryCheck.Verdict v = check.run(p, 0, s, Jobs::launch);
                assertTrue(v.ok(), () -> what + " (seed " + seed + "): " + v.describe());
            }
        }
        return check.baseline();
    }

    /** A check inside a rank program: a mismatch fails the rank and so the job. */
    public static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    public static void checkEq(long expected, long actual, String what) {
        if (expected != actual) {
            throw new AssertionError(what + ": expected " + expected + " but was " + actual);
        }
    }

    /** Runs {@code body} and checks that it throws an MPIException of {@code errorClass}. */
    public static void expectError(int errorClass, String what, Body body) {
        try {
            body.run();
        } catch (mpi.MPIException e) {
            if (e.getErrorClass() != errorClass) {
                throw new AssertionError(
                        what + ": expected error class " + errorClass + " but got " + e.getErrorClass() + " ("
                                + e.getMessage() + ")",
                        e);
            }
            return;
        }
        throw new AssertionError(what + ": expected MPIException with error class " + errorClass);
    }

    /** A piece of a rank program that may throw. */
    @FunctionalInterface
    public interface Body {
        void run() throws mpi.MPIException;
    }
}
