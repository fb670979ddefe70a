package mpi;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * A buffer's data from a byte displacement on, for the calls whose displacements are in bytes
 * ({@code allToAllw}). Like every buffer argument, the displacement counts from the buffer's index 0,
 * whatever its position.
 */
final class BufferAt {
    private BufferAt() {}

    static Buffer at(Buffer buf, int bytes, String what) throws MPIException {
        if (buf == null) {
            throw Failures.error(MPI.ERR_BUFFER, "null " + what);
        }
        if (bytes < 0) {
            throw Failures.error(MPI.ERR_ARG, "negative displacement " + bytes + " in the " + what);
        }
        int unit = elementBytes(buf);
        if (bytes % unit != 0) {
            throw Failures.error(
                    MPI.ERR_ARG,
                    "displacement " + bytes + " bytes falls inside an element of " + unit + " bytes of the " + what);
        }
        int index = bytes / unit;
        Buffer whole = buf.duplicate().clear();
        if (index > whole.capacity()) {
            throw Failures.error(
                    MPI.ERR_COUNT,
                    "displacement " + bytes + " bytes is past the end of the " + what + " of " + whole.capacity()
                            + " elements");
        }
        return whole.slice(index, whole.capacity() - index);
    }

    private static int elementBytes(Buffer buf) throws MPIException {
        return switch (buf) {
            case ByteBuffer b -> 1;
            case CharBuffer b -> Character.BYTES;
            case ShortBuffer b -> Short.BYTES;
            case IntBuffer b -> Integer.BYTES;
            case FloatBuffer b -> Float.BYTES;
            case LongBuffer b -> Long.BYTES;
            case DoubleBuffer b -> Double.BYTES;
            default -> throw Failures.error(
                    MPI.ERR_BUFFER,
                    "unsupported buffer of class " + buf.getClass().getName());
        };
    }
}
