package io.rewind.runtime;

/** One named part of a rank's checkpointed state: how to save it and how to load it back in place. */
public interface StateSection {
    byte[] save();

    void load(byte[] bytes);
}
