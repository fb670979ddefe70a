package mpi;

/**
 * The envelope of a completed receive or probe: source, tag, error, whether it was cancelled, how
 * many bytes arrived, and (for the completion functions on arrays) the index of the request. The
 * setters ({@code MPI_STATUS_SET_ELEMENTS}, {@code MPI_STATUS_SET_CANCELLED}) are for programs that
 * fill in statuses themselves, as generalized requests do.
 */
public final class Status {
    private final int source;
    private final int tag;
    private final int error;
    private boolean cancelled;
    private long bytes;
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

    /**
     * Basic elements received (a MINLOC/MAXLOC pair counts two); {@code
     * MPI.UNDEFINED} if the bytes end inside a basic element.
     */
    public int getElements(Datatype datatype) throws MPIException {
        MPI.check();
        long elements = datatype.checkUsable().elementsIn(bytes);
        if (elements > Integer.MAX_VALUE) {
            return MPI.UNDEFINED;
        }
        return (int) elements;
    }

    /** As {@link #getElements}, as a {@link Count}. */
    public Count getElementsX(Datatype datatype) throws MPIException {
        MPI.check();
        return new Count(datatype.checkUsable().elementsIn(bytes));
    }

    /** Makes the status say that {@code count} basic elements of {@code datatype} arrived. */
    public void setElements(Datatype datatype, int count) throws MPIException {
        setElementsX(datatype, new Count(count));
    }

    /** As {@link #setElements}, with a {@link Count}. */
    public void setElementsX(Datatype datatype, Count count) throws MPIException {
        MPI.check();
        Datatype t = datatype.checkUsable();
        if (count == null || count.getCount() < 0) {
            throw Failures.error(MPI.ERR_COUNT, "negative or null element count " + count);
        }
        bytes = t.bytesOfElements(count.getCount());
    }

    public void setCancelled(boolean flag) throws MPIException {
        MPI.check();
        cancelled = flag;
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
