package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Base of struct datatypes whose items live in a {@code ByteBuffer} or {@code byte[]}: a subclass adds
 * fields in its constructor ({@code addInt()}...) and defines a {@link Data} view that reads and
 * writes them. The datatype ({@link #getType()}) is the struct's extent in bytes, padded to the
 * largest field alignment as C pads structs.
 */
public abstract class Struct {
    private int extent;
    private int alignment = 1;
    private Datatype datatype;

    private int addField(int size, int length) {
        if (datatype != null) {
            throw new AssertionError("the struct data type was already committed");
        }
        int offset = extent;
        extent += size * length;
        alignment = Math.max(alignment, size);
        return offset;
    }

    /** The datatype a subclass stands for, if it is a predefined one (the MINLOC/MAXLOC pairs). */
    Datatype predefinedType() {
        return null;
    }

    /** The extent in bytes, without the MPI state check of {@link #getExtent()} (for views of nested fields). */
    final int extentBytes() {
        commit();
        return extent;
    }

    private void commit() {
        if (datatype == null) {
            Datatype predefined = predefinedType();
            if (predefined != null) {
                datatype = predefined;
                extent = (int) predefined.sizeBytes();
            } else {
                extent = (extent + alignment - 1) / alignment * alignment;
                datatype = Datatype.structOf(getClass().getSimpleName(), extent);
            }
        }
    }

    public final int getExtent() throws MPIException {
        commit();
        return extent;
    }

    public final Datatype getType() throws MPIException {
        commit();
        return datatype;
    }

    protected abstract Data newData();

    @SuppressWarnings("unchecked")
    <T extends Data> T newData(ByteBuffer buffer, int offset) {
        Data d = newData();
        d.buffer = buffer;
        d.offset = offset;
        return (T) d;
    }

    public final <T extends Data> T getData(ByteBuffer buffer) throws MPIException {
        commit();
        return newData(buffer, 0);
    }

    /** A view of item {@code index} of an array of structs in {@code buffer}. */
    public final <T extends Data> T getData(ByteBuffer buffer, int index) throws MPIException {
        commit();
        return newData(buffer, index * extent);
    }

    public final <T extends Data> T getData(byte[] array) throws MPIException {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()));
    }

    public final <T extends Data> T getData(byte[] array, int index) throws MPIException {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    /** Starts the next field at {@code offset} (not before the fields added so far). */
    public final Struct setOffset(int offset) {
        if (datatype != null) {
            throw new AssertionError("the struct data type was already committed");
        }
        if (offset < extent) {
            throw new IllegalArgumentException("the offset must be at least the accumulated extent " + extent);
        }
        extent = offset;
        return this;
    }

    public final int addByte() {
        return addByte(1);
    }

    public final int addByte(int length) {
        return addField(1, length);
    }

    public final int addChar() {
        return addChar(1);
    }

    public final int addChar(int length) {
        return addField(2, length);
    }

    public final int addShort() {
        return addShort(1);
    }

    public final int addShort(int length) {
        return addField(2, length);
    }

    public final int addInt() {
        return addInt(1);
    }

    public final int addInt(int length) {
        return addField(4, length);
    }

    public final int addLong() {
        return addLong(1);
    }

    public final int addLong(int length) {
        return addField(8, length);
    }

    public final int addFloat() {
        return addFloat(1);
    }

    public final int addFloat(int length) {
        return addField(4, length);
    }

    public final int addDouble() {
        return addDouble(1);
    }

    public final int addDouble(int length) {
        return addField(8, length);
    }

    public final int addBoolean() {
        return addBoolean(1);
    }

    public final int addBoolean(int length) {
        return addField(1, length);
    }

    public final int addStruct(Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    public final int addStruct(Struct struct, int length) throws MPIException {
        int ext = struct.getExtent();
        int offset = addField(ext, length);
        alignment = Math.max(alignment - 0, Math.min(8, struct.alignment));
        return offset;
    }

    public final int addData(Datatype type) throws MPIException {
        return addData(type, 1);
    }

    public final int addData(Datatype type, int length) throws MPIException {
        return addField((int) type.extentBytes(), length);
    }

    /** A view of one struct item in a byte buffer; subclasses add typed accessors for their fields. */
    public abstract class Data {
        private ByteBuffer buffer;
        private int offset;

        /** The buffer from this item on, usable in {@code send}/{@code recv}. */
        public final ByteBuffer getBuffer() {
            return offset == 0 ? buffer : MPI.slice(buffer, offset);
        }

        /** The buffer from field {@code field} of this item on, usable in {@code send}/{@code recv}. */
        protected final ByteBuffer getBuffer(Datatype type, int field) {
            int position = offset + field;
            return position == 0 ? buffer : MPI.slice(buffer, position);
        }

        /**
         * The buffer from element {@code index} of the array field {@code field} on, whose elements are
         * items of {@code type}.
         */
        protected final ByteBuffer getBuffer(Datatype type, int field, int index) throws MPIException {
            int position = Math.toIntExact(offset + field + index * type.extentBytes());
            return position == 0 ? buffer : MPI.slice(buffer, position);
        }

        protected final byte getByte(int field) {
            return buffer.get(offset + field);
        }

        protected final byte getByte(int field, int index) {
            return buffer.get(offset + field + index);
        }

        protected final void putByte(int field, byte v) {
            buffer.put(offset + field, v);
        }

        protected final void putByte(int field, int index, byte v) {
            buffer.put(offset + field + index, v);
        }

        protected final char getChar(int field) {
            return buffer.getChar(offset + field);
        }

        protected final char getChar(int field, int index) {
            return buffer.getChar(offset + field + index * 2);
        }

        protected final void putChar(int field, char v) {
            buffer.putChar(offset + field, v);
        }

        protected final void putChar(int field, int index, char v) {
            buffer.putChar(offset + field + index * 2, v);
        }

        protected final short getShort(int field) {
            return buffer.getShort(offset + field);
        }

        protected final short getShort(int field, int index) {
            return buffer.getShort(offset + field + index * 2);
        }

        protected final void putShort(int field, short v) {
            buffer.putShort(offset + field, v);
        }

        protected final void putShort(int field, int index, short v) {
            buffer.putShort(offset + field + index * 2, v);
        }

        protected final int getInt(int field) {
            return buffer.getInt(offset + field);
        }

        protected final int getInt(int field, int index) {
            return buffer.getInt(offset + field + index * 4);
        }

        protected final void putInt(int field, int v) {
            buffer.putInt(offset + field, v);
        }

        protected final void putInt(int field, int index, int v) {
            buffer.putInt(offset + field + index * 4, v);
        }

        protected final long getLong(int field) {
            return buffer.getLong(offset + field);
        }

        protected final long getLong(int field, int index) {
            return buffer.getLong(offset + field + index * 8);
        }

        protected final void putLong(int field, long v) {
            buffer.putLong(offset + field, v);
        }

        protected final void putLong(int field, int index, long v) {
            buffer.putLong(offset + field + index * 8, v);
        }

        protected final float getFloat(int field) {
            return buffer.getFloat(offset + field);
        }

        protected final float getFloat(int field, int index) {
            return buffer.getFloat(offset + field + index * 4);
        }

        protected final void putFloat(int field, float v) {
            buffer.putFloat(offset + field, v);
        }

        protected final void putFloat(int field, int index, float v) {
            buffer.putFloat(offset + field + index * 4, v);
        }

        protected final double getDouble(int field) {
            return buffer.getDouble(offset + field);
        }

        protected final double getDouble(int field, int index) {
            return buffer.getDouble(offset + field + index * 8);
        }

        protected final void putDouble(int field, double v) {
            buffer.putDouble(offset + field, v);
        }

        protected final void putDouble(int field, int index, double v) {
            buffer.putDouble(offset + field + index * 8, v);
        }

        protected final boolean getBoolean(int field) {
            return buffer.get(offset + field) != 0;
        }

        protected final boolean getBoolean(int field, int index) {
            return buffer.get(offset + field + index) != 0;
        }

        protected final void putBoolean(int field, boolean v) {
            buffer.put(offset + field, (byte) (v ? 1 : 0));
        }

        protected final void putBoolean(int field, int index, boolean v) {
            buffer.put(offset + field + index, (byte) (v ? 1 : 0));
        }

        /** A view of a nested struct field. */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field) {
            return struct.newData(buffer, offset + field);
        }

        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field, int index) {
            return struct.newData(buffer, offset + field + index * struct.extentBytes());
        }
    }
}
