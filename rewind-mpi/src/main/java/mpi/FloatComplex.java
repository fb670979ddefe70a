package mpi;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A view of one complex number, {@code MPI.FLOAT_COMPLEX}: the real part then the imaginary part,
 * two floats, at item {@code index} of an array of complex numbers held in a float array or buffer.
 * Reads and writes go straight to the underlying storage.
 */
public final class FloatComplex {
    private final FloatBuffer buffer;
    /** Index in {@code buffer} of the real part. */
    private final int offset;

    private FloatComplex(FloatBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = Math.multiplyExact(index, 2);
    }

    public static FloatComplex get(FloatBuffer buffer) {
        return new FloatComplex(buffer, 0);
    }

    /** Complex number {@code index} of the array of complex numbers in {@code buffer}. */
    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    public static FloatComplex get(float[] array) {
        return new FloatComplex(FloatBuffer.wrap(array), 0);
    }

    /** Complex number {@code index} of the array of complex numbers in {@code array}. */
    public static FloatComplex get(float[] array, int index) {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    /** The complex number at the start of a byte buffer, read in the buffer's byte order. */
    public static FloatComplex get(ByteBuffer buffer) {
        return new FloatComplex(buffer.asFloatBuffer(), 0);
    }

    public static FloatComplex get(ByteBuffer buffer, int index) {
        return new FloatComplex(buffer.asFloatBuffer(), index);
    }

    public float getReal() {
        return buffer.get(offset);
    }

    public float getImag() {
        return buffer.get(offset + 1);
    }

    public void putReal(float real) {
        buffer.put(offset, real);
    }

    public void putImag(float imag) {
        buffer.put(offset + 1, imag);
    }

    /** The storage from this number on, usable as a buffer of {@code MPI.FLOAT_COMPLEX} items. */
    public FloatBuffer getBuffer() {
        return offset == 0 ? buffer : MPI.slice(buffer, offset);
    }
}
