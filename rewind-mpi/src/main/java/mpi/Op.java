package mpi;

import io.rewind.engine.BaseType;
import io.rewind.engine.ErrorClass;
import io.rewind.engine.PredefinedOp;
import io.rewind.engine.ReduceFunction;
import io.rewind.engine.RewindException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A reduction operator: one of the predefined ones ({@code MPI.SUM}...) or a {@link UserFunction}.
 * A non-commutative user operator is combined in rank order.
 */
public final class Op implements Freeable {
    private final PredefinedOp predefined;
    private final UserFunction function;
    private final boolean commute;
    private boolean freed;

    Op(PredefinedOp predefined) {
        this.predefined = predefined;
        this.function = null;
        this.commute = predefined.isCommutative();
    }

    /** Binds a user-defined reduction ({@code MPI_OP_CREATE}). */
    public Op(UserFunction function, boolean commute) {
        this.predefined = null;
        this.function = function;
        this.commute = commute;
    }

    public boolean isCommutative() {
        return commute;
    }

    @Override
    public void free() throws MPIException {
        MPI.check();
        if (predefined != null) {
            throw Failures.error(MPI.ERR_OP, "cannot free predefined operator " + predefined);
        }
        freed = true;
    }

    public boolean isNull() {
        return freed;
    }

    /** The operator as the engine applies it to items of {@code type}. */
    ReduceFunction forType(Datatype type) throws MPIException {
        if (freed) {
            throw Failures.error(MPI.ERR_OP, "the operator was freed");
        }
        if (predefined != null) {
            try {
                predefined.checkApplicable(type.engineType);
            } catch (RewindException e) {
                throw Failures.convert(e);
            }
            return predefined;
        }
        return new UserReduction(function, commute, type);
    }

    @Override
    public String toString() {
        return predefined != null ? "MPI_" + predefined : "user op " + function;
    }

    /** Adapts a user function to the engine: copies operands to native-order buffers and back. */
    private record UserReduction(UserFunction function, boolean commute, Datatype type) implements ReduceFunction {
        @Override
        public void apply(
                MemorySegment in,
                long inOffset,
                MemorySegment inout,
                long inoutOffset,
                int count,
                BaseType engineType) {
            long bytes = (long) count * engineType.sizeBytes();
            int items = (int) (bytes / type.sizeBytes());
            try {
                if (type.baseType == Datatype.BOOLEAN) {
                    boolean[] a = new boolean[(int) bytes];
                    boolean[] b = new boolean[(int) bytes];
                    for (int i = 0; i < bytes; i++) {
                        a[i] = in.get(java.lang.foreign.ValueLayout.JAVA_BYTE, inOffset + i) != 0;
                        b[i] = inout.get(java.lang.foreign.ValueLayout.JAVA_BYTE, inoutOffset + i) != 0;
                    }
                    function.call(a, b, items, type);
                    for (int i = 0; i < bytes; i++) {
                        inout.set(java.lang.foreign.ValueLayout.JAVA_BYTE, inoutOffset + i, (byte) (b[i] ? 1 : 0));
                    }
                    return;
                }
                ByteBuffer a = ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder());
                ByteBuffer b = ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder());
                MemorySegment.copy(in, inOffset, MemorySegment.ofBuffer(a), 0, bytes);
                MemorySegment.copy(inout, inoutOffset, MemorySegment.ofBuffer(b), 0, bytes);
                function.call(a, b, items, type);
                MemorySegment.copy(MemorySegment.ofBuffer(b.clear()), 0, inout, inoutOffset, bytes);
            } catch (MPIException e) {
                throw new RewindException(ErrorClass.OP, "user reduction failed: " + e.getMessage(), e);
            }
        }

        @Override
        public boolean isCommutative() {
            return commute;
        }
    }
}
