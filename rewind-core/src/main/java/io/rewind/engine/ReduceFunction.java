package io.rewind.engine;

import java.lang.foreign.MemorySegment;

/**
 * A reduction operator as the engine applies it: {@code inout[i] = in[i] op inout[i]} for
 * {@code count} elements of {@code type}, byte offsets into the two segments.
 */
public interface ReduceFunction {
    void apply(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, int count, BaseType type);

    /** Whether operands may be combined in any order. Non-commutative operators are applied in rank order. */
    boolean isCommutative();
}
