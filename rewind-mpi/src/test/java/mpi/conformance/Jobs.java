package mpi.conformance;

import io.rewind.runtime.Job;
import io.rewind.runtime.JobConfig;
import io.rewind.runtime.JobResult;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs rank programs as in-JVM jobs for the conformance tests. */
public final class Jobs {
    private Jobs() {
    }

    public static JobResult run(Class<?> program, int ranks, String... args) {
        return Job.run(JobConfig.builder(program.getName()).ranks(ranks).quiet()
                .timeout(Duration.ofSeconds(60)).args(args).build());
    }

    /** Runs the program and fails the test, with every rank's failure, unless all ranks completed. */
    public static JobResult runOk(Class<?> program, int ranks, String... args) {
        JobResult r = run(program, ranks, args);
        assertTrue(r.ok(), () -> program.getSimpleName() + " on " + ranks + " ranks failed:\n" + r.describeFailures());
        return r;
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
                throw new AssertionError(what + ": expected error class " + errorClass + " but got "
                        + e.getErrorClass() + " (" + e.getMessage() + ")", e);
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
