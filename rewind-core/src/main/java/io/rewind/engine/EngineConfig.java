package io.rewind.engine;

/**
 * Engine settings of one job.
 *
 * @param eagerLimitBytes messages up to this size are copied out at send time if no receive is posted;
 *                        larger ones wait for the receive (rendezvous) so the payload is copied once
 * @param spinIterations  polls a waiting rank spins before it yields or parks
 * @param yieldNanos      then, for how long it goes on polling, yielding its core between polls, before it
 *                        parks; zero to park right after spinning
 */
public record EngineConfig(long eagerLimitBytes, int spinIterations, long yieldNanos) {
    public static final long DEFAULT_EAGER_LIMIT_BYTES = 64 * 1024;

    /** System property: how many polls a waiting rank spins before it yields or parks. */
    public static final String SPIN_POLLS_PROPERTY = "rewind.wait.spinPolls";

    /** System property: for how long (microseconds) it polls yielding before it parks. */
    public static final String YIELD_MICROS_PROPERTY = "rewind.wait.yieldMicros";

    private static final int THREAD_SPIN_POLLS = 10_000;
    private static final int PROCESS_SPIN_POLLS = 100;
    private static final long PROCESS_YIELD_MICROS = 10_000;

    public EngineConfig {
        if (eagerLimitBytes < 0) {
            throw new IllegalArgumentException("eagerLimitBytes must be >= 0, was " + eagerLimitBytes);
        }
        if (spinIterations < 0) {
            throw new IllegalArgumentException("spinIterations must be >= 0, was " + spinIterations);
        }
        if (yieldNanos < 0) {
            throw new IllegalArgumentException("yieldNanos must be >= 0, was " + yieldNanos);
        }
    }

    /** Spins, then parks at once. */
    public EngineConfig(long eagerLimitBytes, int spinIterations) {
        this(eagerLimitBytes, spinIterations, 0);
    }

    /** The same waiting, with another eager limit. */
    public EngineConfig withEagerLimit(long bytes) {
        return new EngineConfig(bytes, spinIterations, yieldNanos);
    }

    /**
     * How the ranks of one JVM (threads) wait: when every rank can have a core, spinning for {@value
     * #THREAD_SPIN_POLLS} polls before it parks (a message from another rank of the JVM completes the
     * request from that rank's thread, within nanoseconds of the send); when ranks outnumber the cores,
     * parking at once. {@value #SPIN_POLLS_PROPERTY} and {@value #YIELD_MICROS_PROPERTY} override the
     * figures.
     */
    public static EngineConfig forRanks(int ranks) {
        boolean coreEach = ranks <= Runtime.getRuntime().availableProcessors();
        return waiting(coreEach ? THREAD_SPIN_POLLS : 0, 0);
    }

    /**
     * How a rank process waits, with {@code ranksOnHost} rank processes on its host. When every rank can
     * have a core it polls the transport spinning for {@value #PROCESS_SPIN_POLLS} polls, then yielding
     * its core between polls for up to {@value #PROCESS_YIELD_MICROS} us, then parks. Yielding rather than
     * spinning leaves the core to the compiler threads of its own JVM, which every rank process has to
     * itself and which otherwise wait while the ranks spin, keeping them in slow, profiling code for longer;
     * ranks as threads of one JVM did worse yielding and keep spinning (both measured in
     * docs/benchmarks.md, "Waiting rank processes yield"). When ranks outnumber the cores a rank parks at
     * once: polling in turns did not help there (same section). The properties override the figures.
     */
    public static EngineConfig forRankProcesses(int ranksOnHost) {
        boolean coreEach = ranksOnHost <= Runtime.getRuntime().availableProcessors();
        return coreEach ? waiting(PROCESS_SPIN_POLLS, PROCESS_YIELD_MICROS) : waiting(0, 0);
    }

    private static EngineConfig waiting(long spinPolls, long yieldMicros) {
        long spin = nonNegative(SPIN_POLLS_PROPERTY, spinPolls);
        long micros = nonNegative(YIELD_MICROS_PROPERTY, yieldMicros);
        return new EngineConfig(DEFAULT_EAGER_LIMIT_BYTES, (int) Math.min(spin, Integer.MAX_VALUE), micros * 1000);
    }

    private static long nonNegative(String property, long otherwise) {
        String value = System.getProperty(property);
        if (value == null) {
            return otherwise;
        }
        try {
            long v = Long.parseLong(value.strip());
            if (v >= 0 && v <= Long.MAX_VALUE / 1000) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                "rewind: -D" + property + " must be a whole number >= 0, was '" + value + "'");
    }
}
