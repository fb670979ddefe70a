package io.rewind.runtime.rank;

/**
 * What a rank program's {@code System.exit(status)} (and {@code Runtime.exit}, {@code Runtime.halt})
 * does ({@link ExitCalls} redirects the calls here): it ends that rank as {@code mpirun} treats the end
 * of its process. After {@code MPI.Finalize}, status 0 is the rank's normal end; any other exit ends the
 * job with that status (1 for status 0 before {@code MPI.Finalize}). Ranks as threads of one JVM need
 * this so that an exit ends the rank and not the JVM; a rank process needs it so that a status given
 * after {@code MPI.Finalize} reaches the launcher (a shutdown hook cannot see it). A thread of a rank
 * that has crashed is held for good instead. Public for the rewritten programs only.
 */
public final class RankExit {
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private RankExit() {}

    /** In place of {@code System.exit(status)}. Does not return. */
    public static void exit(int status) {
        end(WALKER.getCallerClass(), status, false);
    }

    /** In place of {@code Runtime.getRuntime().exit(status)}. Does not return. */
    public static void exit(Runtime runtime, int status) {
        end(WALKER.getCallerClass(), status, false);
    }

    /** In place of {@code Runtime.getRuntime().halt(status)}. Does not return. */
    public static void halt(Runtime runtime, int status) {
        end(WALKER.getCallerClass(), status, true);
    }

    private static void end(Class<?> caller, int status, boolean halt) {
        RankContext context = RankContext.of(caller);
        if (context.job() == null) {
            // Not a rank of a job: what the program asked for.
            if (halt) {
                Runtime.getRuntime().halt(status);
            }
            Runtime.getRuntime().exit(status);
        }
        context.job().programExit(context, status, halt);
        throw new IllegalStateException("unreachable: a rank's exit returned");
    }

    /** Thrown to unwind the thread of a rank whose program called {@code System.exit}. */
    static final class ExitError extends Error {
        ExitError(int rank, int status) {
            super("rank " + rank + " called System.exit(" + status + ")", null, false, false);
        }
    }
}
