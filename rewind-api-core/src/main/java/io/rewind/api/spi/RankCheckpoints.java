package io.rewind.api.spi;

import io.rewind.api.StateSerializer;

/** The checkpoints of one rank incarnation, as {@link io.rewind.api.Checkpointer} uses them. */
public interface RankCheckpoints {
    /** Whether this incarnation starts from a checkpoint. */
    boolean isRestart();

    /** Loads the registered state from the checkpoint; false on a fresh start. */
    boolean restore();

    /** One checkpoint point; whether it wrote a checkpoint. */
    boolean point();

    /** Checkpoint points passed in this run, restarts included. */
    long points();

    /**
     * Keeps {@code section} in the rank's checkpoints under {@code name}.
     *
     * @throws IllegalArgumentException if the name is blank, reserved or taken
     */
    void register(String name, StateSerializer section);
}
