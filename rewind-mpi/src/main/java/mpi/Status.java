package mpi;

/**
 * The envelope of a completed receive or probe: source, tag, error, whether it was cancelled, how
 * many bytes arrived, and (for the completion functions on arrays) the index of the request.
 */
public final class Status {
    private final int source;
    private final int tag;
    private final int error;
    private final boolean cancelled;
    private final long bytes;
    private int index = MPI.UNDEFINED;

    Status(int source, int tag, int error, boolean cancelled, long bytes) {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.cancelled = cancelled;
        this.bytes = bytes;
    }

    /** The status of an inactive or null request: empty, as MPI defines it. */
    static Status empty() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, false, 0);
    }

    Status withIndex(int i) {
        this.index = i;
        return this;
    }

    long bytes() {
        return bytes;
    }

    /** Items of {@code datatype} received; {@code MPI.UNDEFINED} if the bytes are not a whole number of items. */
    public int getCount(Datatype datatype) throws MPIException {
        MPI.check();
        long size = datatype.checkUsable().sizeBytes();
        if (size == 0) {
            return bytes == 0 ? 0 : MPI.UNDEFINED;
        }
        return bytes % size == 0 ? (int) (bytes / size) : MPI.UNDEFINED;
    }

    /** Basic elements received (a pair type counts two per item). */
    public int getElements(Datatype datatype) throws MPIException {
        MPI.check();
        Datatype t = datatype.checkUsable();
        return (int) t.elementsIn(bytes);
    }

    public boolean isCancelled() throws MPIException {
        MPI.check();
        return cancelled;
    }

    public int getSource() {
        return source;
    }

    public int getTag() {
        return tag;
    }

    public int getError() {
        return error;
    }

    public int getIndex() {
        return index;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", error=" + error + ", bytes=" + bytes
                + (cancelled ? ", cancelled" : "") + (index != MPI.UNDEFINED ? ", index=" + index : "") + "]";
    }
}
