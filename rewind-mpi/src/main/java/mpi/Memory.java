package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

/**
 * A program's buffer seen as raw memory, the way Open MPI's bindings see it: the bytes of any
 * primitive array or NIO buffer in native order, whatever datatype describes them. {@code origin} is
 * the byte where the buffer's data starts (where a datatype's displacement 0 lies); the segment may
 * begin before it when the buffer is a slice of a heap array, so that negative displacements can reach
 * the elements before the slice, as a C pointer into the middle of an array can.
 *
 * @param segment all the memory the operation may touch
 * @param origin the byte offset in {@code segment} of the buffer's first element
 * @param writeBack copies the data back into the program's buffer after a write (for {@code boolean[]},
 *     which has no raw memory of its own), or null
 */
record Memory(MemorySegment segment, long origin, Runnable writeBack) {

    static Memory of(Object buf, boolean writes, String what) throws MPIException {
        return switch (buf) {
            case byte[] a -> whole(MemorySegment.ofArray(a));
            case char[] a -> whole(MemorySegment.ofArray(a));
            case short[] a -> whole(MemorySegment.ofArray(a));
            case int[] a -> whole(MemorySegment.ofArray(a));
            case long[] a -> whole(MemorySegment.ofArray(a));
            case float[] a -> whole(MemorySegment.ofArray(a));
            case double[] a -> whole(MemorySegment.ofArray(a));
            case boolean[] a -> booleans(a);
            case Buffer b -> buffer(b, writes, what);
            default -> throw Failures.error(
                    MPI.ERR_BUFFER,
                    "unsupported " + what + " of class " + buf.getClass().getName()
                            + " (use a primitive array or an NIO buffer)");
        };
    }

    private static Memory whole(MemorySegment s) {
        return new Memory(s, 0, null);
    }

    /** A {@code boolean[]} as one byte per element (0 or 1), copied in and, after a write, back. */
    private static Memory booleans(boolean[] a) {
        byte[] copy = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            copy[i] = (byte) (a[i] ? 1 : 0);
        }
        Runnable back = () -> {
            for (int i = 0; i < a.length; i++) {
                a[i] = copy[i] != 0;
            }
        };
        return new Memory(MemorySegment.ofArray(copy), 0, back);
    }

    /**
     * An NIO buffer from its index 0 (whatever its position, as Open MPI takes it) to its capacity. A
     * writable heap buffer is taken as its backing array, so that the elements before a slice are
     * reachable too; read-only and direct buffers expose nothing before their index 0.
     */
    private static Memory buffer(Buffer b, boolean writes, String what) throws MPIException {
        if (writes && b.isReadOnly()) {
            throw Failures.error(MPI.ERR_BUFFER, "the " + what + " is a read-only buffer");
        }
        if (b.hasArray()) {
            Memory array = of(b.array(), writes, what);
            long elementBytes = elementBytes(b.array().getClass().getComponentType());
            long origin = b.arrayOffset() * elementBytes;
            long end = origin + b.capacity() * elementBytes;
            return new Memory(array.segment().asSlice(0, end), origin, null);
        }
        return whole(MemorySegment.ofBuffer(b.duplicate().clear()));
    }

    private static long elementBytes(Class<?> component) {
        if (component == byte.class) {
            return 1;
        }
        if (component == char.class || component == short.class) {
            return 2;
        }
        return component == int.class || component == float.class ? 4 : 8;
    }
}
