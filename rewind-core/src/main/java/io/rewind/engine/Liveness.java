package io.rewind.engine;

/**
 * Asked by every blocking loop of a rank: throws if the job was aborted or this incarnation of the
 * rank was killed, so no wait outlives the thing it waits for.
 */
@FunctionalInterface
public interface Liveness {
    void check();

    /**
     * Whether {@link #check} would throw now, or the job has ended: asked by the thread that wakes
     * parked waiters ({@link ParkedWaits}), from outside the rank. The default asks {@link #check}
     * itself; a check with side effects on the calling thread overrides this with plain reads.
     */
    default boolean ended() {
        try {
            check();
            return false;
        } catch (RuntimeException | Error e) {
            return true;
        }
    }

    Liveness ALWAYS = () -> {};
}
