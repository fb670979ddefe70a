package mpi;

/** The item layout of {@code MPI.DOUBLE_INT}: a double value and an int index, for MINLOC / MAXLOC. */
public final class DoubleInt extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    protected DoubleInt(int intOff, int intSize) {
        valueOffset = addDouble();
        setOffset(intOff);
        indexOffset = addInt();
    }

    @Override
    Datatype predefinedType() {
        return MPI.DOUBLE_INT;
    }

    @Override
    protected DoubleInt.Data newData() {
        return new DoubleInt.Data();
    }

    /** Reads and writes one (double, int) pair. */
    public final class Data extends Struct.Data {
        public double getValue() {
            return getDouble(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(double v) {
            putDouble(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
