package io.rewind.api;

/** Saves and restores an object that is not a primitive array or buffer. */
public interface StateSerializer {
    /** The object's state as bytes. */
    byte[] save();

    /** Puts the state back from bytes that {@link #save()} returned. */
    void load(byte[] bytes);
}
