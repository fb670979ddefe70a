package mpi;

/** The item layout of {@code MPI.LONG_INT}: a long value and an int index, for MINLOC / MAXLOC. */
public final class LongInt extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    protected LongInt(int longSize, int intOff, int intSize) {
        valueOffset = addLong();
        setOffset(intOff);
        indexOffset = addInt();
    }

    @Override
    Datatype predefinedType() {
        return MPI.LONG_INT;
    }

    @Override
    protected LongInt.Data newData() {
        return new LongInt.Data();
    }

    /** Reads and writes one (long, int) pair. */
    public final class Data extends Struct.Data {
        public long getValue() {
            return getLong(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(long v) {
            putLong(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
