package io.rewind.engine;

/**
 * Engine settings of one job.
 *
 * @param eagerLimitBytes messages up to this size are copied out at send time if no receive is posted;
 *                        larger ones wait for the receive (rendezvous) so the payload is copied once
 * @param spinIterations  busy-wait iterations before parking; zero when ranks outnumber cores
 */
public record EngineConfig(long eagerLimitBytes, int spinIterations) {
    public static final long DEFAULT_EAGER_LIMIT_BYTES = 64 * 1024;

    public EngineConfig {
        if (eagerLimitBytes < 0) {
            throw new IllegalArgumentException("eagerLimitBytes must be >= 0, was " + eagerLimitBytes);
        }
        if (spinIterations < 0) {
            throw new IllegalArgumentException("spinIterations must be >= 0, was " + spinIterations);
        }
    }

    /** Spins only when every rank can have a core. */
    public static EngineConfig forRanks(int ranks) {
        int cores = Runtime.getRuntime().availableProcessors();
        return new EngineConfig(DEFAULT_EAGER_LIMIT_BYTES, ranks <= cores ? 10_000 : 0);
    }
}
