package mpi;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * A user-defined reduction ({@code MPI_User_function}): {@code inOut[i] = in[i] op inOut[i]}.
 * Override either the array form (operands as Java arrays of the datatype's base type) or the
 * buffer form (operands as native-order direct byte buffers, which by default converts to arrays and
 * calls the array form). Boolean data is always passed as {@code boolean[]} to the array form.
 */
public abstract class UserFunction {
    /** Combines {@code count} items held in Java arrays of the datatype's base type. */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
        throw new UnsupportedOperationException("this user function implements neither call form");
    }

    /** Combines {@code count} items held in native-order direct byte buffers. */
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) throws MPIException {
        int n = count * datatype.getSize();
        switch (datatype.baseType) {
            case Datatype.BYTE, Datatype.PACKED -> {
                byte[] a = new byte[n];
                byte[] b = new byte[n];
                in.get(0, a);
                inOut.get(0, b);
                call(a, b, count, datatype);
                inOut.put(0, b);
            }
            case Datatype.CHAR -> {
                CharBuffer x = in.asCharBuffer();
                CharBuffer y = inOut.asCharBuffer();
                char[] a = new char[n];
                char[] b = new char[n];
                x.get(0, a);
                y.get(0, b);
                call(a, b, count, datatype);
                y.put(0, b);
            }
            case Datatype.SHORT -> {
                ShortBuffer x = in.asShortBuffer();
                ShortBuffer y = inOut.asShortBuffer();
                short[] a = new short[n];
                short[] b = new short[n];
                x.get(0, a);
                y.get(0, b);
                call(a, b, count, datatype);
                y.put(0, b);
            }
            case Datatype.INT -> {
                IntBuffer x = in.asIntBuffer();
                IntBuffer y = inOut.asIntBuffer();
                int[] a = new int[n];
                int[] b = new int[n];
                x.get(0, a);
                y.get(0, b);
                call(a, b, count, datatype);
                y.put(0, b);
            }
            case Datatype.LONG -> {
                LongBuffer x = in.asLongBuffer();
                LongBuffer y = inOut.asLongBuffer();
                long[] a = new long[n];
                long[] b = new long[n];
                x.get(0, a);
                y.get(0, b);
                call(a, b, count, datatype);
                y.put(0, b);
            }
            case Datatype.FLOAT -> {
                FloatBuffer x = in.asFloatBuffer();
                FloatBuffer y = inOut.asFloatBuffer();
                float[] a = new float[n];
                float[] b = new float[n];
                x.get(0, a);
                y.get(0, b);
                call(a, b, count, datatype);
                y.put(0, b);
            }
            case Datatype.DOUBLE -> {
                DoubleBuffer x = in.asDoubleBuffer();
                DoubleBuffer y = inOut.asDoubleBuffer();
                double[] a = new double[n];
                double[] b = new double[n];
                x.get(0, a);
                y.get(0, b);
                call(a, b, count, datatype);
                y.put(0, b);
            }
            default -> throw new IllegalArgumentException("unsupported datatype " + datatype);
        }
    }
}
