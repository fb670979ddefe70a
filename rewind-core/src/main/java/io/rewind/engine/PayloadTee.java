package io.rewind.engine;

import java.lang.foreign.MemorySegment;

/**
 * A copy that also feeds the sender's log: when a frame carries a tee, the engine moves its payload
 * through it (into the receive buffer, or into a private copy), so a pipelined log copy can ride on
 * the transfer while the data is hot in cache.
 */
@FunctionalInterface
public interface PayloadTee {
    void transfer(MemorySegment source, long sourceOffset, MemorySegment target, long targetOffset, long lengthBytes);
}
