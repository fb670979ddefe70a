package io.rewind.runtime;

/**
 * Told, on the rank's own thread, each time a rank passes a checkpoint point (after the checkpoint,
 * if one was written there). The rank goes on when this returns, so a listener may hold it back:
 * the logging benchmark uses that to let several jobs in one JVM take turns between their batches.
 */
@FunctionalInterface
public interface PointListener {
    PointListener NONE = (rank, point) -> {};

    void atPoint(int rank, long point);
}
