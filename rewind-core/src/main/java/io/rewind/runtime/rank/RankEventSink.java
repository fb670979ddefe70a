package io.rewind.runtime.rank;

/**
 * Where a rank's events go: onto the coordinator's queue of the job whose thread the rank is, or over
 * the link of a rank process to its launcher. Called by the rank's threads; never blocks, except that
 * a rank process emitting {@link RankEvent.Struck} does not return (it waits to be killed from outside).
 */
@FunctionalInterface
public interface RankEventSink {
    void emit(RankEvent event);
}
