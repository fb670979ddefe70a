package mpi;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * A view of one complex number, {@code MPI.DOUBLE_COMPLEX}: the real part then the imaginary part,
 * two doubles, at item {@code index} of an array of complex numbers held in a double array or buffer.
 * Reads and writes go straight to the underlying storage.
 */
public final class DoubleComplex {
    private final DoubleBuffer buffer;
    /** Index in {@code buffer} of the real part. */
    private final int offset;

    private DoubleComplex(DoubleBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = Math.multiplyExact(index, 2);
    }

    public static DoubleComplex get(DoubleBuffer buffer) {
        return new DoubleComplex(buffer, 0);
    }

    /** Complex number {@code index} of the array of complex numbers in {@code buffer}. */
    public static DoubleComplex get(DoubleBuffer buffer, int index) {
        return new DoubleComplex(buffer, index);
    }

    public static DoubleComplex get(double[] array) {
        return new DoubleComplex(DoubleBuffer.wrap(array), 0);
    }

    /** Complex number {@code index} of the array of complex numbers in {@code array}. */
    public static DoubleComplex get(double[] array, int index) {
        return new DoubleComplex(DoubleBuffer.wrap(array), index);
    }

    /** The complex number at the start of a byte buffer, read in the buffer's byte order. */
    public static DoubleComplex get(ByteBuffer buffer) {
        return new DoubleComplex(buffer.asDoubleBuffer(), 0);
    }

    public static DoubleComplex get(ByteBuffer buffer, int index) {
        return new DoubleComplex(buffer.asDoubleBuffer(), index);
    }

    public double getReal() {
        return buffer.get(offset);
    }

    public double getImag() {
        return buffer.get(offset + 1);
    }

    public void putReal(double real) {
        buffer.put(offset, real);
    }

    public void putImag(double imag) {
        buffer.put(offset + 1, imag);
    }

    /** The storage from this number on, usable as a buffer of {@code MPI.DOUBLE_COMPLEX} items. */
    public DoubleBuffer getBuffer() {
        return offset == 0 ? buffer : MPI.slice(buffer, offset);
    }
}
