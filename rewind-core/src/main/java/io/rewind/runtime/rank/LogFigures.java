package io.rewind.runtime.rank;

import java.io.Serializable;

/**
 * What an incarnation logged, as its program ended: appended entries and bytes, the most payload held
 * at once, collective entries and bytes, and its determinant counts (the protocol's own figures).
 */
public record LogFigures(
        long appendedEntries,
        long appendedBytes,
        long highWaterBytes,
        long collectiveEntries,
        long collectiveBytes,
        long[] determinants)
        implements Serializable {}
