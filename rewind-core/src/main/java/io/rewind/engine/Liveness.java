package io.rewind.engine;

/**
 * Asked by every blocking loop of a rank: throws if the job was aborted or this incarnation of the
 * rank was killed, so no wait outlives the thing it waits for.
 */
@FunctionalInterface
public interface Liveness {
    void check();

    Liveness ALWAYS = () -> {};
}
