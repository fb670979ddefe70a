package mpi;

/** The item layout of {@code MPI.FLOAT_INT}: a float value and an int index, for MINLOC / MAXLOC. */
public final class FloatInt extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    protected FloatInt(int intOff, int intSize) {
        valueOffset = addFloat();
        setOffset(intOff);
        indexOffset = addInt();
    }

    @Override
    Datatype predefinedType() {
        return MPI.FLOAT_INT;
    }

    @Override
    protected FloatInt.Data newData() {
        return new FloatInt.Data();
    }

    /** Reads and writes one (float, int) pair. */
    public final class Data extends Struct.Data {
        public float getValue() {
            return getFloat(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(float v) {
            putFloat(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
