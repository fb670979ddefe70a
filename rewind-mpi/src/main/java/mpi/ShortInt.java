package mpi;

/** The item layout of {@code MPI.SHORT_INT}: a short value and an int index, for MINLOC / MAXLOC. */
public final class ShortInt extends Struct {
    private final int valueOffset;
    private final int indexOffset;

    protected ShortInt(int shortSize, int intOff, int intSize) {
        valueOffset = addShort();
        setOffset(intOff);
        indexOffset = addInt();
    }

    @Override
    Datatype predefinedType() {
        return MPI.SHORT_INT;
    }

    @Override
    protected ShortInt.Data newData() {
        return new ShortInt.Data();
    }

    /** Reads and writes one (short, int) pair. */
    public final class Data extends Struct.Data {
        public short getValue() {
            return getShort(valueOffset);
        }

        public int getIndex() {
            return getInt(indexOffset);
        }

        public void putValue(short v) {
            putShort(valueOffset, v);
        }

        public void putIndex(int v) {
            putInt(indexOffset, v);
        }
    }
}
