package mpi;

/** The item layout of {@code MPI.INT2}: a int value and an int index, for MINLOC / MAXLOC. */
public final class Int2 extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    protected Int2(int intOff, int intSize) {
        valueOffset = addInt();
        setOffset(intOff);
        indexOffset = addInt();
    }

    @Override
    Datatype predefinedType() {
        return MPI.INT2;
    }

    @Override
    protected Int2.Data newData() {
        return new Int2.Data();
    }

    /** Reads and writes one (int, int) pair. */
    public final class Data extends Struct.Data {
        public int getValue() {
            return getInt(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(int v) {
            putInt(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
